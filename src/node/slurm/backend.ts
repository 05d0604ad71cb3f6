/**
 * The Slurm evaluation backend of a code search (issue #18): the engine's evaluation ports
 * (`evaluate`, `evaluateShards`) over Slurm array jobs, with the journal, the evaluation cache,
 * the sandbox and the gates as they are for a local run. This module assembles the parts below
 * and decides what each engine batch needs submitted; its options are in backendOptions.ts.
 *
 * - One program's shards are one `sbatch --array` job, a task per shard; each task runs the
 *   sandboxed evaluator on its node (taskMain.ts) and writes its result into the shared run folder.
 *   The job is journaled (`slurm/submitted`, job id and every task's evaluation key) before
 *   anything relies on it. Its folder and sbatch: submission.ts.
 * - One poller watches every task of the run: `squeue` while they are queued or running, `sacct`
 *   once they leave the queue (their final state, ElapsedRaw × AllocCPUS = cluster-seconds), backing
 *   off from `pollSeconds` to 30 s while nothing changes. A finished task's result resolves its
 *   shard, in whatever order; the gate consumes them in its own pre-fixed order. The loop: poller.ts;
 *   what squeue and sacct say: taskPoll.ts; the tasks and counts: taskBook.ts.
 * - A shard the gate no longer needs (its verdict came first) is `scancel`ed, still accounted
 *   (cancellation.ts).
 * - A task Slurm ended without a result (NODE_FAIL, TIMEOUT, OUT_OF_MEMORY, PREEMPTED, FAILED,
 *   CANCELLED by someone else) is submitted again up to `retries` times, then counts as an
 *   incorrect evaluation with Slurm's reason (taskOutcome.ts).
 * - `budget.clusterHours`: once the run's cluster-seconds reach it, every task in flight is
 *   cancelled and every evaluation refused (budgetExhausted); the search ends with what it has.
 * - Resume: the journal's submissions are re-attached to (queued or running), read (finished), or
 *   known to have failed; a job submitted but never journaled (the process died in between) is
 *   found by the run's job name (resume.ts). No shard is submitted twice.
 * - `close()` cancels whatever the run still has on the cluster and waits until squeue shows none.
 */
import { join } from 'node:path';
import { RatchetError } from '../../core/errors';
import type { ProgramBatchEvaluator, ProgramEvaluation, ProgramEvaluator } from '../../core/code/search';
import { budgetError } from '../../core/run/budget';
import type { EventOf } from '../../core/journal/events';
import type { SlurmTaskInfo } from '../../core/journal/payloadTypes';
import type { ClusterLoad } from '../../core/journal/runStatus';
import { sha256Hex } from '../../core/random';
import { deferred } from '../deferred';
import type { Deferred } from '../deferred';
import { evaluationKey } from '../runs/evaluationCache';
import { redactEvaluation } from '../sandbox/sandboxEvaluation';
import type { EvaluatorSetup } from '../sandbox/sandboxEvaluation';
import { SlurmCli } from './cli';
import type { AccountingRow } from './cli';
import { cancelTasks, CLOSE_WAIT_MS } from './cancellation';
import type { SlurmBackendOptions } from './backendOptions';
import { Poller } from './poller';
import { probeSharedFolder, stageRunFolder } from './runFolder';
import { jobEnvValues, submitArrayJob } from './submission';
import type { JobItem } from './submission';
import { adoptUnjournaledJobs, unfinishedTasks } from './resume';
import { indicesByJob, TaskBook, taskId } from './taskBook';
import type { Task } from './taskBook';
import { readBatch, readResult } from './taskFiles';
import { finishTask } from './taskOutcome';
import type { FinishContext } from './taskOutcome';
import { accountCancelled, pollTasks, untilNoneQueued } from './taskPoll';
import type { PollContext } from './taskPoll';

type Item = JobItem & { attempt: number; waiters: Deferred<ProgramEvaluation>[] };

