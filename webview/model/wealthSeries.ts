/**
 * The evidence chart's data: evidence (the PACE wealth) per discordant pair for the candidate under
 * test and one past candidate, the 1/α line and the futility bound, in uPlot's aligned-columns
 * layout; and its summary in words, each statistical term with its hover.
 */
import type { FeedPiece } from './feed';
import { count, formatFactor, shortId } from './format';
import type { CandidateFacts } from './glossary';
import { GLOSSARY, hover } from './glossary';
import type { RunState, WealthTrace } from '../../src/panelState/types';

export type Column = (number | null)[];

export interface WealthChartData {
  /** Discordant pair index; 0 is the start (wealth 1). */
  x: number[];
  live: Column;
  past: Column;
  threshold: Column;
  futility: Column;
  /** Markers at the last point of a committed / rejected trace. */
  commits: Column;
  rejects: Column;
  liveId: string | undefined;
  pastId: string | undefined;
  /** Whose futility bound `futility` is. */
  futilityId: string | undefined;
  /** y-range on the wealth scale (log axis); fixed from the data so live updates do not jump. */
  yRange: [number, number];
  /** Text alternative for screen readers and for environments without canvas. */
  summary: string;
  /** The summary in pieces, its terms (evidence, needs ×20, discordant pairs, ties) with their hovers. */
  summaryPieces: FeedPiece[];
}

export function wealthChartData(state: RunState | undefined, selectedId: string | undefined): WealthChartData {
  const liveId = state?.activeCandidateId;
  const live = liveId !== undefined ? state?.wealth[liveId] : undefined;
  const pastCandidate = selectedId !== undefined && selectedId !== liveId ? state?.wealth[selectedId] : undefined;
  return chartData(state, liveId, live, pastCandidate);
}

/** One test's evidence on its own, as the selected trace (a code-search program's detail). */
export function traceChartData(trace: WealthTrace): WealthChartData {
  return chartData(undefined, undefined, undefined, trace);
}

function chartData(state: RunState | undefined, liveId: string | undefined, live: WealthTrace | undefined, pastCandidate: WealthTrace | undefined): WealthChartData {
  const n = Math.max(live?.steps.length ?? 0, pastCandidate?.steps.length ?? 0);
  const x = Array.from({ length: n + 1 }, (_, i) => i);
  const liveCol = wealthColumn(live, n);
  const pastCol = wealthColumn(pastCandidate, n);
  const logThr = lastThreshold(live) ?? lastThreshold(pastCandidate);
  const thr = logThr === undefined ? undefined : Math.exp(logThr);
  const threshold: Column = x.map(() => (thr === undefined ? null : thr));
  const futility: Column = x.map(() => null);
  // One bound is drawn: the selected candidate's (the one the user is asking about), else the live one's.
  const bounded = pastCandidate ?? live;
  bounded?.steps.forEach((s, i) => {
    // For one λ this is exactly thr/(1+λ)^m; for the mixture it has the same crossing: the
    // wealth is below it exactly when the best reachable wealth is below the threshold.
    futility[i + 1] = Math.exp(s.logWealth + s.logThreshold - s.logBest);
  });
  const commits: Column = x.map(() => null);
  const rejects: Column = x.map(() => null);
  for (const trace of [live, pastCandidate]) {
    if (!trace?.decision) continue;
    const last = trace.steps.length;
    const value = last === 0 ? 1 : Math.exp(trace.steps[last - 1]!.logWealth);
    (trace.decision === 'commit' ? commits : rejects)[last] = value;
  }
  const pieces = summarize(state, live, pastCandidate, thr);
  return {
    x,
    live: liveCol,
    past: pastCol,
    threshold,
    futility,
    commits,
    rejects,
    liveId: live ? liveId : undefined,
    pastId: pastCandidate?.candidateId,
    futilityId: bounded?.candidateId,
    yRange: yRange([liveCol, pastCol], thr),
    summaryPieces: pieces,
    summary: pieces.map((p) => p.text).join(''),
  };
}

function wealthColumn(trace: WealthTrace | undefined, n: number): Column {
  const col: Column = new Array<number | null>(n + 1).fill(null);
  if (!trace) return col;
  col[0] = 1;
  trace.steps.forEach((s, i) => {
    col[i + 1] = Math.exp(s.logWealth);
  });
  return col;
}

