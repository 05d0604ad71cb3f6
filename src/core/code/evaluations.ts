/**
 * A code search's evaluator runs, shared across the tests that need them: each run takes one of
 * the run's evaluator slots and is admitted by the evaluation budget before it starts, and an
 * instance of a program that another test is evaluating right now (two children tested against one
 * incumbent) is waited for, not run twice — its scores, its incorrect verdict or its failure are
 * shared. A run cancelled because the test that started it reached its verdict is run again by a
 * test still waiting for it. Scores go into the run's score cache; what an evaluation reported
 * beyond scores (an incorrect program's output, a correct one's metrics and feedback) is kept by
 * program for the proposer and the pairwise validator.
 */
import pLimit from 'p-limit';
import type { LimitFunction } from 'p-limit';
import { isCancellation, RatchetError } from '../errors';
import type { MetricValue } from '../journal/payloadTypes';
import type { ProgramRef, ScoreCache, ShardBatchEvaluator, ShardEvaluator, ShardOutcome } from './gate';
import { textHash } from './novelty';

/** What one evaluator run says of a program (sandbox + result parsing live in src/node). */
export interface ProgramEvaluation {
  correct: boolean;
  /** combined_score. */
  score?: number;
  instances?: Readonly<Record<string, number>>;
  publicMetrics?: Record<string, MetricValue>;
  feedback?: string;
  /** Why the program is incorrect, in words the proposer can act on. */
  error?: string;
  /** The end of what an incorrect program printed (stderr, then stdout): fix mode shows it to the proposer. */
  output?: string;
}

/**
 * Runs the evaluator on a program's text; `instanceIds` undefined: every instance (a whole run).
 * `repeat` (0 first) tells deliberate re-evaluations of the same program apart, so a cache of
 * evaluations does not answer "is it repeatable?" with its own copy.
 */
export type ProgramEvaluator = (text: string, instanceIds: readonly string[] | undefined, signal: AbortSignal, repeat?: number) => Promise<ProgramEvaluation>;

/**
 * A backend that evaluates a program's shards in one submission (a Slurm array job) rather than
 * one call at a time: element i settles with shard i's evaluation as it finishes; aborting the
 * signal cancels the shards still running. It rejects with `budgetExhausted` when an evaluation
 * budget of its own (cluster hours) is spent, and with `cancelled` for a cancelled shard.
 */
export type ProgramBatchEvaluator = (text: string, shards: readonly (readonly string[])[], signal: AbortSignal) => readonly Promise<ProgramEvaluation>[];

export interface EvaluationsOptions {
  evaluate: ProgramEvaluator;
  /** Evaluator runs at once. */
  slots: number;
  /** budget.evaluations: evaluator runs in all; undefined: no limit. */
  limit: number | undefined;
  /** The evaluator runs a program on every instance at once (no shards, no repeats), whatever a test asks. */
  whole: boolean;
  /** The run's programs by id: a test names a program by its hash, the evaluator takes its text. */
  texts: ReadonlyMap<string, string>;
  /** Filled with every instance score measured. */
  cache: ScoreCache;
}

type Report = { publicMetrics?: Record<string, MetricValue>; feedback?: string };
const runKey = (hash: string, id: string) => `${hash}\n${id}`;

export class Evaluations {
  /** Evaluator runs admitted so far, those in flight included. */
  private admitted = 0;
  private single = false;
  private readonly slots: LimitFunction;
  /** Evaluator runs going on, by program hash and instance: a second test needing one waits for it. */
  private readonly running = new Map<string, Promise<ShardOutcome>>();
  /** What incorrect programs printed, by program hash. */
  private readonly outputs = new Map<string, string>();
  /** What correct evaluations reported beyond scores, by program hash, then by the instances run. */
  private readonly reports = new Map<string, Map<string, Report>>();

  constructor(private readonly o: EvaluationsOptions) {
    this.slots = pLimit(Math.max(1, o.slots));
  }

  /** Evaluator runs admitted so far, those in flight included. */
  get count(): number {
    return this.admitted;
  }

  /** The run reports one score (no instances): an instance's score is that score, and a program is always evaluated whole. */
  get singleScore(): boolean {
    return this.single;
  }

  /** From here on the run reports one score: its first correct program reported no instances. */
  useSingleScore(): void {
    this.single = true;
  }

