/**
 * Evaluations kept on disk, content-addressed like the LLM response cache: the same program text
 * on the same instances through the same evaluator is never run twice — not in a run, not in its
 * resume, not in a rerun with the same seed. That is what lets a resumed search replay its
 * decisions exactly even when the evaluator is noisy: the scores it had are the scores it gets.
 *
 * The evaluator's identity is the hash of the exact bytes the run evaluates with — its support
 * files and ShinkaEvolve's evaluate.py as staged at the start (sandbox/staging.ts), by their names
 * in the sandbox, never by absolute path — and of the settings that change an outcome (command,
 * limits, timeout, environment names, network, isolation): change any of them and nothing cached
 * answers. `repeat` separates deliberate re-evaluations of the same program (the seed's second
 * run, which asks whether the evaluator is deterministic).
 *
 * An entry is written only by Ratchet, after an evaluation (a jailed program cannot see the
 * workspace), and checked when read: it must be this key's and a well-formed evaluation. One that
 * is not (torn by a crash, edited, `{}`, `null`) is evaluated again and rewritten, with a warning
 * naming its file.
 */
import { sha256Hex } from '../../core/random';
import type { ProgramBatchEvaluator, ProgramEvaluation, ProgramEvaluator } from '../../core/code/search';
import { ISOLATION_TIERS } from '../../core/code/isolation';
import { isPlainObject } from '../../core/data/item';
import { deferred } from '../deferred';
import type { NodeFiles } from '../files';

export interface EvaluationCacheStats {
  hits: number;
  runs: number;
}

/**
 * An identity of a command and the files it runs, by their content: the agent harness's output
 * cache (commandHarness.ts) keys by it. A code search's evaluator identity is its stage's
 * (sandbox/staging.ts), the hash of the very bytes the run evaluates with.
 */
export async function evaluatorIdentity(files: NodeFiles, parts: { spec: unknown; filesRun: readonly string[] }): Promise<string> {
  const contents: string[] = [];
  for (const path of parts.filesRun) contents.push(sha256Hex((await files.tryReadText(path)) ?? `missing:${path}`));
  return sha256Hex(JSON.stringify({ spec: parts.spec, files: contents })).slice(0, 32);
}

/** What a cache file holds; older Ratchets wrote the bare evaluation, which no key of today's finds. */
const FORMAT = 2;

/** One evaluation's key: the cache's file name, and a Slurm task's name for the shard it runs (so a resume knows it). */
export function evaluationKey(identity: string, text: string, ids: readonly string[] | undefined, repeat = 0): string {
  return sha256Hex(JSON.stringify({ evaluator: identity, program: sha256Hex(text), instances: ids ?? null, repeat }));
}

export interface CachedEvaluators {
  evaluate: ProgramEvaluator;
  /** The same cache in front of a batch backend: each shard is looked up, and only the misses are submitted (together). */
  batch(inner: ProgramBatchEvaluator): ProgramBatchEvaluator;
  stats: EvaluationCacheStats;
}

/** Told of a cache file that could not be used (it is evaluated again and rewritten). */
export type BadEntry = (file: string, why: string) => void;

