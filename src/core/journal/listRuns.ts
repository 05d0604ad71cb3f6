/**
 * One line per run for `ratchet runs list` and the panel's run picker, folded from each run's
 * journal. A broken run is listed as `corrupt` with the reason rather than failing the list: the
 * user looking for yesterday's good run should not be stopped by last week's damaged one.
 */
import type { Files } from '../ports';
import { runGuarantee } from '../gates/guarantee';
import { isResumableFailure, isTerminal } from './eventClasses';
import { addJudgeCount } from '../gates/abstentions';
import type { EngineEvent, JournaledEvent } from './events';
import type { RunKind } from './payloadTypes';
import { readRunOwner, readRunRecord, runPaths, runsDir } from './journal';
import type { RunOwner, RunRecord } from './journal';
import { readJournal } from './replay';
import type { Replay } from './replay';
import { runStateRow } from './runStates';
import type { ListedRunStatus } from './runStates';

export interface RunCost {
  /** undefined when some call used a model without a known price: then only tokens are known. */
  dollars: number | undefined;
  tokens: number;
  llmCalls: number;
}

export interface RunSummary {
  runId: string;
  kind: RunKind | undefined;
  target: string | undefined;
  /** What its journal on disk can tell (runStates.ts): never `waiting-for-you`, and `corrupt` for a journal that cannot be read. */
  status: ListedRunStatus;
  /** Milliseconds since the epoch: the first event's time, else run.json's createdAt. */
  started: number | undefined;
  lastEventAt: number | undefined;
  events: number;
  candidates: number;
  commits: number;
  cost: RunCost | undefined;
  gate: string | undefined;
  alpha: number | undefined;
  /** What the run guarantees about false commits, in words (core/gates/guarantee.ts); absent when it says nothing. */
  guarantee?: string;
  tornTail: boolean;
  /** Why the run is `corrupt`, or the error a `failed` run ended with. */
  reason?: string;
  /** It can go on from its journal: interrupted, or failed because the endpoint did. */
  resumable: boolean;
  /** The tasks its zero-data rounds wrote (`zero/round` events), for a dev-set generation's line; absent without a round. */
  generated?: { rounds: number; dev: number; test: number };
  /** The judge's answers over its decisions and how many it did not give (#25); absent while no test asked the judge. */
  judge?: { answers: number; abstained: number; model?: string };
  /** Answers cut off before their end (a length limit, a content filter) and not read, all roles (#25); absent when none. */
  truncated?: number;
}

export interface ListRunsOptions {
  /** Whether the process named in a run's lock.json is alive; undefined when it cannot tell (another host). */
  isOwnerAlive?: (owner: RunOwner) => boolean | undefined;
  /** Without a lock verdict, a run that journaled within `staleAfterMs` of `now` counts as running. */
  now?: number;
  staleAfterMs?: number;
  /**
   * Reads a journal event by event. Node faces pass one that streams the file (journalStream.ts),
   * so listing a run of a million events takes the memory of one line; without it the journal is
   * read whole.
   */
  streamJournal?: JournalStreamer;
}

/** Feeds `onEvent` every event of `eventsPath`; errors as readJournal's (journalMissing, journalCorrupt). */
export type JournalStreamer = (eventsPath: string, onEvent: (event: JournaledEvent) => void) => Promise<{ tornTail: boolean }>;

/** Runs under `<root>/.ratchet/runs`, newest first; [] when there are none. */
export async function listRuns(files: Files, root: string, options: ListRunsOptions = {}): Promise<RunSummary[]> {
  const names = await files.list(runsDir(files, root));
  const summaries: RunSummary[] = [];
  for (const name of names) {
    const paths = runPaths(files, root, name);
    // Stray files (a .DS_Store, a note) are not runs.
    if (!(await files.exists(paths.runJson)) && !(await files.exists(paths.events))) continue;
    summaries.push(await summarizeRunDir(files, root, name, options));
  }
  // Run ids start with their UTC start time, so string order is time order.
  return summaries.sort((a, b) => (a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0));
}

async function summarizeRunDir(files: Files, root: string, runId: string, options: ListRunsOptions): Promise<RunSummary> {
  const paths = runPaths(files, root, runId);
  let record: RunRecord | undefined;
  try {
    record = await readRunRecord(files, paths.runJson);
    const folding = new RunSummaryFold(runId, record);
    const stream: JournalStreamer =
      options.streamJournal ??
      (async (file, onEvent) => {
        const replay = await readJournal(files, file);
        for (const e of replay.events) onEvent(e);
        return replay;
      });
    const { tornTail } = await stream(paths.events, (e) => folding.add(e));
    const summary = folding.finish(tornTail);
    summary.status = await resolveStatus(files, paths.lock, summary, options);
    return summary;
  } catch (err) {
    return {
      ...emptySummary(runId, record),
      status: 'corrupt',
      reason: err instanceof Error ? err.message : String(err),
    };
  }
}

/**
 * Folds a run's events into its summary. A run with no terminal event is reported `interrupted`;
 * `listRuns` upgrades it to `running` when its owner is alive.
 */
export function summarizeRun(runId: string, record: RunRecord | undefined, replay: Replay): RunSummary {
  const folding = new RunSummaryFold(runId, record);
  for (const e of replay.events) folding.add(e);
  return folding.finish(replay.tornTail);
}

