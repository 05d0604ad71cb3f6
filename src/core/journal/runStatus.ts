/**
 * A live run's status: whether it is going on, waits for the user, or is over, its counts, and the
 * one line of progress the editor shows for it. The run daemon owns it — it folds each journaled
 * event with `foldStatus` and pushes every change (`StatusFeed`) — and the faces only show what
 * they are given, so the counts and the wording exist here alone.
 *
 * Pure: no Node, no VS Code. The one thing that depends on time, a wait's line giving way to the
 * run's own line when the wait is over, goes through the Clock port.
 */
import { addJudgeCount, silenceText } from '../gates/abstentions';
import type { JudgeCount } from '../gates/abstentions';
import { formatWait } from '../llm/retry';
import type { Clock } from '../ports';
import { describeEstimate } from './costText';
import type { EngineEvent, EventOf } from './events';
import type { RunKind } from './payloadTypes';
import { isTerminalRunState } from './runStates';
import type { LiveRunState } from './runStates';

export interface LiveRunStatus {
  runId: string;
  /** How it stands: runStates.ts says what each word means. */
  state: LiveRunState;
  /** Candidates decided by the gate, and how many of them it committed. */
  tested: number;
  commits: number;
  /** The progress text: "testing v3", "3 tested · 1 committed", "rate limited, waiting 12 s"… */
  line: string;
  /** While an LLM call waits: `line` says so for `ms`, then `then` (the run's own line) comes back. */
  wait?: { ms: number; then: string };
  /** Why a `failed` run stopped, and its RatchetError code (an endpoint's failure gets Test Connection). */
  error?: string;
  errorCode?: string;
  /** What the run does, once its `run/started` is folded: a code search words its line its own way. */
  kind?: RunKind;
  /** A code search's scores, once its starting program is evaluated. */
  search?: SearchScores;
  /** A code search's evaluator slots as they are now (live, never journaled: see `EvaluatorLoad`). */
  evaluator?: EvaluatorLoad;
  /** Why a finished run stopped before its budget was spent, in one sentence (run/finished's). */
  stopped?: string;
  /** A dev-set generation's tally so far (and how many rounds it writes, when it said). */
  generated?: GeneratedTally;
  /** The judge's answers over the run's decisions and how many it did not give (#25); absent until a test asked it. */
  judge?: JudgeCount;
}

/** What a dev-set generation (gen-data) has written so far: its rounds, dev tasks and held-out tasks. */
export interface GeneratedTally {
  rounds: number;
  of?: number;
  dev: number;
  test: number;
}

/**
 * How busy a code search's evaluator is. Not an engine event: the search journals its events in a
 * reproducible order, not as evaluations start and end, so the process running it reports this
 * beside the events (src/node/runs/evaluatorLoad.ts) and only the live status carries it.
 */
export interface EvaluatorLoad {
  /** Evaluations running now, of `slots` (the spec's concurrency). On Slurm: tasks running, of the tasks in flight. */
  busy: number;
  slots: number;
  /** Evaluations this process started (a resumed run counts from its resume). */
  runs: number;
  /** budget.evaluations, when the spec sets one. */
  budget?: number;
  /** evaluator.backend: slurm — the run's tasks on the cluster (the Programs view's throughput, the status bar's jobs in flight). */
  cluster?: ClusterLoad;
}

/** A code search's Slurm tasks as they are now, over every process that ran it (the journal's `slurm/*` events hold their history). */
export interface ClusterLoad {
  /** Tasks submitted and waiting in the queue, running now, and over (any final state: done, failed, cancelled). */
  queued: number;
  running: number;
  finished: number;
  /** Array jobs with a task queued or running. */
  jobs: number;
  /** sacct's ElapsedRaw × AllocCPUS over the tasks that finished: what budget.clusterHours counts. */
  clusterSeconds: number;
  clusterHoursBudget?: number;
  /** Why submissions wait: Slurm does not answer, or takes no more jobs for now. */
  paused?: string;
}

/**
 * The scores a code search is judged by. The best is the best program the gate let in (the
 * starting program until a child commits); at the end, the one the run names (its incumbent).
 */
export interface SearchScores {
  /** The starting program's score. */
  start?: number;
  best?: { candidateId: string; score: number };
  /**
   * The scores of the programs the gate let in, by id: the run's end names its best among them.
   * A search commits few children (each one needs the gate's evidence), so this stays small.
   */
  committed: Record<string, number>;
  /** The child the gate just committed: its `program/evaluated`, next, brings its score. */
  committing?: string;
}

export function isOver(status: LiveRunStatus): boolean {
  return isTerminalRunState(status.state);
}

/**
 * A code search that is done and waits only for the user's answer to its best program. No face
 * offers Cancel then — not the progress notification (it closes), the panel header (its Cancel is
 * disabled, its hover says why), the status bar or the Runs view — and each says the run waits for
 * your Accept or Reject instead: the run has no work left to cancel, and a Cancel would only drop
 * the suggestion unanswered, which Reject does in the user's own words (and the run then finishes).
 */
