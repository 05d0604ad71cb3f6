/**
 * Elo ratings for parent selection (GATES.md 7.1–7.4). A selection heuristic only: an Elo gain is
 * not evidence that a child is better (no error control, order- and K-dependent); acceptance is the
 * job of the PACE gates.
 */
import type { Random } from '../ports';
import { RatchetError } from '../errors';
import { drawIndex } from '../random';

export const ELO_INITIAL = 1500;
export const ELO_K = 32;
/** τ = 400/ln 10 makes softmax selection proportional to the Bradley–Terry strength 10^{R/400} (7.3). */
export const ELO_TAU = 400 / Math.LN10;

/** E_A = 1/(1 + 10^{(R_B − R_A)/400}). */
export function eloExpected(ratingA: number, ratingB: number): number {
  return 1 / (1 + 10 ** ((ratingB - ratingA) / 400));
}

export interface EloUpdate {
  a: number;
  b: number;
  expectedA: number;
}

/** R_A += K (s_A − E_A), R_B −= K (s_A − E_A) (7.1); s_A ∈ [0, 1] (½ for an inconsistent pair). */
export function eloUpdate(ratingA: number, ratingB: number, scoreA: number, k: number = ELO_K): EloUpdate {
  if (!(scoreA >= 0 && scoreA <= 1)) throw new RatchetError('internal', `An Elo score must lie in [0, 1], got ${scoreA}.`);
  const expectedA = eloExpected(ratingA, ratingB);
  const step = k * (scoreA - expectedA);
  return { a: ratingA + step, b: ratingB - step, expectedA };
}

/**
 * The agent's confidence c_t (7.2): per response, the geometric-mean token probability
 * exp((1/L) Σ log p); averaged over the responses. 1 (plain Elo) when no logprobs are available.
 */
export function agentConfidence(tokenLogprobsPerResponse: readonly (readonly number[])[]): number {
  const per = tokenLogprobsPerResponse.filter((r) => r.length > 0).map((r) => Math.exp(r.reduce((a, b) => a + b, 0) / r.length));
  if (per.length === 0) return 1;
  return per.reduce((a, b) => a + b, 0) / per.length;
}

/** Soft Elo step K_t = K·c_t, c_t ∈ (0, 1] (7.2). */
export function softEloK(confidence: number, k: number = ELO_K): number {
  if (!(confidence > 0 && confidence <= 1)) throw new RatchetError('internal', `A confidence must lie in (0, 1], got ${confidence}.`);
  return k * confidence;
}

/** The soft-outcome variant of 7.2: s_A = ½(p₁ + p₂), the judge's probabilities of preferring A in each order. */
export function softMatchScore(pAWhenFirst: number, pAWhenSecond: number): number {
  return (pAWhenFirst + pAWhenSecond) / 2;
}

/** P(select j) = exp(R_j/τ)/Σ exp(R_k/τ), max subtracted first (7.3). */
export function softmaxProbabilities(ratings: readonly number[], tau: number = ELO_TAU): number[] {
  if (ratings.length === 0) return [];
  if (!(tau > 0)) throw new RatchetError('badInput', `The softmax temperature must be positive, got ${tau}.`);
  const max = ratings.reduce((m, r) => Math.max(m, r), -Infinity);
  const w = ratings.map((r) => Math.exp((r - max) / tau));
  const total = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / total);
}

/** Draws an index with softmax probabilities (inverse CDF on one uniform). */
export function softmaxSelect(ratings: readonly number[], random: Pick<Random, 'next'>, tau: number = ELO_TAU): number {
  if (ratings.length === 0) throw new RatchetError('internal', 'Cannot select a parent from an empty pool.');
  return drawIndex(softmaxProbabilities(ratings, tau), random);
}

/** Ratings by version id; immutable updates so a journal can replay them. */
export type EloTable = ReadonlyMap<string, number>;

/** A new version starts at its parent's rating, the first one at 1500 (7.1). */
export function eloAddVersion(table: EloTable, id: string, parentId?: string): EloTable {
  const next = new Map(table);
  next.set(id, parentId === undefined ? ELO_INITIAL : (table.get(parentId) ?? ELO_INITIAL));
  return next;
}

/** Applies one match between a and b with a's score (from `childMatchScore` or `softMatchScore`). */
export function eloRecordMatch(table: EloTable, a: string, b: string, scoreA: number, k: number = ELO_K): EloTable {
  const ra = table.get(a);
  const rb = table.get(b);
  if (ra === undefined || rb === undefined) throw new RatchetError('internal', `Unknown version in an Elo match: ${ra === undefined ? a : b}.`);
  const u = eloUpdate(ra, rb, scoreA, k);
  const next = new Map(table);
  next.set(a, u.a);
  next.set(b, u.b);
  return next;
}

/** The child's opponents (7.4): its parent, then m archive members drawn uniformly without replacement. */
export function matchOpponents(archive: readonly string[], childId: string, parentId: string, m: number, random: Pick<Random, 'int'>): string[] {
  const pool = archive.filter((id) => id !== childId && id !== parentId);
  const picks: string[] = [];
  while (picks.length < m && pool.length > 0) picks.push(pool.splice(random.int(pool.length), 1)[0]!);
  return [parentId, ...picks];
}
