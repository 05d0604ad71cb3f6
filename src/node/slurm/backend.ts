/**
 * The Slurm evaluation backend of a code search (issue #18): the engine's evaluation ports
 * (`evaluate`, `evaluateShards`) over Slurm array jobs, with the journal, the evaluation cache,
 * the sandbox and the gates as they are for a local run.
 *
 * - One program's shards are one `sbatch --array` job, a task per shard; each task runs the
 *   sandboxed evaluator on its node (taskMain.ts) and writes its result into the shared run folder.
 *   The job is journaled (`slurm/submitted`, job id and every task's evaluation key) before
 *   anything relies on it.
 * - One poller watches every task of the run: `squeue` while they are queued or running, `sacct`
 *   once they leave the queue (their final state, ElapsedRaw × AllocCPUS = cluster-seconds), backing
 *   off from `pollSeconds` to 30 s while nothing changes. A finished task's result resolves its
 *   shard, in whatever order; the gate consumes them in its own pre-fixed order.
 * - A shard the gate no longer needs (its verdict came first) is `scancel`ed, still accounted.
 * - A task Slurm ended without a result (NODE_FAIL, TIMEOUT, OUT_OF_MEMORY, PREEMPTED, FAILED,
 *   CANCELLED by someone else) is submitted again up to `retries` times, then counts as an
 *   incorrect evaluation with Slurm's reason.
 * - `budget.clusterHours`: once the run's cluster-seconds reach it, every task in flight is
 *   cancelled and every evaluation refused (budgetExhausted); the search ends with what it has.
 * - Resume: the journal's submissions are re-attached to (queued or running), read (finished), or
 *   known to have failed; a job submitted but never journaled (the process died in between) is
 *   found by the run's job name. No shard is submitted twice.
 * - `close()` cancels whatever the run still has on the cluster and waits until squeue shows none.
 */
import { join } from 'node:path';
import { isCancellation, RatchetError } from '../../core/errors';
import { isSecretName } from '../../core/code/evaluatorPort';
import type { ProgramBatchEvaluator, ProgramEvaluation, ProgramEvaluator } from '../../core/code/search';
import type { SlurmSpec } from '../../core/code/spec';
import type { Clock } from '../../core/ports';
import { budgetError } from '../../core/run/budget';
import type { EngineEvent, EventOf, SlurmTaskInfo } from '../../core/journal/events';
import type { ClusterLoad } from '../../core/journal/runStatus';
import { sha256Hex } from '../../core/random';
import { deferred } from '../deferred';
import type { Deferred } from '../deferred';
import { evaluationKey } from '../runs/evaluationCache';
import { redactEvaluation } from '../sandbox/sandboxEvaluation';
import type { EvaluatorSetup } from '../sandbox/sandboxEvaluation';
import { SlurmCli } from './cli';
import type { AccountingRow, BackoffPolicy, SlurmRunner } from './cli';
import { FINAL, probeSharedFolder, RUNNER_NAME, stageRunFolder } from './runFolder';
import { jobScript, submitArgs } from './script';
import { outputTail, readBatch, readResult, scriptPath, writeBatch, writeScript } from './taskFiles';
import type { EventPayload } from '../../core/journal/control';

type SlurmEvent = EventPayload<Extract<EngineEvent, { type: `slurm/${string}` }>>;