/** `summarizeRun` one event at a time, for a journal streamed rather than read whole. */
export class RunSummaryFold {
  private readonly summary: RunSummary;
  private proposed = 0;
  private committed = 0;
  private status: ListedRunStatus = 'interrupted';
  /** Dev and held-out tasks by round number: a round journaled again (replayed on resume) counts once. */
  private readonly rounds = new Map<number, { dev: number; test: number }>();

  constructor(runId: string, record: RunRecord | undefined) {
    this.summary = emptySummary(runId, record);
  }

  add(e: EngineEvent): void {
    const summary = this.summary;
    if (summary.events++ === 0) summary.started = e.at;
    summary.lastEventAt = e.at;
    if (this.status === 'failed' && !isTerminal(e)) {
      // Journaled on after a failure: the run was resumed.
      this.status = 'interrupted';
      delete summary.reason;
    }
    fold(summary, e);
    if (e.type === 'candidate/proposed') this.proposed++;
    else if (e.type === 'decision' && e.record.decision === 'commit') this.committed++;
    else if (e.type === 'zero/round') this.rounds.set(e.round, { dev: e.kept.length, test: e.heldOut.length });
    else if (e.type === 'run/finished') {
      this.status = 'finished';
      // The engine's own count wins: it may count candidates it never journaled (duplicates).
      summary.candidates = e.candidates;
      summary.commits = e.commits;
    } else if (e.type === 'run/failed') {
      this.status = 'failed';
      summary.reason = e.error.message;
      summary.resumable = isResumableFailure(e);
    } else if (e.type === 'run/cancelled') this.status = 'cancelled';
  }

  finish(tornTail: boolean): RunSummary {
    const summary = { ...this.summary, tornTail, status: this.status };
    if (this.status !== 'finished') {
      summary.candidates = this.proposed;
      summary.commits = this.committed;
    }
    if (runStateRow(this.status).resumable === 'always') summary.resumable = true;
    if (this.rounds.size > 0) {
      const tasks = [...this.rounds.values()];
      summary.generated = { rounds: tasks.length, dev: tasks.reduce((n, r) => n + r.dev, 0), test: tasks.reduce((n, r) => n + r.test, 0) };
    }
    return summary;
  }
}

function fold(summary: RunSummary, e: EngineEvent): void {
  if (e.type === 'run/started') {
    // The run's own word at its start: an editor Evaluate is a prompt run allowed no candidates,
    // whose run.json says evolve while its start says evaluate.
    summary.kind = e.info.kind;
    summary.target ??= e.info.target;
    summary.gate = e.info.gate;
    summary.alpha = e.info.alpha;
    const guarantee = runGuarantee(e.info);
    if (guarantee !== undefined) summary.guarantee = guarantee;
  } else if (e.type === 'cost/update') {
    summary.cost = totalCost(e.cost, e.llmCalls);
    const truncated = Object.values(e.cost).reduce((n, c) => n + (c.truncated ?? 0), 0);
    if (truncated > 0) summary.truncated = truncated;
  } else if (e.type === 'decision' && e.record.judge) {
    const j = e.record.judge;
    const model = summary.judge?.model ?? j.model;
    summary.judge = { ...addJudgeCount(summary.judge, j), ...(model === undefined ? {} : { model }) };
  }
}

/** Sums a CostReport over roles. Read defensively: the journal checks `cost` is an object, not its fields. */
export function totalCost(cost: Record<string, unknown>, llmCalls: number): RunCost {
  let tokens = 0;
  let dollars: number | undefined = 0;
  for (const role of Object.values(cost)) {
    if (role === null || typeof role !== 'object') continue;
    const r = role as Record<string, unknown>;
    tokens += num(r.promptTokens) + num(r.completionTokens);
    if (num(r.calls) === 0) continue;
    dollars = typeof r.dollars === 'number' && dollars !== undefined ? dollars + r.dollars : undefined;
  }
  return { dollars, tokens, llmCalls };
}

/**
 * The status of a summarized run once liveness is known: a run with no terminal event is `running`
 * while its owner process lives (or, when that cannot be asked, while it journaled recently).
 */
export async function resolveStatus(files: Files, lockPath: string, summary: RunSummary, options: ListRunsOptions): Promise<ListedRunStatus> {
  const status = await liveStatus(files, lockPath, summary, options);
  // A run that is going on now is not offered for resuming.
  if (status === 'running') summary.resumable = false;
  return status;
}

async function liveStatus(files: Files, lockPath: string, summary: RunSummary, options: ListRunsOptions): Promise<ListedRunStatus> {
  if (summary.status !== 'interrupted') return summary.status;
  const owner = await readRunOwner(files, lockPath);
  const alive = owner && options.isOwnerAlive ? options.isOwnerAlive(owner) : undefined;
  if (alive !== undefined) return alive ? 'running' : 'interrupted';
  const lastSeen = summary.lastEventAt ?? summary.started;
  if (options.now === undefined || lastSeen === undefined) return 'interrupted';
  return options.now - lastSeen <= (options.staleAfterMs ?? 15 * 60_000) ? 'running' : 'interrupted';
}

function emptySummary(runId: string, record: RunRecord | undefined): RunSummary {
  const created = record ? Date.parse(record.createdAt) : NaN;
  return {
    runId,
    kind: record?.kind,
    target: record?.target,
    status: 'interrupted',
    started: Number.isFinite(created) ? created : undefined,
    lastEventAt: undefined,
    events: 0,
    candidates: 0,
    commits: 0,
    cost: undefined,
    gate: undefined,
    alpha: undefined,
    tornTail: false,
    resumable: false,
  };
}

function num(x: unknown): number {
  return typeof x === 'number' && Number.isFinite(x) ? x : 0;
}