/** The log threshold of the last step; for a candidate decided on ties alone, its decision's. */
function lastThreshold(trace: WealthTrace | undefined): number | undefined {
  const last = trace?.steps[trace.steps.length - 1];
  if (last) return last.logThreshold;
  return trace?.threshold !== undefined && trace.threshold > 0 ? Math.log(trace.threshold) : undefined;
}

function yRange(cols: Column[], thr: number | undefined): [number, number] {
  let lo = 1;
  let hi = Math.max(1, thr ?? 1);
  for (const col of cols) {
    for (const v of col) {
      if (v === null || !(v > 0)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  // Half a decade of headroom each side keeps the threshold line and the markers off the frame.
  return [lo / 3, hi * 3];
}

function summarize(state: RunState | undefined, live: WealthTrace | undefined, past: WealthTrace | undefined, thr: number | undefined): FeedPiece[] {
  if (!live && !past) return [{ text: 'No evidence yet: the chart fills in as ' }, { text: 'discordant pairs', title: GLOSSARY.discordant.means }, { text: ' arrive.' }];
  const out: FeedPiece[] = [];
  for (const [what, trace] of [
    ['Under test', live],
    ['Selected', past],
  ] as const) {
    if (!trace) continue;
    const last = trace.steps[trace.steps.length - 1];
    const logW = last?.logWealth ?? 0;
    const futile = last !== undefined && last.logBest < last.logThreshold;
    const outcome = trace.decision ? `; ${trace.decision === 'commit' ? 'committed' : 'rejected'}` : futile ? '; futile' : '';
    const facts = traceFacts(state, trace, thr, futile);
    if (out.length > 0) out.push({ text: ' ' });
    out.push(
      { text: `${what} ${shortId(trace.candidateId)}: ` },
      { text: `evidence ×${formatFactor(Math.exp(logW))}`, title: hover('evidence', facts) },
      // Unknown (NaN) until the first discordant pair says it.
      ...(facts.threshold > 0 ? [{ text: ` (needs ×${formatFactor(facts.threshold)})`, title: hover('needs', facts) }] : []),
      { text: ' after ' },
      { text: count(trace.steps.length, 'discordant pair'), title: hover('discordant', facts) },
      { text: ' and ' },
      { text: count(trace.ties, 'tie'), title: hover('tie', facts) },
      ...(trace.unjudged ? [{ text: `, ${count(trace.unjudged, 'item')} the judge did not answer for`, title: 'Left out of the test: neither wins, losses nor ties (the judge gave no verdict, asked twice).' }] : []),
      ...(outcome === '; futile' ? [{ text: '; ' }, { text: 'futile', title: hover('futility', facts) }] : outcome !== '' ? [{ text: outcome }] : []),
      { text: '.' },
    );
  }
  return out;
}

function traceFacts(state: RunState | undefined, trace: WealthTrace, thr: number | undefined, futile: boolean): CandidateFacts {
  const last = trace.steps[trace.steps.length - 1];
  const wins = trace.steps.filter((s) => s.delta > 0).length;
  const node = state?.candidates[trace.candidateId];
  const decided = state?.decisions.findLast((d) => d.candidateId === trace.candidateId);
  return {
    candidateId: trace.candidateId,
    incumbentId: decided?.incumbentId ?? node?.parentId,
    evidence: Math.exp(last?.logWealth ?? 0),
    threshold: thr ?? trace.threshold ?? Number.NaN,
    alpha: decided?.alpha ?? state?.info?.alpha,
    wins,
    losses: trace.steps.length - wins,
    ties: trace.ties,
    futile: futile || decided?.reason === 'futile',
  };
}

/**
 * Powers of ten inside [min, max], plus the threshold as its own tick so "×20" is readable; a
 * decade closer than a factor of 2.5 to the threshold is dropped, or the two labels overlap.
 */
export function logSplits(min: number, max: number, threshold: number | undefined): number[] {
  const hasThr = threshold !== undefined && threshold >= min && threshold <= max;
  const out: number[] = hasThr ? [threshold] : [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) {
    const v = 10 ** e;
    if (v < min || v > max) continue;
    // Within a factor 2.5 of the line (inclusive: ×100 beside the run-level default's ×40) the labels collide.
    if (hasThr && Math.abs(Math.log10(v / threshold)) <= Math.log10(2.5) + 1e-9) continue;
    out.push(v);
  }
  return out.sort((a, b) => a - b);
}
