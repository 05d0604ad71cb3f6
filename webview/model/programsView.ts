/**
 * The Programs view's data, derived from a code search's folded programs (src/panelState/programs.ts):
 * the Score-over-time chart's columns in uPlot's aligned layout (one point per evaluated program,
 * one points-only series per island, the incorrect ones on a band below the scores, the committed
 * bests ringed, the best-so-far step line), per-island best, size and stagnation, and the archive's
 * rows. Pure.
 */
import type { ProgramsAxis } from '../../src/protocol/webview';
import { count } from './format';
import type { Column } from './wealthSeries';
import type { ProgramNode, ProgramsState } from '../../src/panelState/types';

export interface ScoreChartData {
  /** Evaluation index (1-based), or seconds since the first evaluation's start on the time axis. */
  x: number[];
  /** Program id at each x. */
  ids: string[];
  /** Correct programs' scores, one column per island (null where another island's program sits). */
  islands: Column[];
  /** Incorrect programs, drawn on the band below every score. */
  incorrect: Column;
  /** Committed programs: ringed over their island's point. */
  committed: Column;
  /** The best committed score so far, at every x (a step line). */
  best: Column;
  /** The selected program, ringed. */
  selected: Column;
  yRange: [number, number];
  /** Where the incorrect ones are drawn. */
  incorrectBand: number;
  /** Below this the y axis holds the incorrect band, not scores: its ticks go unlabelled. */
  scoreFloor: number;
  axis: ProgramsAxis;
  /** Text alternative (the chart's accessible name and stand-in without canvas). */
  summary: string;
}

export function scoreChartData(p: ProgramsState, axis: ProgramsAxis, selectedId: string | undefined): ScoreChartData {
  const n = p.evaluated.length;
  const islands = Math.max(1, p.islands);
  const nodes = p.evaluated.map((id) => p.nodes[id]!);
  const x = axis === 'index' ? nodes.map((_, i) => i + 1) : wallSeconds(nodes);
  const col = (): Column => new Array<number | null>(n).fill(null);
  const islandCols = Array.from({ length: islands }, col);
  const incorrect = col();
  const committed = col();
  const best = col();
  const selected = col();
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const node of nodes) {
    if (node.correct && node.score !== undefined && Number.isFinite(node.score)) {
      lo = Math.min(lo, node.score);
      hi = Math.max(hi, node.score);
    }
  }
  if (!Number.isFinite(lo)) [lo, hi] = [0, 1];
  const pad = hi > lo ? (hi - lo) * 0.08 : Math.max(Math.abs(hi) * 0.05, 0.05);
  // The band below the scores is drawn only when it holds something.
  const anyIncorrect = nodes.some((node) => node.correct !== true || node.score === undefined || !Number.isFinite(node.score));
  const band = anyIncorrect ? lo - 2 * pad : lo;
  let stepIndex = -1;
  let bestSoFar: number | null = null;
  nodes.forEach((node, i) => {
    const ok = node.correct === true && node.score !== undefined && Number.isFinite(node.score);
    const y = ok ? node.score! : band;
    if (ok) islandCols[Math.min(node.island, islands - 1)]![i] = y;
    else incorrect[i] = band;
    if (node.committed && ok) committed[i] = y;
    if (node.id === selectedId) selected[i] = y;
    while (stepIndex + 1 < p.bestSteps.length && p.bestSteps[stepIndex + 1]!.evalIndex <= i + 1) bestSoFar = p.bestSteps[++stepIndex]!.score;
    best[i] = bestSoFar;
  });
  return {
    x,
    ids: [...p.evaluated],
    islands: islandCols,
    incorrect,
    committed,
    best,
    selected,
    yRange: [band - pad, hi + pad],
    incorrectBand: band,
    scoreFloor: anyIncorrect ? lo - pad : Number.NEGATIVE_INFINITY,
    axis,
    summary: summarize(p, nodes),
  };
}

/** Seconds from the first program's proposal, never decreasing (uPlot wants a sorted x). */
function wallSeconds(nodes: ProgramNode[]): number[] {
  const t0 = nodes[0]?.proposedAt ?? 0;
  let last = 0;
  return nodes.map((node) => (last = Math.max(last, ((node.evaluatedAt ?? node.proposedAt) - t0) / 1000)));
}