export function waitsOnlyForYou(status: LiveRunStatus): boolean {
  return status.kind === 'search' && status.state === 'waiting-for-you';
}

/** Nothing of the run's own work is left: it is over, or it waits only for the user's answer (`waitsOnlyForYou`). */
export function isWorkDone(status: LiveRunStatus): boolean {
  return isOver(status) || waitsOnlyForYou(status);
}

/** How a code search that waits only for the user's answer says so: the status bar's line and the panel header's. */
export function searchDoneLine(candidateId: string): string {
  return `the search is done; ${candidateId} waits for your Accept or Reject`;
}

/** A run whose first event has not been folded yet. */
export function startingStatus(runId: string): LiveRunStatus {
  return { runId, state: 'running', tested: 0, commits: 0, line: 'starting' };
}

function countsLine(s: LiveRunStatus): string {
  const silence = silenceText(s.judge);
  return silence === undefined ? testedLine(s) : `${testedLine(s)} · ${silence}`;
}

function testedLine(s: LiveRunStatus): string {
  if (s.kind !== 'search') return `${s.tested} tested · ${s.commits} committed`;
  const tested = `${s.tested} program${s.tested === 1 ? '' : 's'} tested · ${s.commits} committed`;
  const { start, best } = s.search ?? {};
  if (best === undefined) return start === undefined ? tested : `${tested} · start ${formatScore(start)}`;
  return `${tested} · best ${formatScore(best.score)}${start === undefined ? '' : ` (start ${formatScore(start)})`}`;
}

/** A score in a progress line: four significant digits, no trailing zeros (0.6123, 2.5, 1234). */
export function formatScore(score: number): string {
  return String(Number(score.toPrecision(4)));
}

/** Why a code search's proposal came to nothing, in the user's words. */
export const PROPOSAL_FAILED: Record<EventOf<'proposal/failed'>['reason'], string> = {
  format: 'could not be read',
  patch: 'did not apply',
  duplicate: 'repeats a program',
  'not-novel': 'nearly repeats a program',
};

/**
 * The status after one event. Returns the same object when the event changes nothing the status
 * shows (most events: verdicts, items, costs), so a caller can push only changes.
 */
export function foldStatus(s: LiveRunStatus, e: EngineEvent): LiveRunStatus {
  switch (e.type) {
    case 'run/started':
      if (e.info.kind === 'gen-data') return generationStarted(s, e.info);
      return e.info.kind === s.kind ? s : { ...s, kind: e.info.kind };
    case 'zero/round':
      return roundDone(s, e);
    case 'candidate/proposed':
      if (s.kind === 'search' && e.parentId === undefined) return shown(s, { state: 'running' }, 'evaluating the starting program');
      return shown(s, { state: 'running' }, e.candidateId === 'v0' ? 'scoring the starting prompt' : `testing ${e.candidateId}`);
    case 'decision': {
      const committed = e.record.decision === 'commit';
      const next: Partial<LiveRunStatus> = { tested: s.tested + 1, commits: s.commits + (committed ? 1 : 0) };
      if (e.record.judge) next.judge = addJudgeCount(s.judge, e.record.judge);
      if (s.kind === 'search') next.search = withCommitting(s.search, committed ? e.record.candidateId : undefined);
      return shown(s, next, countsLine({ ...s, ...next }));
    }
    case 'program/evaluated': {
      if (s.kind !== 'search' || e.score === undefined || !e.correct) return s;
      const search = programScored(s.search, e.candidateId, e.score);
      if (search === s.search) return s;
      return shown(s, { search }, countsLine({ ...s, search }));
    }
    case 'proposal/failed':
      return shown(s, {}, `${countsLine(s)} · a proposal ${PROPOSAL_FAILED[e.reason]}`);
    case 'suggestion':
      // A code search goes on while its best waits in the editor; it waits for you only once done (`StatusFeed.waitingForYou`).
      if (s.kind === 'search') return shown(s, {}, `${e.candidateId}, a new best, is in the editor for your Accept or Reject`);
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
    case 'run/finished': {
      if (s.kind === 'gen-data') return shown(s, { state: 'finished' }, generatedLine(s.generated));
      // Evaluate tests no candidate: its line stays what it scored (report/test's), not "0 tested · 0 committed".
      if (s.kind === 'evaluate') return shown(s, { state: 'finished' }, s.wait?.then ?? s.line);
      const next: Partial<LiveRunStatus> = { state: 'finished', ...(e.stopped === undefined ? {} : { stopped: e.stopped }) };
      if (s.kind === 'search' && s.search) next.search = finalBest(s.search, e.incumbentId);
      return shown(s, next, countsLine({ ...s, ...next }));
    }
    case 'run/failed':
      return { ...shown(s, { state: 'failed' }, s.wait?.then ?? s.line), error: e.error.message, errorCode: e.error.code };
    case 'run/cancelled':
      // Its counts, not the line it was on: "c9 waits for your Accept or Reject" is no longer so.
      return shown(s, { state: 'cancelled' }, countsLine(s));
    case 'run/resumed':
      return resumed(s);
    case 'slurm/status':
      // An outage of the cluster is the run's news until Slurm answers (`resumed` brings the run's line back; the live load says it too).
      if (e.state === 'paused') return { ...s, line: `Slurm paused: ${e.message}`, wait: { ms: 86_400_000, then: s.wait?.then ?? s.line } };
      if (e.state === 'probing') return shown(s, { state: 'running' }, e.message);
      return s.wait ? endWait(s) : s;
    default:
      return s;
  }
}

