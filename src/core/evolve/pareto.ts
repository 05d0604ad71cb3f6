/**
 * GEPA-style parent selection: the Pareto front over per-item feedback scores. A candidate is on
 * the front when no other candidate scores at least as well on every feedback item and strictly
 * better on one. Picking uniformly among the front's members, weighted by how many items each is
 * best on, keeps diverse specialists alive instead of hill-climbing one average.
 */
import type { Random } from '../ports';

export interface ScoredCandidate {
  id: string;
  /** Feedback-split scores by item id; items a candidate was not run on are absent. */
  scores: ReadonlyMap<string, number>;
}

/** Ids of the candidates not dominated on the items all of them were scored on. */
export function paretoFront(cands: readonly ScoredCandidate[]): string[] {
  const items = commonItems(cands);
  if (items.length === 0) return cands.map((c) => c.id);
  return cands.filter((a) => !cands.some((b) => b !== a && dominates(b, a, items))).map((c) => c.id);
}

/**
 * A parent from the front, chosen with probability proportional to the number of items on which
 * it attains the best score (GEPA's instance-wise selection); ties share the item.
 */
export function pickParetoParent(cands: readonly ScoredCandidate[], random: Random): string {
  if (cands.length === 0) throw new Error('pickParetoParent: no candidates');
  const front = new Set(paretoFront(cands));
  const members = cands.filter((c) => front.has(c.id));
  const items = commonItems(members);
  const weight = new Map(members.map((c) => [c.id, 0]));
  for (const item of items) {
    const best = members.reduce((m, c) => Math.max(m, c.scores.get(item) ?? 0), -Infinity);
    const winners = members.filter((c) => (c.scores.get(item) ?? 0) === best);
    for (const w of winners) weight.set(w.id, weight.get(w.id)! + 1 / winners.length);
  }
  const total = [...weight.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return members[random.int(members.length)]!.id;
  let u = random.next() * total;
  for (const c of members) {
    u -= weight.get(c.id)!;
    if (u < 0) return c.id;
  }
  return members[members.length - 1]!.id;
}

function commonItems(cands: readonly ScoredCandidate[]): string[] {
  if (cands.length === 0) return [];
  return [...cands[0]!.scores.keys()].filter((item) => cands.every((c) => c.scores.has(item)));
}

function dominates(a: ScoredCandidate, b: ScoredCandidate, items: string[]): boolean {
  let strictly = false;
  for (const item of items) {
    const sa = a.scores.get(item)!;
    const sb = b.scores.get(item)!;
    if (sa < sb) return false;
    if (sa > sb) strictly = true;
  }
  return strictly;
}
