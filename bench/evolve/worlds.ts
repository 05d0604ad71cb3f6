/**
 * `npm run bench:evolve -- --worlds [--runs N] [--worlds-only real25,none] [--dev 150 --feedback 150]`:
 * Ratchet's evolve loop against GEPA's acceptance rule in the simulated worlds of world.ts, the
 * same items, splits, proposals and noise per seed for every arm, at budgets of 500, 1,000 and
 * 2,000 agent calls. Prints the four-column table of bench/README.md, a detailed table per world,
 * and the must-show checks. In-process (simLlm.ts): no HTTP, no journal.
 */
import type { Schedule } from '../../src/core/gates/schedules';
import { gepaRun } from './gepaRule';
import type { ArmRun } from './ratchetArm';
import { ratchetRun } from './ratchetArm';
import type { WorldKind } from './world';
import { BASE_QUALITY, WORLD_KINDS, WORLD_TITLES, makeWorld } from './world';

const BUDGETS = [500, 1000, 2000] as const;

interface Arm {
  name: string;
  run(kind: WorldKind, seed: number, sizes: { feedback: number; dev: number }): Promise<ArmRun> | ArmRun;
}

const ratchet =
  (schedule: Schedule): Arm['run'] =>
  (kind, seed, sizes) =>
    ratchetRun(makeWorld(kind, seed, sizes), schedule, BUDGETS);

export const ARMS: readonly Arm[] = [
  { name: 'GEPA rule (3-item minibatch, strict >, Pareto parents)', run: (kind, seed, sizes) => gepaRun(makeWorld(kind, seed, sizes), BUDGETS) },
  { name: 'Ratchet default (fwer-screened)', run: ratchet('fwer-screened') },
  { name: 'Ratchet per-candidate', run: ratchet('per-candidate') },
  { name: 'Ratchet fwer-spend (T = 30)', run: ratchet('fwer-spend') },
];

interface Cell {
  runs: ArmRun[];
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const se = (xs: readonly number[]) => Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1) / xs.length);
const share = (runs: readonly ArmRun[], f: (r: ArmRun) => boolean) => runs.filter(f).length / runs.length;
const pm = (p: number, n: number, digits = 3) => `${p.toFixed(digits)} ± ${Math.sqrt((p * (1 - p)) / n).toFixed(digits)}`;

/** Ends on a prompt that differs from the start and is not truly better. */
const notBetter = (b: number) => (r: ArmRun) => r.changedAt.get(b)! && r.qualityAt.get(b)! <= BASE_QUALITY + 1e-12;

function medianFirstAdmit(runs: readonly ArmRun[]): string {
  const xs = runs.map((r) => r.firstRealAt ?? Infinity).sort((a, b) => a - b);
  const m = xs.length % 2 === 1 ? xs[(xs.length - 1) / 2]! : (xs[xs.length / 2 - 1]! + xs[xs.length / 2]!) / 2;
  return Number.isFinite(m) ? String(Math.round(m)) : `— (${share(runs, (r) => r.firstRealAt !== undefined).toFixed(2)} ever)`;
}

function medianValue(runs: readonly ArmRun[]): number {
  const xs = runs.map((r) => r.firstRealAt ?? Infinity).sort((a, b) => a - b);
  return xs.length % 2 === 1 ? xs[(xs.length - 1) / 2]! : (xs[xs.length / 2 - 1]! + xs[xs.length / 2]!) / 2;
}

function nonImprovingAdmitted(runs: readonly ArmRun[]): string {
  const proposed = runs.reduce((s, r) => s + r.nonImproving.proposed, 0);
  const admitted = runs.reduce((s, r) => s + r.nonImproving.admitted, 0);
  return `${(admitted / proposed).toFixed(3)} (${admitted}/${proposed})`;
}

