/**
 * Evaluations kept on disk, content-addressed like the LLM response cache: the same program text
 * on the same instances through the same evaluator is never run twice — not in a run, not in its
 * resume, not in a rerun with the same seed. That is what lets a resumed search replay its
 * decisions exactly even when the evaluator is noisy: the scores it had are the scores it gets.
 *
 * The evaluator's identity is its spec (command, limits, timeout, environment names, network)
 * and the content of every file it runs (support files, ShinkaEvolve's evaluate.py): change any
 * of them and nothing cached answers. `repeat` separates deliberate re-evaluations of the same
 * program (the seed's second run, which asks whether the evaluator is deterministic).
 */
import { sha256Hex } from '../../core/random';
import type { ProgramBatchEvaluator, ProgramEvaluation, ProgramEvaluator } from '../../core/code/search';
import { deferred } from '../deferred';
import type { NodeFiles } from '../files';

export interface EvaluationCacheStats {
  hits: number;
  runs: number;
}

export async function evaluatorIdentity(files: NodeFiles, parts: { spec: unknown; filesRun: readonly string[] }): Promise<string> {
  const contents: string[] = [];
  for (const path of parts.filesRun) contents.push(sha256Hex((await files.tryReadText(path)) ?? `missing:${path}`));
  return sha256Hex(JSON.stringify({ spec: parts.spec, files: contents })).slice(0, 32);
}

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

export function cachedEvaluator(files: NodeFiles, dir: string, identity: string, inner: ProgramEvaluator): CachedEvaluators {
  const stats: EvaluationCacheStats = { hits: 0, runs: 0 };
  const pathOf = (key: string) => files.join(dir, key.slice(0, 2), `${key}.json`);
  const lookup = async (key: string): Promise<ProgramEvaluation | undefined> => {
    const kept = await files.tryReadText(pathOf(key));
    if (kept === undefined) return undefined;
    try {
      const result = JSON.parse(kept) as ProgramEvaluation;
      stats.hits++;
      return result;
    } catch {
      // A torn entry (a crash mid-write) is evaluated again and rewritten.
      return undefined;
    }
  };
  const keep = async (key: string, result: ProgramEvaluation, signal: AbortSignal): Promise<void> => {
    stats.runs++;
    // A cancelled evaluation says nothing about the program: it is not kept.
    if (signal.aborted) return;
    await files.mkdirp(files.dirname(pathOf(key)));
    await files.writeTextAtomic(pathOf(key), JSON.stringify(result));
  };
  const evaluate: ProgramEvaluator = async (text, ids, signal, repeat = 0) => {
    const key = evaluationKey(identity, text, ids, repeat);
    const kept = await lookup(key);
    if (kept !== undefined) return kept;
    const result = await inner(text, ids, signal, repeat);
    await keep(key, result, signal);
    return result;
  };
  const batch = (innerBatch: ProgramBatchEvaluator): ProgramBatchEvaluator => (text, shards, signal) => {
    const settle = shards.map(() => deferred<ProgramEvaluation>());
    void (async () => {
      const keys = shards.map((ids) => evaluationKey(identity, text, ids));
      const kept = await Promise.all(keys.map(lookup));
      const missing = shards.flatMap((_, i) => (kept[i] === undefined ? [i] : []));
      kept.forEach((r, i) => r !== undefined && settle[i]!.resolve(r));
      if (missing.length === 0) return;
      const outcomes = innerBatch(text, missing.map((i) => shards[i]!), signal);
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