function summarize(p: ProgramsState, nodes: ProgramNode[]): string {
  if (nodes.length === 0) return 'No program evaluated yet: the chart fills in as the evaluator reports.';
  const wrong = nodes.filter((n) => n.correct !== true).length;
  const best = p.bestSteps.at(-1);
  const bestText = best ? `; best ${formatScore(best.score)} (${best.programId}, evaluation ${best.evalIndex}, ${count(p.bestSteps.length, 'improvement')})` : '; no committed program yet';
  return `${count(nodes.length, 'program')} evaluated, ${wrong} incorrect${bestText}; ${count(Math.max(1, p.islands), 'island')}.`;
}

export function formatScore(score: number | undefined): string {
  if (score === undefined || !Number.isFinite(score)) return '—';
  const abs = Math.abs(score);
  return abs !== 0 && (abs >= 1e5 || abs < 1e-3) ? score.toExponential(2) : String(Number(score.toPrecision(4)));
}

/** What the chart's readout and a list row say of a program, in one line. */
export function programLine(node: ProgramNode): string {
  const verdict = node.correct === false ? 'incorrect' : node.evalIndex === undefined ? 'under test' : node.committed ? 'committed' : node.decision === 'reject' ? 'rejected' : 'kept';
  const score = node.correct === true ? ` · ${formatScore(node.score)}` : '';
  return `${node.id}${score} · island ${node.island} · gen ${node.generation} · ${verdict}${node.name ? ` · ${node.name}` : ''}`;
}

export interface IslandRow {
  island: number;
  /** Its best correct program (proposed there or migrated in). */
  bestId: string | undefined;
  bestScore: number | undefined;
  /** Programs proposed on it plus those migrated in. */
  size: number;
  evaluated: number;
  /** Evaluations of its programs since its best improved (all of them while it has none). */
  stagnation: number;
}

export function islandRows(p: ProgramsState): IslandRow[] {
  const rows: IslandRow[] = Array.from({ length: Math.max(1, p.islands) }, (_, island) => ({ island, bestId: undefined, bestScore: undefined, size: 0, evaluated: 0, stagnation: 0 }));
  // The seed starts every island (it is each one's first incumbent).
  const islandsOf = (node: ProgramNode): Set<number> => (node.parentId === undefined ? new Set(rows.map((r) => r.island)) : new Set([node.island, ...(node.migratedTo ?? [])]));
  for (const id of p.order) {
    const node = p.nodes[id]!;
    for (const island of islandsOf(node)) {
      const row = rows[island];
      if (row) row.size += 1;
    }
  }
  // In evaluation order, so stagnation counts the evaluations after each island's last improvement.
  for (const id of p.evaluated) {
    const node = p.nodes[id]!;
    for (const island of node.parentId === undefined ? islandsOf(node) : [node.island]) {
      const row = rows[island];
      if (!row) continue;
      row.evaluated += 1;
      row.stagnation += 1;
      if (node.correct === true && node.score !== undefined && (row.bestScore === undefined || node.score > row.bestScore)) {
        row.bestId = node.id;
        row.bestScore = node.score;
        row.stagnation = 0;
      }
    }
  }
  // A migrant's score counts on the island it moved to (it was evaluated before it moved).
  for (const m of p.migrations) {
    const node = p.nodes[m.programId];
    const row = rows[m.to];
    if (!row || node?.correct !== true || node.score === undefined) continue;
    if (row.bestScore === undefined || node.score > row.bestScore) {
      row.bestId = node.id;
      row.bestScore = node.score;
    }
  }
  return rows;
}

export type ArchiveSort = 'score' | 'recent';

/** The archive: every correct program, best first (or newest first). */
export function archiveRows(p: ProgramsState, sort: ArchiveSort): ProgramNode[] {
  const rows = p.evaluated.map((id) => p.nodes[id]!).filter((n) => n.correct === true && n.score !== undefined);
  if (sort === 'recent') return rows.reverse();
  // Ties by evaluation order: the one found first ranks first.
  return rows.sort((a, b) => b.score! - a.score! || a.evalIndex! - b.evalIndex!);
}
