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
import { sha256Hex } from '../core/random';
import type { ProgramEvaluation, ProgramEvaluator } from '../core/code/search';
import type { NodeFiles } from './files';

export interface EvaluationCacheStats {
  hits: number;
  runs: number;
}

export async function evaluatorIdentity(files: NodeFiles, parts: { spec: unknown; filesRun: readonly string[] }): Promise<string> {
  const contents: string[] = [];
  for (const path of parts.filesRun) contents.push(sha256Hex((await files.tryReadText(path)) ?? `missing:${path}`));
  return sha256Hex(JSON.stringify({ spec: parts.spec, files: contents })).slice(0, 32);
}

export function cachedEvaluator(files: NodeFiles, dir: string, identity: string, inner: ProgramEvaluator): { evaluate: ProgramEvaluator; stats: EvaluationCacheStats } {
  const stats: EvaluationCacheStats = { hits: 0, runs: 0 };
  const evaluate: ProgramEvaluator = async (text, ids, signal, repeat = 0) => {
    const key = sha256Hex(JSON.stringify({ evaluator: identity, program: sha256Hex(text), instances: ids ?? null, repeat }));
    const path = files.join(dir, key.slice(0, 2), `${key}.json`);
    const kept = await files.tryReadText(path);
    if (kept !== undefined) {
      try {
        const result = JSON.parse(kept) as ProgramEvaluation;
        stats.hits++;
        return result;
      } catch {
        // A torn entry (a crash mid-write) is evaluated again and rewritten.
      }
    }
    const result = await inner(text, ids, signal, repeat);
    stats.runs++;
    // A cancelled evaluation says nothing about the program: it is not kept.
    if (!signal.aborted) {
      await files.mkdirp(files.dirname(path));
      await files.writeTextAtomic(path, JSON.stringify(result));
    }
    return result;
  };
  return { evaluate, stats };
}