export interface SlurmBackendOptions {
  runId: string;
  /** When the run started (its run.json): a resume looks for its jobs from then on. */
  startedAt: number;
  slurm: SlurmSpec;
  setup: EvaluatorSetup;
  /** The evaluator's identity (evaluationCache.ts): with the program and its instances, an evaluation's key. */
  identity: string;
  /** budget.clusterHours. */
  clusterHours?: number;
  /** The run folder's parent on the shared filesystem. */
  sharedDir: string;
  /** The task runner bundle (out/slurmTask.js) to copy there. */
  runnerFile: string;
  /** The Node program the tasks run on the nodes. */
  node: string;
  /** Values that never reach an evaluator (the provider's keys). */
  secrets: string[];
  /** The environment PATH, the locale and the evaluator.env values are read from. */
  env: Record<string, string | undefined>;
  /** The run's events so far (a resume), for the jobs it submitted. */
  journaled: readonly EngineEvent[];
  /** Journals one of the backend's events (all incidental: a resume does not replay them). */
  emit: (e: SlurmEvent) => Promise<void>;
  clock: Clock;
  /** The run's signal: cancelling it cancels every task. */
  signal: AbortSignal;
  runner: SlurmRunner;
  backoff?: BackoffPolicy;
  /** Told each time the counts change (the live status the editor shows). */
  onLoad?: (load: ClusterLoad) => void;
}

/** Longest interval between two polls while nothing changes. */
const MAX_POLL_MS = 30_000;
/** How long `close()` waits for the run's jobs to leave the queue after cancelling them. */
const CLOSE_WAIT_MS = 90_000;
/** And then for sacct to record what the cancelled tasks that ran cost. */
const ACCOUNTING_WAIT_MS = 30_000;
/** Polls a task may be missing from both squeue and sacct (their records lag) before it counts as lost. */
const LOST_AFTER_POLLS = 10;
/** Polls a COMPLETED task's result may take to appear (a shared filesystem's attribute cache lags). */
const RESULT_WAIT_POLLS = 3;

interface Task {
  key: string;
  jobId: string;
  index: number;
  attempt: number;
  dir: string;
  instances: readonly string[] | undefined;
  state: 'queued' | 'running' | 'final';
  /** Cancelled by Ratchet (past a verdict, at the run's end, for the budget). */
  cancelled: boolean;
  /** The engine's evaluations waiting on this task (a resume may attach one to a task already running). */
  waiters: Deferred<ProgramEvaluation>[];
  /** The tasks of the engine's batch this one serves, and its signal: a retry joins them, so the verdict cancels it too. */
  group?: Task[];
  signal?: AbortSignal;
  missing: number;
  resultWaits: number;
}

/** What the journal says of an evaluation key: its latest submission and, once over, how it ended. */
interface Known {
  jobId: string;
  index: number;
  attempt: number;
  dir: string;
  instances: readonly string[] | undefined;
  outcome?: NonNullable<EventOf<'slurm/task'>['outcome']>;
  reason?: string;
}

export class SlurmBackend {
  readonly cli: SlurmCli;
  readonly jobName: string;
  readonly runDir: string;
  /** The sandbox setup with paths in the shared run folder. */
  private setup: EvaluatorSetup | undefined;
  private opening: Promise<void> | undefined;
  private readonly tasks = new Map<string, Task>();
  private readonly known = new Map<string, Known>();
  private clusterSeconds = 0;
  private submittedTasks = 0;
  private spent: string | undefined;
  private closed = false;
  private polling: Promise<void> | undefined;
  private looping = false;
  /** Ends a poll waiting out an outage when the run closes. */
  private readonly stopPolling = new AbortController();
  private poke: (() => void) | undefined;
  private pendingRetries: Task[] = [];
  private envValues: Record<string, string> = {};

  constructor(private readonly o: SlurmBackendOptions) {
    this.jobName = `ratchet-${o.runId}`;
    this.runDir = join(o.sharedDir, o.runId);
    this.cli = new SlurmCli(
      o.runner,
      o.clock,
      {
        paused: (message, retryMs) =>
          void this.o
            .emit({ type: 'slurm/status', state: 'paused', message, retryMs })
            .catch(() => undefined)
            .finally(() => this.report()),
        resumed: (message) =>
          void this.o
            .emit({ type: 'slurm/status', state: 'resumed', message })
            .catch(() => undefined)
            .finally(() => this.report()),
      },
      o.backoff,
    );
    this.readJournal(o.journaled);
  }

