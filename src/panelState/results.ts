/**
 * The Results view's table, as the host builds it from a run's journal and the view and the export
 * both read it: one row per dev/test item that was scored, one column per version that was scored on any of them
 * (the baseline first, then the candidates in the order they were proposed), a score per cell.
 * Outputs stay on the host (they travel one cell at a time, or in an export); the filters and the
 * per-version accuracy live here so the table on screen and the exported file agree.
 */
import { meanInterval, tMeanInterval } from '../core/evolve/report';
import type { RunSummaryInfo, ScoreInterval } from '../core/journal/payloadTypes';
import type { Decision } from '../core/gates/record';
import { ANSWER_WORDS } from './answers';
import type { CommitAnswer } from './answers';

export interface ResultsVersion {
  id: string;
  /** The version the run started from. */
  baseline: boolean;
  decision?: Decision;
  /** What became of it once committed (answers.ts): a commit the user rejected is not labelled committed. */
  answer?: CommitAnswer;
}

export interface ResultsItem {
  itemId: string;
  /** Absent for an item the run scored without listing it in `dataset/loaded` (a code search's instances). */
  split?: 'dev' | 'test';
  /** What the item asks, in one line, cut to `ITEM_TEXT_LIMIT` characters (the cell detail has it whole). */
  text: string;
}

export interface ResultsTable {
  runId: string;
  versions: ResultsVersion[];
  items: ResultsItem[];
  /** `scores[item][version]`: null where that version never ran on that item. */
  scores: (number | null)[][];
  /** Every score is 0 or 1: cells read pass/fail and accuracy takes Wilson's interval. */
  passFail: boolean;
}

/** One cell opened: what the model answered, with what the item asked and expected. */
export interface ResultCell {
  runId: string;
  itemId: string;
  versionId: string;
  split?: 'dev' | 'test';
  score?: number;
  /** Absent when the run journaled no output for this cell (a code search, or an older run). */
  output?: string;
  input?: string;
  expected?: string;
  vars?: Record<string, string>;
}

export interface ResultsFilter {
  onlyFailures: boolean;
  /** Only rows where these two versions' scores differ. */
  differ?: [string, string];
  /** Case-insensitive; matched against the item's id and text. */
  search: string;
  /** The versions shown, as columns (the column picker); absent: every version. "Only failures" looks at these. */
  versions?: string[];
}

export const ITEM_TEXT_LIMIT = 400;

/**
 * Whether a run is an Evaluate: it says so, or (journals from before it said so) it allowed no
 * candidates, which is how Evaluate starts one.
 */
export function isEvaluation(info: RunSummaryInfo | undefined): boolean {
  return info?.kind === 'evaluate' || (info?.kind === 'evolve' && info.budget?.candidates === 0);
}

/** A score at or above this counts as a pass (for pass/fail scores: the 1s). */
export const PASS_SCORE = 0.5;

export const isFailure = (score: number | null): boolean => score !== null && score < PASS_SCORE;

export function emptyResultsFilter(): ResultsFilter {
  return { onlyFailures: false, search: '' };
}

/** The indexes of the items the filter keeps, in table order. */
export function filterRows(table: ResultsTable, filter: ResultsFilter): number[] {
  const needle = filter.search.trim().toLowerCase();
  const a = filter.differ ? table.versions.findIndex((v) => v.id === filter.differ![0]) : -1;
  const b = filter.differ ? table.versions.findIndex((v) => v.id === filter.differ![1]) : -1;
  const compare = a >= 0 && b >= 0 && a !== b;
  const shown = shownColumns(table, filter.versions);
  const rows: number[] = [];
  table.items.forEach((item, i) => {
    const scores = table.scores[i]!;
    if (filter.onlyFailures && !shown.some((j) => isFailure(scores[j] ?? null))) return;
    if (compare && (scores[a] === null || scores[b] === null || scores[a] === scores[b])) return;
    if (needle && !item.itemId.toLowerCase().includes(needle) && !item.text.toLowerCase().includes(needle)) return;
    rows.push(i);
  });
  return rows;
}

