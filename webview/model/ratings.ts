/** The ratings table and interval chart data (GATES.md 7): Elo, Bradley–Terry with 95 % intervals,
 * parent-selection probability. Pure. */
import { shortId } from './format';
import type { CandidateRating, RunState } from '../../src/panelState/types';

export interface RatingRow {
  candidateId: string;
  candidate: string;
  elo: string;
  bt: string;
  interval: string;
  selectP: string;
  /** 0..1 for the selection bar. */
  selectFraction: number;
  status: 'commit' | 'reject' | 'pending';
  incumbent: boolean;
}

const fmt = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(0));

/** Best first: by Bradley–Terry when the engine refits it, else by Elo. */
export function sortedRatings(ratings: readonly CandidateRating[]): CandidateRating[] {
  return [...ratings].sort((a, b) => (b.bt ?? b.elo ?? -Infinity) - (a.bt ?? a.elo ?? -Infinity));
}

export function ratingRows(state: RunState | undefined): RatingRow[] {
  if (!state) return [];
  return sortedRatings(state.ratings).map((r) => ({
    candidateId: r.candidateId,
    candidate: shortId(r.candidateId),
    elo: fmt(r.elo),
    bt: fmt(r.bt),
    interval: r.lo !== undefined && r.hi !== undefined ? `${fmt(r.lo)}–${fmt(r.hi)}` : '—',
    selectP: r.selectP === undefined ? '—' : `${(r.selectP * 100).toFixed(1)}%`,
    selectFraction: Math.min(1, Math.max(0, r.selectP ?? 0)),
    status: state.candidates[r.candidateId]?.decision ?? 'pending',
    incumbent: state.incumbentId === r.candidateId,
  }));
}

export interface RatingsChartData {
  x: number[];
  labels: string[];
  bt: (number | null)[];
  lo: (number | null)[];
  hi: (number | null)[];
  elo: (number | null)[];
}

/** The top `limit` candidates by rating, one x position each (a small forest plot). */
export function ratingsChartData(state: RunState | undefined, limit = 30): RatingsChartData {
  const top = sortedRatings(state?.ratings ?? []).slice(0, limit);
  const v = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? null : x);
  return {
    x: top.map((_, i) => i + 1),
    labels: top.map((r) => shortId(r.candidateId)),
    bt: top.map((r) => v(r.bt)),
    lo: top.map((r) => v(r.lo)),
    hi: top.map((r) => v(r.hi)),
    elo: top.map((r) => v(r.elo)),
  };
}