  /** The engine's whole-evaluation port: one task. */
  readonly evaluate: ProgramEvaluator = (text, ids, signal, repeat = 0) => this.batch(text, [ids], signal, repeat)[0]!;

  /** The engine's batch port: one array job for the shards the cache lacks. */
  readonly evaluateShards: ProgramBatchEvaluator = (text, shards, signal) => this.batch(text, shards, signal, 0);

  /** Which budget of the cluster's is spent, in words (the search stops launching proposals). */
  /** A task's evaluation as the run keeps it: the node knew no key, so what the program printed is cleaned here. */
  private cleaned(e: ProgramEvaluation): ProgramEvaluation {
    return redactEvaluation(e, this.o.secrets);
  }

  exceeded(): string | undefined {
    return this.spent;
  }

  /**
   * Before the first submission: the run folder staged, the probe job run (once per run: a resume
   * whose journal says the probe passed does not probe again), the journal's tasks still on the
   * cluster taken up again, and any job of the run's name it never journaled found.
   */
  open(): Promise<void> {
    this.opening ??= this.doOpen();
    return this.opening;
  }

  private async doOpen(): Promise<void> {
    for (const name of this.o.setup.env) {
      const value = this.o.env[name];
      if (value === undefined) continue;
      if (isSecretName(name) || this.o.secrets.some((s) => s.length >= 8 && value.includes(s))) {
        throw new RatchetError('badInput', `The evaluator's environment may not include ${name}: provider keys and other secrets never reach evaluated code, nor a cluster's job files. Remove it from the spec's env list.`, { name });
      }
      this.envValues[name] = value;
    }
    this.setup = await stageRunFolder(this.runDir, this.o.runnerFile, this.o.setup);
    const probed = this.o.journaled.some((e) => e.type === 'slurm/status' && e.state === 'ready');
    if (!probed) {
      const answer = await probeSharedFolder({
        cli: this.cli,
        clock: this.o.clock,
        slurm: this.o.slurm,
        runDir: this.runDir,
        jobName: this.jobName,
        node: this.o.node,
        env: this.o.env,
        signal: this.o.signal,
        onWaiting: (message) => this.o.emit({ type: 'slurm/status', state: 'probing', message }),
      });
      await this.o.emit({ type: 'slurm/status', state: 'ready', message: `probe job ${answer.jobId} ran on ${answer.host} with Node ${answer.node}: the nodes see ${this.runDir}` });
    }
    if (this.o.journaled.length > 0) await this.reattach();
  }

  /** A resume: the journal's unfinished tasks are watched again, and a job the journal lacks is found by name. */
  private async reattach(): Promise<void> {
    const since = new Date(this.o.startedAt - 60_000).toISOString().slice(0, 19);
    const journaledJobs = new Set([...this.known.values()].map((k) => k.jobId));
    for (const job of await this.cli.jobsNamed(this.jobName, since, { signal: this.o.signal })) {
      if (journaledJobs.has(job.jobId) || job.workDir === '') continue;
      const found = await readBatch(job.workDir).catch(() => undefined);
      if (!found) continue; // the probe, or a job whose folder is gone
      const attempt = 1 + Math.max(0, ...found.batch.keys.map((k) => this.known.get(k)?.attempt ?? 0));
      const tasks = found.batch.keys.map((key, index) => ({ index, key, ...(found.batch.shards[index] ? { instances: found.batch.shards[index]! } : {}) }));
      await this.o.emit({ type: 'slurm/submitted', jobId: job.jobId, programHash: sha256Hex(found.programText), attempt, dir: job.workDir, tasks, adopted: true });
      for (const t of tasks) this.known.set(t.key, { jobId: job.jobId, index: t.index, attempt, dir: job.workDir, instances: t.instances });
    }
    const byJob = new Map<string, number[]>();
    for (const [key, k] of this.known) {
      if (k.outcome !== undefined) continue;
      this.track({ key, jobId: k.jobId, index: k.index, attempt: k.attempt, dir: k.dir, instances: k.instances, state: 'queued', cancelled: false, waiters: [], missing: 0, resultWaits: 0 });
      byJob.set(k.jobId, [...(byJob.get(k.jobId) ?? []), k.index]);
    }
    for (const [jobId, indices] of byJob) await this.o.emit({ type: 'slurm/attached', jobId, indices });
    this.report();
  }