  /** One evaluator run, in one of the run's evaluator slots, admitted by the evaluation budget before it starts. */
  async evaluate(text: string, ids: readonly string[] | undefined, signal: AbortSignal, repeat = 0): Promise<ProgramEvaluation> {
    this.admit(1);
    const r = await this.slots(() => {
      signal.throwIfAborted();
      return this.o.evaluate(text, ids, signal, repeat);
    });
    this.noteRun(text, ids, r);
    return r;
  }

  /**
   * The gate's view of the evaluator: a shard of instance ids → their scores (or incorrect). An
   * instance of a program that another test is evaluating right now is waited for, not run twice.
   */
  shardEvaluator(): ShardEvaluator {
    const byHash = this.textsByHash();
    return (program, ids, signal) => this.gather(program, this.textOf(program.hash, byHash), ids, undefined, signal);
  }

  /**
   * The gate's view of a batch backend: every shard of a program in one submission, made now.
   * Instances another test is evaluating are left out of it and waited for, as `shardEvaluator`
   * does; each shard submitted is one evaluator run.
   */
  shardBatchEvaluator(batch: ProgramBatchEvaluator): ShardBatchEvaluator {
    const byHash = this.textsByHash();
    return (program, shards, signal) => {
      const text = this.textOf(program.hash, byHash);
      const mine = shards.map((ids) => ids.filter((id) => !this.running.has(runKey(program.hash, id))));
      const submitted = mine.flatMap((ids, i) => (ids.length > 0 ? [i] : []));
      const own = new Map<number, Promise<ShardOutcome>>();
      if (submitted.length > 0) {
        this.admit(submitted.length);
        const outcomes = batch(
          text,
          submitted.map((i) => mine[i]!),
          signal,
        );
        submitted.forEach((i, k) => {
          const ids = mine[i]!;
          const outcome = outcomes[k]!.then((r) => {
            signal.throwIfAborted();
            this.noteRun(text, ids, r);
            return this.shardOutcome(program.hash, ids, r);
          });
          outcome.catch(() => undefined); // awaited by gather below, or abandoned past the verdict
          this.track(program.hash, ids, outcome);
          own.set(i, outcome);
        });
      }
      return shards.map((ids, i) => this.gather(program, text, ids, own.has(i) ? { ids: mine[i]!, outcome: own.get(i)! } : undefined, signal));
    };
  }

  /** The end of what a program printed when an evaluation found it incorrect; undefined when none did. */
  outputOf(hash: string): string | undefined {
    return this.outputs.get(hash);
  }

  /** The evaluator's public metrics and text feedback for a program, over every shard it ran. */
  reportOf(hash: string): { metrics: Record<string, MetricValue>; feedback: string } {
    // Shards in the order of their instances, not of their finishing: the same on every run.
    const reports = [...(this.reports.get(hash) ?? new Map<string, Report>())].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
    const metrics: Record<string, MetricValue> = {};
    for (const r of reports) Object.assign(metrics, r.publicMetrics);
    return { metrics, feedback: reports.flatMap((r) => (r.feedback ? [r.feedback] : [])).join('\n') };
  }

  /**
   * Counts `n` evaluator runs about to start, or refuses them (budgetExhausted) when they would
   * take the run past budget.evaluations: runs in flight are counted from the moment they are
   * admitted, so the evaluator never runs more often than the budget says, whatever the slots.
   */
  private admit(n: number): void {
    const limit = this.o.limit;
    if (limit !== undefined && this.admitted + n > limit) {
      const spent = `${this.admitted} of ${limit} evaluations`;
      throw new RatchetError('budgetExhausted', `The run's budget is spent (${spent}); no further evaluation is started.`, { budget: spent });
    }
    this.admitted += n;
  }

