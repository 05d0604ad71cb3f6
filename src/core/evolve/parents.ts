/**
 * Whom a proposal starts from and whom a child is matched against: the Pareto front over feedback
 * scores (or its last member while there is nothing to score), a merge pair from that front, and
 * the rated archive's opponents. Every choice draws from the Random it is given.
 */
import type { DataItem } from '../data/item';
import type { Random } from '../ports';
import type { Evaluator } from './evaluator';
import { paretoFront, pickParetoParent } from './pareto';
import type { Ratings } from './ratings';
import type { Version } from './versions';

/** What parent choice scores versions on: the run's starting feedback split, with its scorer. */
export interface FeedbackScoring {
  evaluator: Evaluator;
  feedback: readonly DataItem[];
  scored: boolean;
  signal: AbortSignal;
}

export async function pickParent(committed: readonly Version[], scoring: FeedbackScoring, random: Random): Promise<Version> {
  if (committed.length === 1 || !scoring.scored || scoring.feedback.length === 0) return committed[committed.length - 1]!;
  const id = pickParetoParent(await feedbackScores(committed, scoring), random);
  return committed.find((v) => v.id === id)!;
}

/** Two distinct committed versions from the Pareto front over feedback scores, or undefined. */
export async function mergePair(committed: readonly Version[], scoring: FeedbackScoring, random: Random): Promise<[Version, Version] | undefined> {
  if (committed.length < 2 || !scoring.scored || scoring.feedback.length === 0) return undefined;
  const scored = await feedbackScores(committed, scoring);
  const front = paretoFront(scored);
  if (front.length < 2) return undefined;
  const [a, b] = sample(front, 2, random);
  return [committed.find((v) => v.id === a)!, committed.find((v) => v.id === b)!];
}

function feedbackScores(committed: readonly Version[], { evaluator, feedback, signal }: FeedbackScoring) {
  return Promise.all(
    committed.map(async (v) => {
      const evals = await Promise.all(feedback.map((item) => evaluator.evaluate(v.hash, v.text, item, signal)));
      // An item the judge gave no grade on is left out, as the front leaves out items not run (#25).
      return { id: v.id, scores: new Map(evals.flatMap((e) => (e.abstained === undefined ? [[e.itemId, e.score ?? 0] as const] : []))) };
    }),
  );
}

export function opponents(ratings: Ratings, byId: Map<string, Version>, child: Version, parent: Version, m: number, random: Random): Version[] {
  const pool = ratings.archive().filter((id) => id !== parent.id && id !== child.id);
  return sample(pool, m, random).map((id) => byId.get(id)!);
}

/** k items drawn without replacement, in the order drawn. */
export function sample<T>(items: readonly T[], k: number, random: Random): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < k && pool.length > 0) out.push(pool.splice(random.int(pool.length), 1)[0]!);
  return out;
}
