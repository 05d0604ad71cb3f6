/**
 * Metrics, Monte-Carlo standard errors and the printed tables of bench:gates.
 */
import type { Cell } from './cells';
import type { BenchGate, Tally } from './sim';
import { GATE_TITLES } from './sim';

export interface CellResult {
  cell: Cell;
  tallies: Partial<Record<BenchGate, Tally>>;
  /** PACE+ with vs without the futility stop, same seeds: tests compared and decisions that differ. */
  futilityIdentity?: { tests: number; mismatches: number };
}

export interface Metrics {
  commits: number;
  commitsSe: number;
  pctFalse: number;
  pctHarmful: number;
  fcrNonBeneficial: number;
  fcrNonBeneficialSe: number;
  fcrNeutral: number;
  fcrNeutralSe: number;
  fdr: number;
  power: number | undefined;
  powerSe: number;
  deltaAccPts: number;
  deltaAccSe: number;
  candCallsPerRun: number;
  allCallsPerRun: number;
  /** All calls relative to greedy's all calls in the same cell (undefined without greedy). */
  costVsGreedy: number | undefined;
  costSe: number;
  futileShare: number;
}

const ratio = (a: number, b: number): number => (b === 0 ? 0 : a / b);
const binomSe = (p: number, n: number): number => (n === 0 ? 0 : Math.sqrt((p * (1 - p)) / n));
const meanSe = (sum: number, sumSq: number, n: number): number => (n < 2 ? 0 : Math.sqrt(Math.max(0, sumSq / n - (sum / n) ** 2) / n));

export function metrics(t: Tally, greedy: Tally | undefined): Metrics {
  const fcrNb = ratio(t.nonBeneficialCommitted, t.nonBeneficialTested);
  const fcrN = ratio(t.neutralCommitted, t.neutralTested);
  const power = t.realTested > 0 ? t.realCommitted / t.realTested : undefined;
  const greedyCalls = greedy ? (greedy.candCalls + greedy.incCalls) / greedy.runs : undefined;
  const calls = (t.candCalls + t.incCalls) / t.runs;
  return {
    commits: t.commits / t.runs,
    commitsSe: meanSe(t.commits, t.commitsSq, t.runs),
    pctFalse: 100 * ratio(t.falseCommits, t.commits),
    pctHarmful: 100 * ratio(t.harmfulCommits, t.commits),
    fcrNonBeneficial: fcrNb,
    fcrNonBeneficialSe: binomSe(fcrNb, t.nonBeneficialTested),
    fcrNeutral: fcrN,
    fcrNeutralSe: binomSe(fcrN, t.neutralTested),
    fdr: t.fdp / t.runs,
    power,
    powerSe: power === undefined ? 0 : binomSe(power, t.realTested),
    deltaAccPts: (100 * t.deltaAcc) / t.runs,
    deltaAccSe: 100 * meanSe(t.deltaAcc, t.deltaAccSq, t.runs),
    candCallsPerRun: t.candCalls / t.runs,
    allCallsPerRun: calls,
    costVsGreedy: greedyCalls === undefined ? undefined : calls / greedyCalls,
    costSe: greedyCalls === undefined ? 0 : meanSe(t.candCalls + t.incCalls, t.callsSq, t.runs) / greedyCalls,
    futileShare: ratio(t.futile, t.runs * 30),
  };
}

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? ':' : '-') + '-'.repeat(w) + (i === 0 ? '-' : ':')).join('|')}|`, ...rows.map(line)].join('\n');
}

export const f = (x: number | undefined, digits = 2): string => (x === undefined ? '—' : x.toFixed(digits));
const signed = (x: number, digits = 1): string => (x >= 0 ? '+' : '−') + Math.abs(x).toFixed(digits);

/** The per-gate table of one cell. */
export function gateTable(r: CellResult): string {
  const greedy = r.tallies.greedy;
  const rows = r.cell.gates.map((g) => {
    const m = metrics(r.tallies[g]!, greedy);
    return [
      GATE_TITLES[g],
      f(m.commits),
      f(m.pctFalse, 0),
      f(m.pctHarmful, 0),
      f(m.fcrNonBeneficial, 3),
      f(m.fcrNeutral, 3),
      f(m.fdr, 3),
      f(m.power),
      signed(m.deltaAccPts),
      f(m.candCallsPerRun, 0),
      f(m.allCallsPerRun, 0),
      f(m.costVsGreedy),
    ];
  });
  return table(['gate', 'commits/run', '% false', '% harmful', 'FCR non-benef.', 'FCR neutral', 'FDR', 'power', 'Δ true acc (pts)', 'cand calls/run', 'all calls/run', 'all × greedy'], rows);
}

/** |ours − ref| within 3 combined standard errors (ours and the reference's, same size) plus the reference's rounding. */
export function agrees(ours: number, ref: number, se: number, refDigits: number): boolean {
  return Math.abs(ours - ref) <= 3 * Math.SQRT2 * se + 0.5 * 10 ** -refDigits + 1e-12;
}

export function signedPts(x: number): string {
  return signed(x);
}