export async function worldsMain(args: readonly string[]): Promise<void> {
  const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const runs = Number(flag('--runs') ?? 300);
  const sizes = { feedback: Number(flag('--feedback') ?? 150), dev: Number(flag('--dev') ?? 150) };
  const kinds = (flag('--worlds-only')?.split(',') as WorldKind[] | undefined) ?? [...WORLD_KINDS];
  const started = Date.now();
  const cells = new Map<string, Cell>();
  for (const kind of kinds) {
    for (const arm of ARMS) {
      const cell: Cell = { runs: [] };
      for (let seed = 1; seed <= runs; seed++) cell.runs.push(await arm.run(kind, seed, sizes));
      cells.set(`${kind}|${arm.name}`, cell);
      process.stderr.write(`${kind} · ${arm.name}: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    }
  }
  const cell = (kind: WorldKind, arm: Arm) => cells.get(`${kind}|${arm.name}`)?.runs;

  console.log(`\nbench/evolve --worlds — ${runs} runs per arm and world; GSM8K problems, feedback ${sizes.feedback} / dev ${sizes.dev} (GEPA: trainset / valset); budgets in agent calls\n`);
  if (kinds.includes('none') && kinds.includes('real25')) {
    console.log(
      '| arm | non-improving candidates admitted (no-gain world) | runs ending on a prompt not truly better, no-gain world: 500 / 1,000 / 2,000 | mean true quality, +0.25 world: 500 / 1,000 / 2,000 | agent calls to first admit the real edit (+0.25, median) |',
    );
    console.log('|---|---|---|---|---|');
    for (const arm of ARMS) {
      const none = cell('none', arm)!;
      const real = cell('real25', arm)!;
      const bad = BUDGETS.map((b) => share(none, notBetter(b)).toFixed(3)).join(' / ');
      const q = BUDGETS.map((b) => mean(real.map((r) => r.qualityAt.get(b)!)).toFixed(3)).join(' / ');
      console.log(`| ${arm.name} | ${nonImprovingAdmitted(none)} | ${bad} | ${q} | ${medianFirstAdmit(real)} |`);
    }
  }
  for (const kind of kinds) {
    console.log(`\n#### ${kind}: ${WORLD_TITLES[kind]}\n`);
    console.log('| arm | budget | mean true quality | ends on a prompt not truly better | holds the real sentence | non-improving admitted | first admit of the real edit (median calls) | proposals / run |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const arm of ARMS) {
      const rs = cell(kind, arm)!;
      for (const b of BUDGETS) {
        const q = rs.map((r) => r.qualityAt.get(b)!);
        console.log(
          `| ${arm.name} | ${b} | ${mean(q).toFixed(3)} ± ${se(q).toFixed(3)} | ${pm(share(rs, notBetter(b)), rs.length)} | ${share(rs, (r) => r.realAt.get(b)!).toFixed(3)} | ${b === 2000 ? nonImprovingAdmitted(rs) : ''} | ${b === 2000 ? medianFirstAdmit(rs) : ''} | ${b === 2000 ? mean(rs.map((r) => r.proposals)).toFixed(1) : ''} |`,
        );
      }
    }
  }
  mustShow(kinds, (kind, i) => cell(kind, ARMS[i]!), runs);
  console.log(`\nWall time ${((Date.now() - started) / 1000).toFixed(0)} s.`);
}

/** The checks of issue #28, from the tables above. */
function mustShow(kinds: readonly WorldKind[], cell: (kind: WorldKind, arm: number) => ArmRun[] | undefined, runs: number): void {
  const [GEPA, DEFAULT, PER] = [0, 1, 2];
  const lines: string[] = [];
  const check = (ok: boolean, text: string) => lines.push(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
  const none = kinds.includes('none') ? cell('none', DEFAULT) : undefined;
  if (none) {
    for (const b of BUDGETS) {
      const p = share(none, notBetter(b));
      check(p <= 0.05, `no-gain world, default, ${b} calls: runs ending on a prompt not truly better ${pm(p, runs)} ≤ 0.05`);
    }
  }
  if (kinds.includes('real25')) {
    const d = cell('real25', DEFAULT)!;
    const g = cell('real25', GEPA)!;
    const p = cell('real25', PER)!;
    check(medianValue(d) <= medianValue(g), `+0.25 world: median agent calls to first admit the real edit, default ${medianFirstAdmit(d)} ≤ GEPA rule ${medianFirstAdmit(g)}`);
    for (const b of [500, 1000]) {
      const qd = d.map((r) => r.qualityAt.get(b)!);
      const qg = g.map((r) => r.qualityAt.get(b)!);
      check(mean(qd) >= mean(qg), `+0.25 world, ${b} calls: mean true quality, default ${mean(qd).toFixed(3)} ± ${se(qd).toFixed(3)} ≥ GEPA rule ${mean(qg).toFixed(3)} ± ${se(qg).toFixed(3)}`);
    }
    const held = share(d, (r) => r.realAt.get(2000)!);
    check(held >= 0.95, `+0.25 world, 2,000 calls: the default holds the real edit in ${pm(held, runs)} of runs ≥ 0.95`);
    const heldPer = share(p, (r) => r.realAt.get(2000)!);
    check(held >= heldPer, `+0.25 world, 2,000 calls: the default finds the real edit at least as often as per-candidate PACE+ (${held.toFixed(3)} vs ${heldPer.toFixed(3)})`);
  }
  if (kinds.includes('real10')) {
    const d = cell('real10', DEFAULT)!;
    const p = cell('real10', PER)!;
    const g = cell('real10', GEPA)!;
    lines.push(
      `note  +0.10 world, 2,000 calls (reported, no bar): the real edit held by the default in ${share(d, (r) => r.realAt.get(2000)!).toFixed(3)}, per-candidate ${share(p, (r) => r.realAt.get(2000)!).toFixed(3)}, GEPA rule ${share(g, (r) => r.realAt.get(2000)!).toFixed(3)} of runs`,
    );
  }
  console.log(`\n#### Must-show checks\n\n${lines.join('\n')}`);
}