/** The indexes of the versions a filter shows, in table order (every version when it names none). */
export function shownColumns(table: ResultsTable, versions: readonly string[] | undefined): number[] {
  const all = table.versions.map((_, j) => j);
  return versions === undefined ? all : all.filter((j) => versions.includes(table.versions[j]!.id));
}

/** How many items a version was scored on. */
export function scoredCount(table: ResultsTable, versionIndex: number): number {
  return table.scores.reduce((n, row) => n + (row[versionIndex] === null || row[versionIndex] === undefined ? 0 : 1), 0);
}

/** Columns shown before the user picks any: few enough to fit the panel beside an editor. */
export const DEFAULT_COLUMN_COUNT = 3;

/**
 * The versions shown before the user picks: the baseline, the version committed last that the user
 * did not reject (what the run would leave in the file), and the best other candidate — the one
 * whose 95 % interval has the highest lower end, so a candidate scored on a few lucky items does
 * not pass for the best. Every version when there are no more than DEFAULT_COLUMN_COUNT.
 */
export function defaultResultsColumns(table: ResultsTable): string[] {
  if (table.versions.length <= DEFAULT_COLUMN_COUNT) return table.versions.map((v) => v.id);
  const picked = new Set<string>();
  const baseline = table.versions.find((v) => v.baseline);
  if (baseline) picked.add(baseline.id);
  const committed = table.versions.filter((v) => !v.baseline && v.decision === 'commit' && v.answer !== 'rejected').at(-1);
  if (committed) picked.add(committed.id);
  let best: { id: string; lo: number } | undefined;
  table.versions.forEach((v, j) => {
    if (picked.has(v.id)) return;
    const acc = versionAccuracy(table, j);
    if (acc && (best === undefined || acc.lo > best.lo)) best = { id: v.id, lo: acc.lo };
  });
  if (best) picked.add(best.id);
  return table.versions.filter((v) => picked.has(v.id)).map((v) => v.id);
}

export interface VersionAccuracy extends ScoreInterval {
  /** Items the version was scored on. */
  n: number;
  method: 'wilson' | 't';
}

/**
 * A version's mean score over every item it was scored on (filters do not change it), with a 95 %
 * interval: Wilson's for pass/fail scores, Student's t for graded ones. Undefined when it has none.
 */
export function versionAccuracy(table: ResultsTable, versionIndex: number): VersionAccuracy | undefined {
  const scores: number[] = [];
  for (const row of table.scores) {
    const s = row[versionIndex];
    if (s !== null && s !== undefined) scores.push(s);
  }
  if (scores.length === 0) return undefined;
  return table.passFail ? { ...meanInterval(scores), n: scores.length, method: 'wilson' } : { ...tMeanInterval(scores), n: scores.length, method: 't' };
}

/** The sentence a tooltip says about how an accuracy's interval was computed. */
export function intervalMethodText(method: VersionAccuracy['method']): string {
  return method === 'wilson' ? 'Mean of pass (1) / fail (0) over the items it ran on, with a 95 % Wilson score interval.' : "Mean score over the items it ran on, with a 95 % Student's t interval.";
}

/** The label a column header shows for a version: a suggestion the user rejected is never "(committed)". */
export function versionLabel(v: ResultsVersion): string {
  if (v.baseline) return `${v.id} (baseline)`;
  if (v.answer === 'rejected' || v.answer === 'accepted' || v.answer === 'autopilot' || v.answer === 'undone') return `${v.id} (${ANSWER_WORDS[v.answer]})`;
  return v.decision === 'commit' ? `${v.id} (committed)` : v.decision === 'reject' ? `${v.id} (rejected)` : v.id;
}

/** A cell's text: pass/fail for pass/fail tables, else the score with up to three decimals. */
export function cellText(score: number | null, passFail: boolean): string {
  if (score === null) return '';
  if (passFail) return score >= PASS_SCORE ? 'pass' : 'fail';
  return String(Math.round(score * 1000) / 1000);
}