  /**
   * The scores of `ids` of a program: `started` (a batch's own submission) and the evaluations
   * other tests run now, waited for; what neither covers is evaluated here.
   */
  private async gather(program: ProgramRef, text: string, ids: readonly string[], started: { ids: readonly string[]; outcome: Promise<ShardOutcome> } | undefined, signal: AbortSignal): Promise<ShardOutcome> {
    const scores: Record<string, number> = {};
    let todo: readonly string[] = started ? ids.filter((id) => !started.ids.includes(id)) : ids;
    let first = started;
    // A batch's shard set apart for another test's run may find that run over by now: its scores are cached.
    if (started) {
      todo = todo.filter((id) => {
        const y = this.o.cache.get(program.hash, id);
        if (y !== undefined && !this.running.has(runKey(program.hash, id))) scores[id] = y;
        return y === undefined || this.running.has(runKey(program.hash, id));
      });
    }
    while (todo.length > 0 || first) {
      const parts = new Map<Promise<ShardOutcome>, readonly string[]>();
      let mine: readonly string[] = [];
      if (first) {
        parts.set(first.outcome, first.ids);
        mine = first.ids;
        first = undefined;
      }
      const fresh = todo.filter((id) => !this.running.has(runKey(program.hash, id)));
      for (const id of todo) {
        const theirs = this.running.get(runKey(program.hash, id));
        if (theirs && !parts.has(theirs))
          parts.set(
            theirs,
            todo.filter((x) => this.running.get(runKey(program.hash, x)) === theirs),
          );
      }
      if (fresh.length > 0) {
        const own = this.runShard(text, program.hash, fresh, signal);
        this.track(program.hash, fresh, own);
        parts.set(own, fresh);
        mine = [...mine, ...fresh];
      }
      const settled = await Promise.allSettled(parts.keys());
      const again: string[] = [];
      [...parts.values()].forEach((partIds, i) => {
        const s = settled[i]!;
        if (s.status === 'fulfilled') {
          if (s.value.correct) for (const id of partIds) scores[id] = s.value.scores[id]!;
        } else if (isCancellation(s.reason) && !signal.aborted && !mine.includes(partIds[0]!)) {
          // The test that was running it reached its verdict and stopped it: run it here.
          again.push(...partIds);
        } else throw s.reason;
      });
      const incorrect = settled.find((s): s is PromiseFulfilledResult<ShardOutcome & { correct: false }> => s.status === 'fulfilled' && !s.value.correct);
      if (incorrect) return incorrect.value;
      todo = again;
    }
    return { correct: true, scores };
  }

  /** Marks `ids` of a program as being evaluated by `outcome` until it settles. */
  private track(hash: string, ids: readonly string[], outcome: Promise<ShardOutcome>): void {
    for (const id of ids) this.running.set(runKey(hash, id), outcome);
    const release = () => ids.forEach((id) => this.running.get(runKey(hash, id)) === outcome && this.running.delete(runKey(hash, id)));
    outcome.then(release, release);
  }

  private async runShard(text: string, hash: string, ids: readonly string[], signal: AbortSignal): Promise<ShardOutcome> {
    return this.shardOutcome(hash, ids, await this.evaluate(text, this.o.whole || this.single ? undefined : ids, signal));
  }

  /** An evaluation as the gate reads it: the scores of `ids` (cached), or incorrect. */
  private shardOutcome(hash: string, ids: readonly string[], r: ProgramEvaluation): ShardOutcome {
    if (!r.correct) return { correct: false, error: r.error ?? 'the evaluator found the program incorrect' };
    const scores: Record<string, number> = {};
    for (const id of ids) {
      const y = this.single ? r.score : r.instances?.[id];
      if (y === undefined) return { correct: false, error: `the evaluator reported no score for instance ${id}` };
      scores[id] = y;
      this.o.cache.set(hash, id, y);
    }
    return { correct: true, scores };
  }

  private textsByHash(): Map<string, string> {
    const byHash = new Map<string, string>();
    for (const text of this.o.texts.values()) byHash.set(textHash(text), text);
    return byHash;
  }

  private textOf(hash: string, byHash: Map<string, string>): string {
    const known = byHash.get(hash);
    if (known !== undefined) return known;
    for (const text of this.o.texts.values()) if (textHash(text) === hash) return text;
    throw new RatchetError('internal', `No program text for ${hash}.`);
  }

  /** What a finished evaluation reported beyond scores: an incorrect program's output, a correct one's metrics and feedback. */
  private noteRun(text: string, ids: readonly string[] | undefined, r: ProgramEvaluation): void {
    if (!r.correct && r.output) this.outputs.set(textHash(text), r.output);
    if (r.correct && (r.publicMetrics !== undefined || r.feedback !== undefined)) {
      const byShard = this.reports.get(textHash(text)) ?? new Map<string, Report>();
      byShard.set(ids === undefined ? '' : ids.join('\n'), { ...(r.publicMetrics ? { publicMetrics: r.publicMetrics } : {}), ...(r.feedback ? { feedback: r.feedback } : {}) });
      this.reports.set(textHash(text), byShard);
    }
  }
}
