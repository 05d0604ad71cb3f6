/**
 * Near-duplicate removal for generated tasks (J-Zero's repetition penalty, transposed): a task
 * whose symmetric sentence BLEU with an earlier-round task or with a task already kept in this
 * batch reaches the threshold is dropped. Without it a Challenger rewarded for difficulty settles
 * on one hard task and rewrites it, and a dev set of rewrites measures one item many times.
 *
 * Greedy, in the Challenger's order: the first of a group of near-duplicates is kept, so the
 * result does not depend on anything but the input order, and each drop names the task it
 * repeats and the BLEU, which a reviewer can check. Earlier rounds are compared first, so a task
 * repeating the past is reported as such even when it also repeats its own batch.
 */
import { RatchetError } from '../errors';
import type { PreparedSentence } from './bleu';
import { prepareSentence, symmetricBleu } from './bleu';

/** R-Zero's clustering cut (BLEU distance 0.5): at or above it two tasks are one. */
export const DEFAULT_DUPLICATE_BLEU = 0.5;

export interface EarlierTask {
  text: string;
  round: number;
}

export interface Duplicate<T> {
  task: T;
  /** `earlier`: repeats a task of a previous round; `batch`: repeats one kept from this batch. */
  against: 'earlier' | 'batch';
  /** The text it repeats, and the round of that text when earlier. */
  of: string;
  round: number | undefined;
  bleu: number;
}

export interface DedupResult<T> {
  kept: T[];
  duplicates: Duplicate<T>[];
}

export interface DedupOptions {
  /** Texts kept in previous rounds, with their round. */
  earlier?: readonly EarlierTask[];
  /** Symmetric BLEU at or above which two tasks are near-duplicates, in (0, 1]. */
  threshold?: number;
}

/** Keeps the first of each group of near-duplicate tasks; `textOf` gives the text compared. */
export function dedupTasks<T>(tasks: readonly T[], textOf: (task: T) => string, opts: DedupOptions = {}): DedupResult<T> {
  const threshold = opts.threshold ?? DEFAULT_DUPLICATE_BLEU;
  if (!(threshold > 0 && threshold <= 1)) throw new RatchetError('badInput', `The duplicate BLEU threshold must lie in (0, 1], got ${threshold}.`);
  const earlier = (opts.earlier ?? []).map((e) => ({ ...e, prepared: prepareSentence(e.text) }));
  const keptPrepared: { text: string; prepared: PreparedSentence }[] = [];
  const kept: T[] = [];
  const duplicates: Duplicate<T>[] = [];
  for (const task of tasks) {
    const text = textOf(task);
    const prepared = prepareSentence(text);
    const past = firstAtOrAbove(prepared, earlier, threshold);
    const here = past ? undefined : firstAtOrAbove(prepared, keptPrepared, threshold);
    if (past) duplicates.push({ task, against: 'earlier', of: past.other.text, round: past.other.round, bleu: past.bleu });
    else if (here) duplicates.push({ task, against: 'batch', of: here.other.text, round: undefined, bleu: here.bleu });
    else {
      kept.push(task);
      keptPrepared.push({ text, prepared });
    }
  }
  return { kept, duplicates };
}

function firstAtOrAbove<E extends { prepared: PreparedSentence }>(prepared: PreparedSentence, others: readonly E[], threshold: number): { other: E; bleu: number } | undefined {
  for (const other of others) {
    const bleu = symmetricBleu(prepared, other.prepared);
    if (bleu >= threshold) return { other, bleu };
  }
  return undefined;
}