export function cachedEvaluator(files: NodeFiles, dir: string, identity: string, inner: ProgramEvaluator, onBadEntry: BadEntry = () => undefined): CachedEvaluators {
  const stats: EvaluationCacheStats = { hits: 0, runs: 0 };
  const pathOf = (key: string) => files.join(dir, key.slice(0, 2), `${key}.json`);
  const lookup = async (key: string): Promise<ProgramEvaluation | undefined> => {
    const file = pathOf(key);
    const kept = await files.tryReadText(file).catch((err: unknown) => {
      onBadEntry(file, `it cannot be read (${(err as Error).message})`);
      return undefined;
    });
    if (kept === undefined) return undefined;
    const read = readEntry(kept, key);
    if (typeof read === 'string') {
      onBadEntry(file, read);
      return undefined;
    }
    stats.hits++;
    return read;
  };
  const keep = async (key: string, result: ProgramEvaluation, signal: AbortSignal): Promise<void> => {
    stats.runs++;
    // A cancelled evaluation says nothing about the program: it is not kept.
    if (signal.aborted) return;
    await files.mkdirp(files.dirname(pathOf(key)));
    await files.writeTextAtomic(pathOf(key), JSON.stringify({ format: FORMAT, key, evaluation: result }));
  };
  const evaluate: ProgramEvaluator = async (text, ids, signal, repeat = 0) => {
    const key = evaluationKey(identity, text, ids, repeat);
    const kept = await lookup(key);
    if (kept !== undefined) return kept;
    const result = await inner(text, ids, signal, repeat);
    await keep(key, result, signal);
    return result;
  };
  const batch =
    (innerBatch: ProgramBatchEvaluator): ProgramBatchEvaluator =>
    (text, shards, signal) => {
      const settle = shards.map(() => deferred<ProgramEvaluation>());
      void (async () => {
        const keys = shards.map((ids) => evaluationKey(identity, text, ids));
        const kept = await Promise.all(keys.map(lookup));
        const missing = shards.flatMap((_, i) => (kept[i] === undefined ? [i] : []));
        kept.forEach((r, i) => r !== undefined && settle[i]!.resolve(r));
        if (missing.length === 0) return;
        const outcomes = innerBatch(
          text,
          missing.map((i) => shards[i]!),
          signal,
        );
        missing.forEach((i, k) => {
          outcomes[k]!.then(
            async (result) => {
              await keep(keys[i]!, result, signal);
              settle[i]!.resolve(result);
            },
            (err: unknown) => settle[i]!.reject(err),
          );
        });
      })().catch((err: unknown) => settle.forEach((s) => s.reject(err)));
      return settle.map((s) => s.promise);
    };
  return { evaluate, batch, stats };
}

/** The evaluation an entry holds for `key`, or why it cannot be used. */
export function readEntry(text: string, key: string): ProgramEvaluation | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `it is not JSON (${(err as Error).message}; torn by a crash?)`;
  }
  if (!isPlainObject(value) || value.format !== FORMAT) return `it is not an evaluation cache entry of format ${FORMAT}`;
  if (value.key !== key) return 'it holds the entry of another key (moved or copied by hand?)';
  const why = evaluationProblem(value.evaluation);
  return why === undefined ? (value.evaluation as ProgramEvaluation) : `its evaluation ${why}`;
}

/** What is wrong with a stored evaluation, or undefined when it is one. */
function evaluationProblem(e: unknown): string | undefined {
  if (!isPlainObject(e)) return 'is not an object';
  if (typeof e.correct !== 'boolean') return 'has no true/false "correct"';
  if (e.score !== undefined && !(typeof e.score === 'number' && Number.isFinite(e.score))) return 'has a score that is not a finite number';
  if (e.correct && e.score === undefined && e.instances === undefined) return 'is correct with neither a score nor instance scores';
  if (e.instances !== undefined && !(isPlainObject(e.instances) && Object.values(e.instances).every((v) => typeof v === 'number' && Number.isFinite(v)))) return 'has instance scores that are not finite numbers';
  for (const k of ['feedback', 'error', 'output'] as const) if (e[k] !== undefined && typeof e[k] !== 'string') return `has a "${k}" that is not text`;
  if (e.publicMetrics !== undefined && !isPlainObject(e.publicMetrics)) return 'has public metrics that are not an object';
  if (e.isolation !== undefined && !(isPlainObject(e.isolation) && (ISOLATION_TIERS as readonly unknown[]).includes(e.isolation.tier) && (e.isolation.network === 'off' || e.isolation.network === 'on'))) return 'names an unknown isolation';
  if (e.incidents !== undefined && !(Array.isArray(e.incidents) && e.incidents.every((x) => typeof x === 'string'))) return 'has incidents that are not text';
  return undefined;
}
