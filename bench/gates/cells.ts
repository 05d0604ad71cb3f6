/**
 * What the benchmark runs (GATES.md 8): the headline cells with every gate, the power cells, the
 * validity grid, and the reference figures the results are compared with.
 */
import type { BenchGate } from './sim';
import type { Regime, WorldConfig } from './world';
import { ABLATIONS, BENCH_GATES } from './sim';
import { regimeConfig } from './world';

export interface Cell {
  key: string;
  title: string;
  section: 'headline' | 'power' | 'grid';
  cfg: WorldConfig;
  gates: readonly BenchGate[];
  runs: number;
}

const GRID_GATES: readonly BenchGate[] = ['pace+', 'pace+ e-lond'];

export function buildCells(runs: number, gridRuns: number): Cell[] {
  const cells: Cell[] = [
    {
      key: 'controlled-n40-a0.05-acc0.6-d0.30',
      title: 'controlled, real +0.30, n = 40, α = 0.05, acc = 0.6',
      section: 'headline',
      cfg: regimeConfig('controlled', { realDelta: 0.3 }),
      gates: [...BENCH_GATES, ...ABLATIONS],
      runs,
    },
    {
      key: 'stochastic-n40-a0.05-acc0.6',
      title: 'stochastic, no real edit, ν = 0.5, n = 40, α = 0.05, acc = 0.6',
      section: 'headline',
      cfg: regimeConfig('stochastic'),
      gates: [...BENCH_GATES, ...ABLATIONS],
      runs,
    },
  ];
  for (const [n, d] of [
    [40, 0.1],
    [80, 0.1],
    [80, 0.2],
    [80, 0.3],
  ] as const) {
    cells.push({
      key: `controlled-n${n}-a0.05-acc0.6-d${d.toFixed(2)}`,
      title: `controlled, real +${d.toFixed(2)}, n = ${n}, α = 0.05, acc = 0.6`,
      section: 'power',
      cfg: regimeConfig('controlled', { n, realDelta: d }),
      gates: BENCH_GATES,
      runs,
    });
  }
  for (const regime of ['controlled', 'stochastic'] as Regime[]) {
    for (const nu of [0, 0.25, 0.5]) {
      for (const acc of [0.3, 0.6, 0.8]) {
        for (const n of [20, 40, 80]) {
          for (const alpha of [0.01, 0.05, 0.1]) {
            cells.push({
              key: `grid-${regime}-nu${nu}-acc${acc}-n${n}-a${alpha}`,
              title: `${regime} ν=${nu} acc=${acc} n=${n} α=${alpha}`,
              section: 'grid',
              cfg: regimeConfig(regime, { nu, acc, n, alpha }),
              gates: GRID_GATES,
              runs: gridRuns,
            });
          }
        }
      }
    }
  }
  return cells;
}

/** GATES.md's reference table (n = 40, α = 0.05, accuracy 0.6, T = 30). */
export interface ReferenceRow {
  cell: string;
  gate: BenchGate;
  commits: number;
  fcrNeutral: number;
  power: number | undefined;
  deltaAccPts: number;
  costVsGreedy: number;
}

export const REFERENCE: ReferenceRow[] = [
  { cell: 'controlled-n40-a0.05-acc0.6-d0.30', gate: 'greedy', commits: 5.57, fcrNeutral: 0.195, power: 1.0, deltaAccPts: 29.4, costVsGreedy: 1.0 },
  { cell: 'controlled-n40-a0.05-acc0.6-d0.30', gate: 'pace', commits: 0.91, fcrNeutral: 0.0, power: 0.91, deltaAccPts: 27.2, costVsGreedy: 1.91 },
  { cell: 'controlled-n40-a0.05-acc0.6-d0.30', gate: 'pace+', commits: 0.98, fcrNeutral: 0.001, power: 0.95, deltaAccPts: 28.4, costVsGreedy: 0.81 },
  { cell: 'stochastic-n40-a0.05-acc0.6', gate: 'greedy-re', commits: 11.87, fcrNeutral: 0.433, power: undefined, deltaAccPts: -7.3, costVsGreedy: 1.97 },
  { cell: 'stochastic-n40-a0.05-acc0.6', gate: 'greedy', commits: 2.42, fcrNeutral: 0.092, power: undefined, deltaAccPts: -1.0, costVsGreedy: 1.0 },
  { cell: 'stochastic-n40-a0.05-acc0.6', gate: 'pace+', commits: 0.35, fcrNeutral: 0.014, power: undefined, deltaAccPts: -0.1, costVsGreedy: 0.68 },
];

/** Other single figures quoted in GATES.md (power of PACE+ and of e-LOND mode, 4.5 and 8.1). */
export const REFERENCE_POWER: { cell: string; gate: BenchGate; power: number; source: string }[] = [
  { cell: 'controlled-n40-a0.05-acc0.6-d0.30', gate: 'pace+ e-lond', power: 0.39, source: '4.5' },
  { cell: 'controlled-n80-a0.05-acc0.6-d0.30', gate: 'pace+ e-lond', power: 0.98, source: '4.5' },
  { cell: 'controlled-n80-a0.05-acc0.6-d0.20', gate: 'pace+ e-lond', power: 0.59, source: '4.5' },
  { cell: 'controlled-n80-a0.05-acc0.6-d0.10', gate: 'pace+ e-lond', power: 0.06, source: '4.5' },
  { cell: 'controlled-n80-a0.05-acc0.6-d0.20', gate: 'pace+', power: 0.94, source: '8.1' },
  { cell: 'controlled-n80-a0.05-acc0.6-d0.10', gate: 'pace+', power: 0.45, source: '8.1' },
  { cell: 'controlled-n40-a0.05-acc0.6-d0.10', gate: 'pace+', power: 0.19, source: '8.1' },
];