export class SlurmBackend {
  readonly cli: SlurmCli;
  readonly jobName: string;
  readonly runDir: string;
  /** The sandbox setup with paths in the shared run folder. */
  private setup: EvaluatorSetup | undefined;
  private opening: Promise<void> | undefined;
  private readonly book = new TaskBook();
  private spent: string | undefined;
  private closed = false;
  private readonly poller: Poller;
  /** Ends a poll waiting out an outage when the run closes. */
  private readonly stopPolling = new AbortController();
  private pendingRetries: Task[] = [];
  private envValues: Record<string, string> = {};
  private readonly finishing: FinishContext;
  private readonly polls: PollContext;

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
    this.poller = new Poller({
      firstMs: o.slurm.pollSeconds * 1000,
      busy: () => this.book.live().length > 0,
      tick: () => this.tick(),
      failed: (err) => {
        for (const t of this.book.live()) this.fail(t, err);
      },
    });
    this.finishing = {
      book: this.book,
      slurm: o.slurm,
      emit: o.emit,
      cleaned: (e) => this.cleaned(e),
      spent: () => this.spent,
      retry: (t) => this.pendingRetries.push(t),
    };
    this.polls = {
      cli: this.cli,
      started: (t, state) => this.o.emit({ type: 'slurm/task', jobId: t.jobId, index: t.index, key: t.key, attempt: t.attempt, state }),
      finish: (t, row) => this.finish(t, row),
    };
    this.book.readJournal(o.journaled);
    this.checkBudget();
  }

  /** The engine's whole-evaluation port: one task. */
  readonly evaluate: ProgramEvaluator = (text, ids, signal, repeat = 0) => this.batch(text, [ids], signal, repeat)[0]!;

  /** The engine's batch port: one array job for the shards the cache lacks. */
  readonly evaluateShards: ProgramBatchEvaluator = (text, shards, signal) => this.batch(text, shards, signal, 0);

  /** A task's evaluation as the run keeps it: the node knew no key, so what the program printed is cleaned here. */
  private cleaned(e: ProgramEvaluation): ProgramEvaluation {
    return redactEvaluation(e, this.o.secrets);
  }

  /** Which budget of the cluster's is spent, in words (the search stops launching proposals). */
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
    this.envValues = jobEnvValues(this.o.setup.env, this.o.env, this.o.secrets);
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
    await adoptUnjournaledJobs({ cli: this.cli, jobName: this.jobName, startedAt: this.o.startedAt, signal: this.o.signal, emit: this.o.emit }, this.book.known);
    const tasks = unfinishedTasks(this.book.known);
    for (const t of tasks) this.track(t);
    for (const [jobId, indices] of indicesByJob(tasks)) await this.o.emit({ type: 'slurm/attached', jobId, indices });
    this.report();
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
    const done: number[] = [];
    const later: number[] = [];
    const retries: number[] = [];
    for (const [i, key] of keys.entries()) {
      const k = this.book.known.get(key);
      const live = k && this.book.watched(k);
      if (live && live.state !== 'final') {
        // A resume: the task is on the cluster still; its result is waited for, not submitted again.
        live.waiters.push(waiting[i]!);
        live.group = mine;
        live.signal = signal;
        mine.push(live);
      } else if (k?.outcome === 'done') {
        done.push(i);
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
    // In place before the first await: a verdict may come while a finished shard's result is read
    // (the replayed gate reaches it as soon as the shards before resolve), and a listener added
    // to a signal already aborted never runs, which would leave this batch's tasks on the cluster
    // and its waiters unanswered.
    const onAbort = () => {
      const why = this.o.signal.aborted ? 'run' : 'verdict';
      void this.cancelTasks(mine, why, signal.reason);
      for (const w of waiting) w.reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const settled = Promise.allSettled(waiting.map((w) => w.promise)).then(() => signal.removeEventListener('abort', onAbort));
    void settled;
    for (const i of done) {
      const k = this.book.known.get(keys[i]!)!;
      const r = await readResult(k.dir, k.index);
      // The verdict came during the read: onAbort answered every waiter; nothing is submitted.
      if (signal.aborted) return;
      if (r) waiting[i]!.resolve(this.cleaned(r.evaluation));
      else fresh.push(i);
    }
    // In shard order, as if each missing result had been found missing in turn.
    fresh.sort((a, b) => a - b);
    if (fresh.length > 0)
      await this.submit(
        text,
        fresh.map((i) => ({ key: keys[i]!, instances: shards[i], attempt: 1, waiters: [waiting[i]!] })),
        signal,
        mine,
      );
    for (const i of retries) await this.submit(text, [{ key: keys[i]!, instances: shards[i], attempt: this.book.known.get(keys[i]!)!.attempt + 1, waiters: [waiting[i]!] }], signal, mine);
    for (const i of later) {
      // Only once every shard before it is settled and the gate went on (a turn of the event loop
      // later, past the microtasks in which a verdict aborts the batch) does the gate need it.
      void Promise.allSettled(waiting.slice(0, i).map((w) => w.promise))
        .then(() => new Promise((r) => setImmediate(r)))
        .then(async () => {
          if (signal.aborted) return;
          await this.submit(text, [{ key: keys[i]!, instances: shards[i], attempt: (this.book.known.get(keys[i]!)?.attempt ?? 0) + 1, waiters: [waiting[i]!] }], signal, mine);
        })
        .catch((err: unknown) => waiting[i]!.reject(err));
    }
  }

  /**
   * Submits one array job for `items` (all of one attempt), journals it, and watches its tasks,
   * which join `group` (the engine's batch: its verdict cancels them).
   */
  private async submit(text: string, items: Item[], signal: AbortSignal, group: Task[]): Promise<Task[]> {
    const attempt = Math.max(...items.map((x) => x.attempt));
    const job = { runId: this.o.runId, runDir: this.runDir, jobName: this.jobName, slurm: this.o.slurm, setup: this.setup!, envValues: this.envValues, env: this.o.env, node: this.o.node, cli: this.cli };
    const { jobId, dir } = await submitArrayJob(job, text, items, attempt, signal, this.o.signal);
    const tasks: SlurmTaskInfo[] = items.map((x, index) => ({ index, key: x.key, ...(x.instances ? { instances: [...x.instances] } : {}) }));
    // Journaled before anything waits on the job: a resume finds it here.
    await this.o.emit({ type: 'slurm/submitted', jobId, programHash: sha256Hex(text), attempt, dir, tasks });
    this.book.submittedTasks += items.length;
    const made = items.map((x, index): Task => {
      this.book.known.set(x.key, { jobId, index, attempt, dir, instances: x.instances });
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
    this.book.tasks.set(taskId(t), t);
    this.poller.wake();
  }

  /** One poll: the tasks in flight looked at (taskPoll.ts), and the retries their ends asked for submitted. Returns whether anything changed. */
  private async tick(): Promise<boolean> {
    const signal = AbortSignal.any([this.o.signal, this.stopPolling.signal]);
    let changed = await pollTasks(this.polls, this.book.live(), signal);
    if (this.pendingRetries.length > 0) {
      await this.resubmit(this.pendingRetries.splice(0));
      changed = true;
    }
    if (changed) this.report();
    return changed;
  }

  /** A task reached a final state (taskOutcome.ts), and the budget checked. Returns false when it must be looked at again. */
  private async finish(t: Task, row: AccountingRow): Promise<boolean> {
    if (!(await finishTask(this.finishing, t, row))) return false;
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

  /** Asks Slurm to cancel `tasks` (those not over), journaled (cancellation.ts). */
  private async cancelTasks(tasks: readonly Task[], why: EventOf<'slurm/cancelled'>['why'], reason: unknown): Promise<void> {
    if (await cancelTasks({ cli: this.cli, clock: this.o.clock, emit: this.o.emit }, tasks, why, reason)) this.report();
  }

  private checkBudget(): void {
    const hours = this.o.clusterHours;
    const seconds = this.book.clusterSeconds;
    if (hours === undefined || this.spent !== undefined || seconds < hours * 3600) return;
    this.spent = `${(seconds / 3600).toPrecision(3)} of ${hours} cluster hours`;
    void this.cancelTasks(this.book.live(), 'budget', budgetError(this.spent));
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
    await this.poller.stop();
    if (this.opening === undefined) return;
    const deadline = this.o.clock.now() + CLOSE_WAIT_MS;
    const leftover = this.book.live();
    await this.cancelTasks(leftover, 'run', new RatchetError('cancelled', 'The run ended.'));
    await this.cli.cancelNamed(this.jobName, { deadline }).catch(() => undefined);
    await untilNoneQueued(this.cli, this.o.clock, this.jobName, deadline);
    await accountCancelled(this.polls, this.o.clock, () => this.book.live(), deadline);
    this.report();
  }

  /** The counts the editor shows: tasks queued, running and finished, array jobs in flight, cluster-seconds. */
  load(): ClusterLoad {
    return this.book.load(this.o.clusterHours, this.cli.paused);
  }

  private report(): void {
    this.o.onLoad?.(this.load());
  }
}
