/**
 * bench:gates — the world model of GATES.md section 8 run through the product's own gate code
 * (src/core/gates), printing per-gate tables, the comparison with GATES.md's reference figures and
 * PASS/FAIL for every bar of section 8.1.
 *
 *   npm run bench:gates [-- --runs N] [--grid-runs N] [--quick] [--workers 1|2]
 *
 * Every run is seeded by hashSeed('bench:gates', cell, run), so results do not depend on how cells
 * are spread over worker threads. Exit status 1 if any bar fails.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { Cell } from './cells';
import type { BenchGate, Tally } from './sim';
import type { CellResult } from './report';
import { hashSeed } from '../../src/core/random';
import { paceConfig, runPaceOnOutcomes } from '../../src/core/gates/pace';
import { minConsecutiveWins, preflight } from '../../src/core/gates/preflight';
import { EMPTY_LEDGER } from '../../src/core/gates/thresholds';
import { REFERENCE, REFERENCE_POWER, buildCells } from './cells';
import { emptyTally, simulateRun, GATE_TITLES } from './sim';
import { planRun } from './world';
import { agrees, f, gateTable, metrics, signedPts, table } from './report';

interface Args {
  runs: number;
  gridRuns: number;
  workers: number;
  quick: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { runs: 2000, gridRuns: 2000, workers: 2, quick: false };
  let gridSet = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const num = (): number => {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 1) throw new Error(`${a} needs a positive integer`);
      return v;
    };
    if (a === '--runs') args.runs = num();
    else if (a === '--grid-runs') {
      args.gridRuns = num();
      gridSet = true;
    } else if (a === '--workers')
      args.workers = Math.min(2, num()); // the machine is shared: 2 at most
    else if (a === '--quick') args.quick = true;
    else throw new Error(`unknown argument ${a} (use --runs N, --grid-runs N, --quick, --workers 1|2)`);
  }
  if (args.quick) {
    args.runs = Math.min(args.runs, 300);
    if (!gridSet) args.gridRuns = 100;
  } else if (!gridSet) args.gridRuns = args.runs;
  return args;
}

/** Runs every run of one cell through each of its gates. */
function runCell(cell: Cell): CellResult {
  const tallies: Partial<Record<BenchGate, Tally>> = {};
  for (const g of cell.gates) tallies[g] = emptyTally();
  const identity = cell.gates.includes('pace+ no-futility') ? { tests: 0, mismatches: 0 } : undefined;
  for (let r = 0; r < cell.runs; r++) {
    const plan = planRun(cell.cfg, hashSeed('bench:gates', cell.key, r));
    const decisions = new Map<BenchGate, string>();
    for (const g of cell.gates) decisions.set(g, simulateRun(plan, g, tallies[g]!).join(','));
    if (identity) {
      identity.tests += cell.cfg.T;
      if (decisions.get('pace+') !== decisions.get('pace+ no-futility')) identity.mismatches++;
    }
  }
  return { cell, tallies, ...(identity ? { futilityIdentity: identity } : {}) };
}

async function runAll(cells: Cell[], workers: number): Promise<CellResult[]> {
  if (workers <= 1) return cells.map(runCell);
  const results: CellResult[] = new Array(cells.length);
  let next = 0;
  const url = new URL(import.meta.url);
  await Promise.all(
    Array.from({ length: workers }, () => {
      const worker = new Worker(url, { workerData: { cells } });
      return new Promise<void>((resolve, reject) => {
        const feed = (): void => {
          if (next >= cells.length) {
            void worker.terminate().then(() => resolve());
            return;
          }
          worker.postMessage(next++);
        };
        worker.on('message', (msg: { index: number; result: CellResult }) => {
          results[msg.index] = msg.result;
          process.stderr.write(`\rbench:gates: ${results.filter(Boolean).length}/${cells.length} cells`);
          feed();
        });
        worker.on('error', reject);
        feed();
      });
    }),
  );
  process.stderr.write('\n');
  return results;
}

