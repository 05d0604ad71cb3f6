/**
 * Which programs a proposal is shown besides its parent (ShinkaEvolve 9912af1
 * `shinka/database/inspirations.py`), as a pure function of the island's ranked pool: the
 * program database decides who is in the pool and how it ranks.
 */
import type { Random } from '../ports';

/** Shinka `elite_selection_ratio`, `num_archive_inspirations`, `num_top_k_inspirations`. */
export const INSPIRATION_DEFAULTS = { archive: 1, topK: 1, eliteRatio: 0.3 } as const;

export interface InspirationOptions {
  archive?: number;
  topK?: number;
  eliteRatio?: number;
}

/**
 * Programs shown to the proposer with their public metrics (Shinka inspirations.py, with
 * `enforce_island_separation` on, its default): `archive` archive inspirations — the best
 * program when it lives on this island, then `⌊archive·eliteRatio⌋` top-ranked ones, then
 * uniform draws — and then the `topK` top-ranked others. All from `ranked` (the island's pool without the
 * parent, best first); returned worst first, so the best sits last, nearest the request (Shinka's
 * "ascending" order, chosen for the models' recency bias).
 */
export function chooseInspirations<P extends { id: string }>(ranked: readonly P[], bestId: string | undefined, random: Random, opts: InspirationOptions = {}): P[] {
  const nArchive = opts.archive ?? INSPIRATION_DEFAULTS.archive;
  const nTop = opts.topK ?? INSPIRATION_DEFAULTS.topK;
  const chosen: P[] = [];
  const take = (p: P | undefined): void => {
    if (p && !chosen.includes(p)) chosen.push(p);
  };
  if (nArchive > 0) take(ranked.find((p) => p.id === bestId));
  const elites = Math.floor(nArchive * (opts.eliteRatio ?? INSPIRATION_DEFAULTS.eliteRatio));
  for (const p of ranked.slice(0, elites)) if (chosen.length < nArchive) take(p);
  const rest = ranked.filter((p) => !chosen.includes(p));
  while (chosen.length < nArchive && rest.length > 0) take(rest.splice(random.int(rest.length), 1)[0]);
  const top = ranked.filter((p) => !chosen.includes(p)).slice(0, nTop);
  // `ranked` is best first: worst first is its order backwards.
  return [...chosen, ...top].sort((a, b) => ranked.indexOf(b) - ranked.indexOf(a));
}