/** A run taken up again from its journal: its counts so far, going on (whatever stopped it). */
export function resumingStatus(runId: string, journaled: readonly EngineEvent[]): LiveRunStatus {
  return resumed(journaled.reduce(foldStatus, startingStatus(runId)));
}

function resumed(s: LiveRunStatus): LiveRunStatus {
  const kept = {
    runId: s.runId,
    state: 'running' as const,
    tested: s.tested,
    commits: s.commits,
    ...(s.kind ? { kind: s.kind } : {}),
    ...(s.search ? { search: s.search } : {}),
    ...(s.judge ? { judge: s.judge } : {}),
  };
  return { ...kept, line: s.tested > 0 ? countsLine(kept as LiveRunStatus) : 'starting' };
}

// ---- a code search's scores -------------------------------------------------------------------

function withCommitting(search: SearchScores | undefined, candidateId: string | undefined): SearchScores {
  const { committing: _done, ...rest } = search ?? { committed: {} };
  return candidateId === undefined ? rest : { ...rest, committing: candidateId };
}

/**
 * A program's score: the starting program's (the first evaluated, before any decision) or the
 * child the gate just committed. Any other child's score is not the search's to show.
 */
function programScored(search: SearchScores | undefined, candidateId: string, score: number): SearchScores | undefined {
  const isStart = search === undefined;
  if (!isStart && search.committing !== candidateId) return search;
  const { committing: _scored, ...rest } = search ?? { committed: {} };
  const committed = { ...rest.committed, [candidateId]: score };
  const best = rest.best === undefined || score > rest.best.score ? { candidateId, score } : rest.best;
  return { ...rest, ...(isStart ? { start: score } : {}), committed, best };
}

// ---- a dev-set generation's rounds ------------------------------------------------------------

/** Before its first call: which round comes and what the whole run should cost, as the CLI prints it. */
function generationStarted(s: LiveRunStatus, info: EventOf<'run/started'>['info']): LiveRunStatus {
  const generated: GeneratedTally = s.generated ?? { rounds: 0, dev: 0, test: 0, ...(info.rounds === undefined ? {} : { of: info.rounds }) };
  const estimate = info.estimate ? ` · estimate ${describeEstimate(info.estimate)}` : '';
  return shown(s, { kind: 'gen-data', generated }, `${nextRound(generated)}${estimate}`);
}

/** A zero-data round is journaled: a generation counts its tasks, an evolve run without a dataset says what it got. */
function roundDone(s: LiveRunStatus, e: EventOf<'zero/round'>): LiveRunStatus {
  const got = `${e.kept.length} kept, ${e.heldOut.length} held out`;
  if (s.kind !== 'gen-data') return shown(s, {}, `zero-data round ${e.round}: ${got}`);
  const before = s.generated ?? { rounds: 0, dev: 0, test: 0 };
  const generated = { ...before, rounds: before.rounds + 1, dev: before.dev + e.kept.length, test: before.test + e.heldOut.length };
  const more = generated.of === undefined || generated.rounds < generated.of ? ` · ${nextRound(generated)}` : '';
  return shown(s, { generated }, `round ${e.round}${generated.of === undefined ? '' : ` of ${generated.of}`} done: ${got}${more}`);
}

function nextRound(g: GeneratedTally): string {
  return `round ${g.rounds + 1}${g.of === undefined ? '' : ` of ${g.of}`}: writing and judging tasks`;
}

/** How a generation ended: what it wrote (nothing when no round finished before a budget ran out). */
export function generatedLine(g: GeneratedTally | undefined): string {
  if (g === undefined || g.rounds === 0) return 'no round finished: nothing written';
  return `${g.dev} dev task${g.dev === 1 ? '' : 's'} and ${g.test} held-out from ${g.rounds} round${g.rounds === 1 ? '' : 's'}`;
}

/** The run's end names its best program (an island's incumbent); its score is among the committed ones. */
function finalBest(search: SearchScores, incumbentId: string | undefined): SearchScores {
  const score = incumbentId === undefined ? undefined : search.committed[incumbentId];
  return score === undefined || incumbentId === undefined ? search : { ...search, best: { candidateId: incumbentId, score } };
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

  /** A code search's evaluator load changed (while the run goes on). */
  evaluator(load: EvaluatorLoad): void {
    if (!isOver(this.status)) this.set({ ...this.status, evaluator: load });
  }

  /** A code search is done and waits for the user's answer to its best program (not an engine event: when it comes is the user's). */
  waitingForYou(candidateId: string): void {
    if (!isOver(this.status)) this.set(shown(this.status, { state: 'waiting-for-you' }, searchDoneLine(candidateId)));
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