if (!isMainThread) {
  const { cells } = workerData as { cells: Cell[] };
  parentPort!.on('message', (index: number) => parentPort!.postMessage({ index, result: runCell(cells[index]!) }));
} else {
  await main();
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const cells = buildCells(args.runs, args.gridRuns);
  const results = await runAll(cells, args.workers);
  const byKey = new Map(results.map((r) => [r.cell.key, r]));
  const out: string[] = [];
  const say = (s = ''): void => void out.push(s);

  say(`# bench:gates — GATES.md section 8 through src/core/gates`);
  say();
  say(`Runs per configuration: ${args.runs} (headline and power cells), ${args.gridRuns} (each of the 162 validity-grid cells)${args.gridRuns < 2000 || args.runs < 2000 ? ' — FEWER than the 2,000 the bars call for' : ''}.`);
  say(`T = 30 candidates a run; churn ρ = 0.2; test set 1,000 items; seeds hashSeed('bench:gates', cell, run); ${args.workers} worker thread(s).`);

  for (const section of ['headline', 'power'] as const) {
    say();
    say(section === 'headline' ? '## Headline configurations (all gates, plus PACE+ ablations)' : '## Power configurations (controlled regime, all gates)');
    for (const r of results.filter((x) => x.cell.section === section)) {
      say();
      say(`### ${r.cell.title} — ${r.cell.runs} runs`);
      say();
      say(gateTable(r));
    }
  }

  say();
  say('## Comparison with GATES.md reference figures');
  say();
  say('Agreement: |ours − reference| ≤ 3·√2·SE (both simulations have Monte-Carlo error) + half a unit of the reference’s last digit.');
  say();
  const cmpRows: string[][] = [];
  const cmp = (cellKey: string, gate: BenchGate, what: string, ours: number, se: number, ref: number, digits: number): void => {
    const ok = agrees(ours, ref, se, digits);
    cmpRows.push([byKey.get(cellKey)!.cell.title.split(',').slice(0, 2).join(','), GATE_TITLES[gate], what, ours.toFixed(digits), `±${se.toFixed(digits + 1)}`, ref.toFixed(digits), ok ? 'agrees' : 'DIFFERS']);
  };
  for (const ref of REFERENCE) {
    const r = byKey.get(ref.cell)!;
    const m = metrics(r.tallies[ref.gate]!, r.tallies.greedy);
    cmp(ref.cell, ref.gate, 'commits/run', m.commits, m.commitsSe, ref.commits, 2);
    cmp(ref.cell, ref.gate, 'FCR / neutral', m.fcrNeutral, m.fcrNeutralSe, ref.fcrNeutral, 3);
    if (ref.power !== undefined) cmp(ref.cell, ref.gate, 'power', m.power!, m.powerSe, ref.power, 2);
    cmp(ref.cell, ref.gate, 'Δ true acc (pts)', m.deltaAccPts, m.deltaAccSe, ref.deltaAccPts, 1);
    cmp(ref.cell, ref.gate, 'all calls × greedy', m.costVsGreedy!, m.costSe, ref.costVsGreedy, 2);
  }
  for (const ref of REFERENCE_POWER) {
    const m = metrics(byKey.get(ref.cell)!.tallies[ref.gate]!, undefined);
    cmp(ref.cell, ref.gate, `power (GATES.md ${ref.source})`, m.power!, m.powerSe, ref.power, 2);
  }
  {
    const stoch = byKey.get('stochastic-n40-a0.05-acc0.6')!;
    const withCache = metrics(stoch.tallies['pace+']!, stoch.tallies.greedy);
    const noCache = metrics(stoch.tallies['pace+ no-cache']!, stoch.tallies.greedy);
    cmp(stoch.cell.key, 'pace+', 'FCR / non-benef. (4.3)', withCache.fcrNonBeneficial, withCache.fcrNonBeneficialSe, 0.012, 3);
    cmp(stoch.cell.key, 'pace+ no-cache', 'FCR / non-benef. (4.3)', noCache.fcrNonBeneficial, noCache.fcrNonBeneficialSe, 0.022, 3);
    const ctrl = byKey.get('controlled-n40-a0.05-acc0.6-d0.30')!;
    const cacheOnly = metrics(ctrl.tallies['pace+ no-futility']!, ctrl.tallies.greedy);
    cmp(ctrl.cell.key, 'pace+ no-futility', 'all calls × greedy (4.3)', cacheOnly.costVsGreedy!, cacheOnly.costSe, 1.0, 2);
  }
  say(table(['regime', 'gate', 'metric', 'ours', 'SE', 'reference', ''], cmpRows));

  say();
  say('## Futility stop (GATES.md 4.2): same seeds with and without it');
  say();
  const futRows: string[][] = [];
  let futMismatch = 0;
  for (const r of results.filter((x) => x.futilityIdentity)) {
    const a = r.tallies['pace+']!;
    const b = r.tallies['pace+ no-futility']!;
    futMismatch += r.futilityIdentity!.mismatches;
    futRows.push([
      r.cell.title.split(',').slice(0, 2).join(','),
      String(r.futilityIdentity!.tests),
      String(r.futilityIdentity!.mismatches),
      `${f(100 * (1 - a.candCalls / b.candCalls), 1)} %`,
      `${f(100 * (1 - (a.candCalls + a.incCalls) / (b.candCalls + b.incCalls)), 1)} %`,
    ]);
  }
  say(table(['regime', 'tests', 'runs with any differing decision', 'candidate calls saved', 'all calls saved'], futRows));

  say();
  say(`## Validity grid: n × α × acc × ν × regime, ${args.gridRuns} runs per cell`);
  say();
  say('PACE+ false-commit rate per non-beneficial candidate (FCR) and PACE+ e-LOND FDR, each divided by α (bar: ≤ 1). Controlled cells use the +0.30 real edit (capped at 1 − acc).');
  say();
  const gridRows: string[][] = [];
  let maxFcr = { ratio: 0, key: '' };
  let maxFdr = { ratio: 0, key: '' };
  for (const regime of ['controlled', 'stochastic']) {
    for (const nu of [0, 0.25, 0.5]) {
      for (const acc of [0.3, 0.6, 0.8]) {
        for (const n of [20, 40, 80]) {
          const row = [`${regime} ν=${nu} acc=${acc} n=${n}`];
          const fdrs: string[] = [];
          for (const alpha of [0.01, 0.05, 0.1]) {
            const key = `grid-${regime}-nu${nu}-acc${acc}-n${n}-a${alpha}`;
            const r = byKey.get(key)!;
            const fcr = metrics(r.tallies['pace+']!, undefined).fcrNonBeneficial / alpha;
            const fdr = metrics(r.tallies['pace+ e-lond']!, undefined).fdr / alpha;
            if (fcr > maxFcr.ratio) maxFcr = { ratio: fcr, key };
            if (fdr > maxFdr.ratio) maxFdr = { ratio: fdr, key };
            row.push(f(fcr));
            fdrs.push(f(fdr));
          }
          gridRows.push([...row, ...fdrs]);
        }
      }
    }
  }
  say(table(['cell', 'FCR/α α=0.01', 'FCR/α α=0.05', 'FCR/α α=0.1', 'FDR/α α=0.01', 'FDR/α α=0.05', 'FDR/α α=0.1'], gridRows));

  // ---- the bars of GATES.md 8.1 ----
  const bars: [boolean, string][] = [];
  const bar = (ok: boolean, text: string): void => void bars.push([ok, text]);
  bar(maxFcr.ratio <= 1, `per-candidate validity: PACE+ FCR ≤ α in all 162 grid cells — max FCR = ${f(maxFcr.ratio)} α (${maxFcr.key}; reference max 0.34 α)`);
  bar(maxFdr.ratio <= 1, `run-level validity: e-LOND FDR ≤ α in all 162 grid cells — max FDR = ${f(maxFdr.ratio)} α (${maxFdr.key}; reference max 0.38 α)`);
  const power = (key: string): number => metrics(byKey.get(key)!.tallies['pace+']!, undefined).power!;
  const pw = (key: string, min: number, label: string, ref: number): void => {
    const p = power(key);
    bar(p >= min, `power, ${label}: ${f(p, 3)} ≥ ${min} (reference ${ref})`);
  };
  pw('controlled-n40-a0.05-acc0.6-d0.30', 0.93, 'large edit, n = 40, +0.30', 0.95);
  pw('controlled-n80-a0.05-acc0.6-d0.20', 0.91, 'medium edit, n = 80, +0.20', 0.94);
  pw('controlled-n80-a0.05-acc0.6-d0.10', 0.42, 'small edit, n = 80, +0.10', 0.45);
  pw('controlled-n40-a0.05-acc0.6-d0.10', 0.17, 'small edit, small n = 40, +0.10', 0.19);
  {
    const r = byKey.get('stochastic-n40-a0.05-acc0.6')!;
    const m = metrics(r.tallies['pace+']!, r.tallies.greedy);
    bar(m.commits <= 0.4 && m.deltaAccPts >= -0.3, `false commits, stochastic: ${f(m.commits)} commits/run ≤ 0.40 and Δacc ${signedPts(m.deltaAccPts)} ≥ −0.3 pts (reference 0.35, −0.1)`);
    bar(m.costVsGreedy! <= 0.7, `cost, stochastic n = 40: all calls ${f(m.costVsGreedy, 3)} × greedy ≤ 0.70 (reference 0.68)`);
  }
  {
    const r = byKey.get('controlled-n40-a0.05-acc0.6-d0.10')!;
    const m = metrics(r.tallies['pace+']!, r.tallies.greedy);
    bar(m.costVsGreedy! <= 0.82, `cost, controlled n = 40, +0.10: all calls ${f(m.costVsGreedy, 3)} × greedy ≤ 0.82 (reference 0.80)`);
  }
  {
    const cfg = paceConfig('pace+', { alpha: 0.05 });
    const wins = (k: number) => Array.from({ length: k }, () => ({ incumbent: 0, candidate: 1 }));
    const ties = (k: number) => Array.from({ length: k }, () => ({ incumbent: 1, candidate: 1 }));
    const six = runPaceOnOutcomes(cfg, EMPTY_LEDGER, [...wins(6), ...ties(34)]).summary.verdict;
    const five = runPaceOnOutcomes(cfg, EMPTY_LEDGER, [...wins(5), ...ties(35)]).summary.verdict;
    const minWins = minConsecutiveWins(cfg);
    const fiveInfeasible = !preflight(cfg, EMPTY_LEDGER, 5).feasible; // B_0(5) < 20: five wins cannot reach ×20 in any arrangement
    bar(
      six.decision === 'commit' && six.stoppedAt === 6 && five.decision === 'reject' && fiveInfeasible && minWins === 6,
      `minimum evidence, α = 0.05, default grid: six straight wins commit (item ${six.stoppedAt}), five never (best reachable ×${f(Math.exp(paceBest5()))} < ×20); min wins ${minWins}, paper PACE ${minConsecutiveWins(paceConfig('pace'))}`,
    );
  }
  bar(futMismatch === 0, `futility stop never changes a decision: ${futMismatch} differing runs in the headline cells`);

  say();
  say('## Bars of GATES.md 8.1');
  say();
  for (const [ok, text] of bars) say(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
  say();
  say(`Wall time ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  process.stdout.write(out.join('\n') + '\n');
  if (bars.some(([ok]) => !ok)) process.exitCode = 1;
}

/** ln of the grid's wealth after five wins: the most five wins can ever give. */
function paceBest5(): number {
  return runPaceOnOutcomes(
    paceConfig('pace+', { futility: false }),
    EMPTY_LEDGER,
    Array.from({ length: 5 }, () => ({ incumbent: 0, candidate: 1 })),
  ).summary.logWealth;
}