  /** What the journal says was submitted and how each task ended. */
  private readJournal(events: readonly EngineEvent[]): void {
    for (const e of events) {
      if (e.type === 'slurm/submitted') {
        for (const t of e.tasks) this.known.set(t.key, { jobId: e.jobId, index: t.index, attempt: e.attempt, dir: e.dir, instances: t.instances });
        this.submittedTasks += e.tasks.length;
      } else if (e.type === 'slurm/task' && e.outcome !== undefined) {
        this.clusterSeconds += e.clusterSeconds ?? 0;
        const k = this.known.get(e.key);
        if (k && k.jobId === e.jobId && k.index === e.index) {
          k.outcome = e.outcome;
          if (e.reason !== undefined) k.reason = e.reason;
        }
      }
    }
    this.checkBudget();
  }

  private batch(text: string, shards: readonly (readonly string[] | undefined)[], signal: AbortSignal, repeat: number): Promise<ProgramEvaluation>[] {
    const waiting = shards.map(() => deferred<ProgramEvaluation>());
    void this.start(text, shards, signal, repeat, waiting).catch((err: unknown) => waiting.forEach((w) => w.reject(err)));
    return waiting.map((w) => w.promise);
  }

  private async start(text: string, shards: readonly (readonly string[] | undefined)[], signal: AbortSignal, repeat: number, waiting: Deferred<ProgramEvaluation>[]): Promise<void> {
    await this.open();
    signal.throwIfAborted();
    if (this.spent) throw budgetError(this.spent);
    const keys = shards.map((ids) => evaluationKey(this.o.identity, text, ids, repeat));
    const mine: Task[] = [];
    const fresh: number[] = [];
    const later: number[] = [];
    const retries: number[] = [];
    for (const [i, key] of keys.entries()) {
      const k = this.known.get(key);
      const live = k && this.tasks.get(`${k.jobId}_${k.index}`);
      if (live && live.state !== 'final') {
        // A resume: the task is on the cluster still; its result is waited for, not submitted again.
        live.waiters.push(waiting[i]!);
        live.group = mine;
        live.signal = signal;
        mine.push(live);
      } else if (k?.outcome === 'done') {
        const r = await readResult(k.dir, k.index);
        if (r) waiting[i]!.resolve(this.cleaned(r.evaluation));
        else fresh.push(i);
      } else if (k?.outcome === 'incorrect') {
        waiting[i]!.resolve({ correct: false, error: k.reason ?? 'Slurm ended the task without a result' });
      } else if (k?.outcome === 'cancelled') {
        // Cancelled past a verdict before the resume: the replayed gate reaches that verdict again,
        // so it is submitted only if the gate comes to need it after all.
        later.push(i);
      } else if (k?.outcome === 'retry') {
        // The process died between a failed attempt and its retry's submission: the retry goes now.
        retries.push(i);
      } else fresh.push(i);
    }
    const onAbort = () => {
      const why = this.o.signal.aborted ? 'run' : 'verdict';
      void this.cancelTasks(mine, why, signal.reason);
      for (const w of waiting) w.reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const settled = Promise.allSettled(waiting.map((w) => w.promise)).then(() => signal.removeEventListener('abort', onAbort));
    void settled;
    if (fresh.length > 0)
      await this.submit(
        text,
        fresh.map((i) => ({ key: keys[i]!, instances: shards[i], attempt: 1, waiters: [waiting[i]!] })),
        signal,
        mine,
      );
    for (const i of retries) await this.submit(text, [{ key: keys[i]!, instances: shards[i], attempt: this.known.get(keys[i]!)!.attempt + 1, waiters: [waiting[i]!] }], signal, mine);
    for (const i of later) {
      // Only once every shard before it is settled and the gate went on (a turn of the event loop
      // later, past the microtasks in which a verdict aborts the batch) does the gate need it.
      void Promise.allSettled(waiting.slice(0, i).map((w) => w.promise))
        .then(() => new Promise((r) => setImmediate(r)))
        .then(async () => {
          if (signal.aborted) return;
          await this.submit(text, [{ key: keys[i]!, instances: shards[i], attempt: (this.known.get(keys[i]!)?.attempt ?? 0) + 1, waiters: [waiting[i]!] }], signal, mine);
        })
        .catch((err: unknown) => waiting[i]!.reject(err));
    }
  }

  /**
   * Submits one array job for `items` (all of one attempt), journals it, and watches its tasks,
   * which join `group` (the engine's batch: its verdict cancels them).
   */
  private async submit(text: string, items: { key: string; instances: readonly string[] | undefined; attempt: number; waiters: Deferred<ProgramEvaluation>[] }[], signal: AbortSignal, group: Task[]): Promise<Task[]> {
    const attempt = Math.max(...items.map((x) => x.attempt));
    const dir = join(this.runDir, 'jobs', sha256Hex(JSON.stringify({ keys: items.map((x) => x.key), attempt })).slice(0, 16));
    await writeBatch(dir, { format: 1, runId: this.o.runId, setup: this.setup!, envValues: this.envValues, shards: items.map((x) => (x.instances ? [...x.instances] : null)), keys: items.map((x) => x.key) }, text);
    await writeScript(
      dir,
      jobScript({
        slurm: this.o.slurm,
        title: `Run ${this.o.runId}: ${items.length} evaluation${items.length === 1 ? '' : 's'} of one program`,
        env: this.o.env,
        node: this.o.node,
        runner: join(this.runDir, RUNNER_NAME),
        args: [dir, '$SLURM_ARRAY_TASK_ID'],
      }),
    );
    signal.throwIfAborted();
    const both = AbortSignal.any([signal, this.o.signal]);
    const jobId = await this.cli.submit(scriptPath(dir), submitArgs({ jobName: this.jobName, dir, indices: items.map((_, i) => i), ...(this.o.slurm.arrayLimit === undefined ? {} : { arrayLimit: this.o.slurm.arrayLimit }) }), {
      signal: both,
    });
    const tasks: SlurmTaskInfo[] = items.map((x, index) => ({ index, key: x.key, ...(x.instances ? { instances: [...x.instances] } : {}) }));
    // Journaled before anything waits on the job: a resume finds it here.
    await this.o.emit({ type: 'slurm/submitted', jobId, programHash: sha256Hex(text), attempt, dir, tasks });
    this.submittedTasks += items.length;
    const made = items.map((x, index): Task => {
      this.known.set(x.key, { jobId, index, attempt, dir, instances: x.instances });
      return { key: x.key, jobId, index, attempt, dir, instances: x.instances, state: 'queued', cancelled: false, waiters: x.waiters, group, signal, missing: 0, resultWaits: 0 };
    });
    group.push(...made);
    for (const t of made) this.track(t);
    // The verdict may have come while sbatch ran: the job is cancelled at once, and still accounted.
    if (signal.aborted) void this.cancelTasks(made, this.o.signal.aborted ? 'run' : 'verdict', signal.reason);
    this.report();
    return made;
  }

  private track(t: Task): void {
    this.tasks.set(`${t.jobId}_${t.index}`, t);
    this.poke?.();
    // `looping` turns false in the same turn the loop finds nothing left, so a task tracked after it is never missed.
    if (!this.looping && !this.closed) {
      this.looping = true;
      this.polling = this.pollLoop();
    }
  }

  private async pollLoop(): Promise<void> {
    try {
      await this.pollWhileLive();
    } finally {
      this.looping = false;
    }
  }

  private async pollWhileLive(): Promise<void> {
    const first = this.o.slurm.pollSeconds * 1000;
    let interval = first;
    while (!this.closed && this.live().length > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, interval);
        this.poke = () => {
          clearTimeout(timer);
          interval = first;
          // A new submission: look again soon, not at once (it is just queued).
          setTimeout(resolve, first);
        };
      });
      this.poke = undefined;
      if (this.closed) return;
      try {
        interval = (await this.tick()) ? first : Math.min(MAX_POLL_MS, interval * 1.5);
      } catch (err) {
        // The run's end (or cancel) stops a poll waiting out an outage; anything else ends the run's evaluations.
        if (isCancellation(err) || this.closed) return;
        for (const t of this.live()) this.fail(t, err);
        return;
      }
    }
  }

  private live(): Task[] {
    return [...this.tasks.values()].filter((t) => t.state !== 'final');
  }

  /** One poll: squeue for the tasks in flight, sacct for those that left the queue. Returns whether anything changed. */
  private async tick(): Promise<boolean> {
    let changed = false;
    const live = this.live();
    const signal = AbortSignal.any([this.o.signal, this.stopPolling.signal]);
    const queued = await this.cli.queue(unique(live.map((t) => t.jobId)), { signal });
    const gone: Task[] = [];
    for (const t of live) {
      const row = queued.get(`${t.jobId}_${t.index}`);
      if (!row) gone.push(t);
      else if (row.state !== 'PENDING' && t.state === 'queued') {
        t.state = 'running';
        changed = true;
        await this.o.emit({ type: 'slurm/task', jobId: t.jobId, index: t.index, key: t.key, attempt: t.attempt, state: row.state });
      }
    }
    if (gone.length > 0) {
      const rows = await this.cli.accounting(unique(gone.map((t) => t.jobId)), { signal });
      const own = new Map<string, AccountingRow>();
      const grouped = new Map<string, AccountingRow>();
      for (const r of rows) {
        if (!r.grouped) own.set(r.tasks[0]!, r);
        else for (const id of r.tasks.length > 0 ? r.tasks : [r.jobId]) grouped.set(id, r);
      }
      for (const t of gone) {
        const id = `${t.jobId}_${t.index}`;
        const row = own.get(id);
        if (row && FINAL.has(row.state)) {
          if (await this.finish(t, row)) changed = true;
        } else if (t.cancelled && (grouped.get(id)?.state === 'CANCELLED' || grouped.get(t.jobId)?.state === 'CANCELLED' || (t.state === 'queued' && ++t.missing >= 2) || ++t.missing >= LOST_AFTER_POLLS)) {
          // Cancelled before it started: Slurm keeps no record of its own for it. (One that ran gets
          // its record, with what it cost, once the accounting daemon has it: it is waited for.)
          await this.finish(t, { tasks: [id], jobId: t.jobId, state: 'CANCELLED', exitCode: '', elapsedSeconds: 0, cpus: 0, reason: '', grouped: false });
          changed = true;
        } else if (!row && ++t.missing >= LOST_AFTER_POLLS) {
          await this.finish(t, { tasks: [id], jobId: t.jobId, state: 'LOST', exitCode: '', elapsedSeconds: 0, cpus: 0, reason: 'neither squeue nor sacct knows the task', grouped: false });
          changed = true;
        }
      }
    }
    if (this.pendingRetries.length > 0) {
      await this.resubmit(this.pendingRetries.splice(0));
      changed = true;
    }
    if (changed) this.report();
    return changed;
  }

  /** A task reached a final state: its cost counted, its result read, retried, or counted incorrect. Returns false when it must be looked at again (a result not visible yet). */
  private async finish(t: Task, row: AccountingRow): Promise<boolean> {
    const result = row.state === 'COMPLETED' && !t.cancelled ? await readResult(t.dir, t.index) : undefined;
    if (row.state === 'COMPLETED' && !t.cancelled && !result && ++t.resultWaits <= RESULT_WAIT_POLLS) return false;
    t.state = 'final';
    const clusterSeconds = row.elapsedSeconds * row.cpus;
    this.clusterSeconds += clusterSeconds;
    const base = { type: 'slurm/task' as const, jobId: t.jobId, index: t.index, key: t.key, attempt: t.attempt, state: row.state, elapsedSeconds: row.elapsedSeconds, cpus: row.cpus, clusterSeconds };
    const known = this.known.get(t.key);
    const mark = (outcome: NonNullable<Known['outcome']>, reason?: string) => {
      if (known && known.jobId === t.jobId && known.index === t.index) {
        known.outcome = outcome;
        if (reason !== undefined) known.reason = reason;
      }
    };
    if (t.cancelled) {
      mark('cancelled');
      await this.o.emit({ ...base, outcome: 'cancelled' });
    } else if (result) {
      mark('done');
      await this.o.emit({ ...base, outcome: 'done' });
      for (const w of t.waiters) w.resolve(this.cleaned(result.evaluation));
    } else {
      const tail = await outputTail(t.dir, t.index, t.jobId);
      const said = row.state === 'COMPLETED' ? 'COMPLETED without writing its result' : row.state;
      const why = `${said}${row.reason ? ` (${row.reason})` : ''}${row.state === 'FAILED' && row.exitCode ? ` with exit code ${row.exitCode}` : ''}${row.state === 'TIMEOUT' ? ` at its time limit (evaluator.slurm.time: ${this.o.slurm.time})` : ''}`;
      if (t.attempt <= this.o.slurm.retries && !this.spent) {
        mark('retry', why);
        await this.o.emit({ ...base, reason: why, outcome: 'retry' });
        this.pendingRetries.push(t);
      } else {
        const error = `Slurm ended the evaluation's task ${why}${t.attempt > 1 ? `, on each of its ${t.attempt} attempts` : ''}${tail ? `; its error output: ${tail}` : ''}`;
        mark('incorrect', error);
        await this.o.emit({ ...base, reason: why, outcome: 'incorrect' });
        for (const w of t.waiters) w.resolve({ correct: false, error });
      }
    }
    this.checkBudget();
    return true;
  }

  /** Failed tasks, submitted again (one job per program, attempt and engine batch), their waiters moved to the new tasks. */
  private async resubmit(failed: Task[]): Promise<void> {
    const groups = new Map<string, Task[]>();
    for (const t of failed) {
      if (t.waiters.length === 0 || t.signal?.aborted) continue;
      const key = `${t.dir}\n${t.attempt}`;
      groups.set(key, [...(groups.get(key) ?? []), t]);
    }
    for (const tasks of groups.values()) {
      const { programText } = await readBatch(tasks[0]!.dir);
      const items = tasks.map((t) => ({ key: t.key, instances: t.instances, attempt: t.attempt + 1, waiters: t.waiters }));
      await this.submit(programText, items, tasks[0]!.signal ?? this.o.signal, tasks[0]!.group ?? []).catch((err: unknown) => tasks.forEach((t) => t.waiters.forEach((w) => w.reject(err))));
    }
  }

  private fail(t: Task, err: unknown): void {
    t.state = 'final';
    for (const w of t.waiters) w.reject(err);
  }

  /** Asks Slurm to cancel `tasks` (those not over), journaled; they stay watched until their final state is accounted. */
  private async cancelTasks(tasks: readonly Task[], why: EventOf<'slurm/cancelled'>['why'], reason: unknown): Promise<void> {
    const live = tasks.filter((t) => t.state !== 'final' && !t.cancelled);
    if (live.length === 0) return;
    for (const t of live) {
      t.cancelled = true;
      for (const w of t.waiters) w.reject(reason);
    }
    const byJob = new Map<string, number[]>();
    for (const t of live) byJob.set(t.jobId, [...(byJob.get(t.jobId) ?? []), t.index]);
    for (const [jobId, indices] of byJob) {
      await this.o.emit({ type: 'slurm/cancelled', jobId, indices, why }).catch(() => undefined);
      await this.cli
        .cancel(
          indices.map((i) => `${jobId}_${i}`),
          { deadline: this.o.clock.now() + CLOSE_WAIT_MS },
        )
        .catch(() => undefined);
    }
    this.report();
  }

  private checkBudget(): void {
    const hours = this.o.clusterHours;
    if (hours === undefined || this.spent !== undefined || this.clusterSeconds < hours * 3600) return;
    this.spent = `${(this.clusterSeconds / 3600).toPrecision(3)} of ${hours} cluster hours`;
    void this.cancelTasks(this.live(), 'budget', budgetError(this.spent));
  }

  /**
   * The run is over (finished, failed or cancelled): every task it still has on the cluster is
   * cancelled — by id, then by the run's job name, which no id list can miss — and the queue is
   * watched until it holds none of them; their final states are accounted. Resolves when squeue
   * shows none, or after CLOSE_WAIT_MS.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopPolling.abort(new RatchetError('cancelled', 'The run ended.'));
    this.poke?.();
    await this.polling?.catch(() => undefined);
    if (this.opening === undefined) return;
    const deadline = this.o.clock.now() + CLOSE_WAIT_MS;
    const leftover = this.live();
    await this.cancelTasks(leftover, 'run', new RatchetError('cancelled', 'The run ended.'));
    await this.cli.cancelNamed(this.jobName, { deadline }).catch(() => undefined);
    let wait = 500;
    while (this.o.clock.now() < deadline) {
      const any = await this.cli.anyNamed(this.jobName, { deadline }).catch(() => false);
      if (!any) break;
      await this.o.clock.sleep(wait);
      wait = Math.min(5000, wait * 1.5);
    }
    // What the cancelled tasks cost, from sacct, which records a task that ran a moment after it
    // leaves the queue; one that never started has no record of its own and cost nothing.
    const accountBy = Math.min(deadline, this.o.clock.now() + ACCOUNTING_WAIT_MS);
    wait = 250;
    for (let still = this.live(); still.length > 0; still = this.live()) {
      const rows = await this.cli.accounting(unique(still.map((t) => t.jobId)), { deadline: accountBy }).catch(() => []);
      const own = new Map(rows.filter((r) => !r.grouped).map((r) => [r.tasks[0]!, r]));
      const over = this.o.clock.now() >= accountBy;
      for (const t of still) {
        const row = own.get(`${t.jobId}_${t.index}`);
        if (row && FINAL.has(row.state)) await this.finish(t, row).catch(() => undefined);
        else if (t.state === 'queued' || over)
          await this.finish(t, { tasks: [], jobId: t.jobId, state: 'CANCELLED', exitCode: '', elapsedSeconds: 0, cpus: 0, reason: over && t.state === 'running' ? 'sacct had no record of it yet' : '', grouped: false }).catch(
            () => undefined,
          );
      }
      if (this.live().length === 0) break;
      await this.o.clock.sleep(wait);
      wait = Math.min(2000, wait * 1.5);
    }
    this.report();
  }

  /** The counts the editor shows: tasks queued, running and finished, array jobs in flight, cluster-seconds. */
  load(): ClusterLoad {
    const live = this.live();
    const running = live.filter((t) => t.state === 'running').length;
    return {
      queued: live.length - running,
      running,
      finished: this.submittedTasks - live.length,
      jobs: unique(live.map((t) => t.jobId)).length,
      clusterSeconds: this.clusterSeconds,
      ...(this.o.clusterHours === undefined ? {} : { clusterHoursBudget: this.o.clusterHours }),
      ...(this.cli.paused === undefined ? {} : { paused: this.cli.paused }),
    };
  }

  private report(): void {
    this.o.onLoad?.(this.load());
  }
}

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}
