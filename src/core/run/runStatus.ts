/**
 * A live run's status: whether it is going on, waits for the user, or is over, its counts, and the
 * one line of progress the editor shows for it. The run daemon owns it — it folds each journaled
 * event with `foldStatus` and pushes every change (`StatusFeed`) — and the faces only show what
 * they are given, so the counts and the wording exist here alone.
 *
 * Pure: no Node, no VS Code. The one thing that depends on time, a wait's line giving way to the
 * run's own line when the wait is over, goes through the Clock port.
 */
import { formatWait } from '../llm/retry';
import type { Clock } from '../ports';
import type { EngineEvent } from './events';

/**
 * `waiting-for-you`: a gated suggestion waits for Accept or Reject. `interrupted`: the run stopped
 * with no terminal event (it can be resumed from its journal).
 */
export type LiveRunState = 'running' | 'waiting-for-you' | 'finished' | 'failed' | 'cancelled' | 'interrupted';

export interface LiveRunStatus {
  runId: string;
  state: LiveRunState;
  /** Candidates decided by the gate, and how many of them it committed. */
  tested: number;
  commits: number;
  /** The progress text: "testing v3", "3 tested · 1 committed", "rate limited, waiting 12 s"… */
  line: string;
  /** While an LLM call waits: `line` says so for `ms`, then `then` (the run's own line) comes back. */
  wait?: { ms: number; then: string };
  /** Why a `failed` run stopped. */
  error?: string;
}

const TERMINAL: ReadonlySet<LiveRunState> = new Set(['finished', 'failed', 'cancelled', 'interrupted']);

export function isOver(status: LiveRunStatus): boolean {
  return TERMINAL.has(status.state);
}

/** A run whose first event has not been folded yet. */
export function startingStatus(runId: string): LiveRunStatus {
  return { runId, state: 'running', tested: 0, commits: 0, line: 'starting' };
}

const countsLine = (s: LiveRunStatus): string => `${s.tested} tested · ${s.commits} committed`;

/**
 * The status after one event. Returns the same object when the event changes nothing the status
 * shows (most events: verdicts, items, costs), so a caller can push only changes.
 */
export function foldStatus(s: LiveRunStatus, e: EngineEvent): LiveRunStatus {
  switch (e.type) {
    case 'candidate/proposed':
      return shown(s, { state: 'running' }, e.candidateId === 'v0' ? 'scoring the starting prompt' : `testing ${e.candidateId}`);
    case 'decision': {
      const next = { tested: s.tested + 1, commits: s.commits + (e.record.decision === 'commit' ? 1 : 0) };
      return shown(s, next, countsLine({ ...s, ...next }));
    }
    case 'suggestion':
      return shown(s, { state: 'waiting-for-you' }, `${e.candidateId} waits for your Accept or Reject`);
    case 'edit/applied':
    case 'edit/rejected':
      // The user answered (or autopilot wrote it): the run goes on from its counts.
      return s.state === 'waiting-for-you' ? shown(s, { state: 'running' }, countsLine(s)) : s;
    case 'report/test':
      return shown(s, {}, `test split: ${e.final.mean.toFixed(3)} (n = ${e.n})`);
    case 'llm/waiting': {
      const line = `${e.why === 'rate-limited' ? 'rate limited' : 'retrying a failed call'}, waiting ${formatWait(e.waitMs)}`;
      // A wait during a wait gives way to the run's own line, not to the first wait's.
      return { ...s, line, wait: { ms: e.waitMs, then: s.wait?.then ?? s.line } };
    }
    case 'run/finished':
      return shown(s, { state: 'finished' }, countsLine(s));
    case 'run/failed':
      return { ...shown(s, { state: 'failed' }, s.wait?.then ?? s.line), error: e.error.message };
    case 'run/cancelled':
      return shown(s, { state: 'cancelled' }, s.wait?.then ?? s.line);
    case 'run/resumed':
      return resumed(s);
    default:
      return s;
  }
}

/** A run taken up again from its journal: its counts so far, going on (whatever stopped it). */
export function resumingStatus(runId: string, journaled: readonly EngineEvent[]): LiveRunStatus {
  return resumed(journaled.reduce(foldStatus, startingStatus(runId)));
}

function resumed(s: LiveRunStatus): LiveRunStatus {
  return { runId: s.runId, state: 'running', tested: s.tested, commits: s.commits, line: s.tested > 0 ? countsLine(s) : 'starting' };
}

/** The wait is over: the run's own line comes back. */
export function endWait(s: LiveRunStatus): LiveRunStatus {
  if (!s.wait) return s;
  const { wait, ...rest } = s;
  return { ...rest, line: wait.then };
}

/**
 * The run stopped (its work settled): a status that is not over yet becomes `failed` with the
 * error, or `interrupted` when it stopped with none (cancelled before its journal said so).
 */
export function endStatus(s: LiveRunStatus, error?: string): LiveRunStatus {
  if (isOver(s)) return s;
  const ended = endWait(s);
  return error === undefined ? { ...ended, state: 'interrupted' } : { ...ended, state: 'failed', error };
}

function shown(s: LiveRunStatus, change: Partial<LiveRunStatus>, line: string): LiveRunStatus {
  const { wait: _wait, ...rest } = s;
  return { ...rest, ...change, line };
}

/**
 * One run's status as it changes: folds events, pushes each change, and puts the run's own line
 * back when a wait is over (unless an event moved the status on meanwhile).
 */
export class StatusFeed {
  private waitOver: AbortController | undefined;

  constructor(
    private status: LiveRunStatus,
    private readonly push: (status: LiveRunStatus) => void,
    private readonly clock: Clock,
  ) {}

  get current(): LiveRunStatus {
    return this.status;
  }

  event(e: EngineEvent): void {
    this.set(foldStatus(this.status, e));
  }

  /** The run's work settled; see `endStatus`. */
  end(error?: string): void {
    this.set(endStatus(this.status, error));
  }

  private set(next: LiveRunStatus): void {
    if (next === this.status) return;
    this.waitOver?.abort();
    this.waitOver = undefined;
    this.status = next;
    this.push(next);
    if (!next.wait || isOver(next)) return;
    const over = new AbortController();
    this.waitOver = over;
    this.clock.sleep(next.wait.ms, over.signal).then(
      () => {
        if (this.status === next) this.set(endWait(next));
      },
      () => undefined, // moved on before the wait was over
    );
  }
}
