/**
 * `npm run bench:evolve -- --ablation [--runs N]`: which parts of the run-level default earn their
 * place, measured one at a time in the worlds of world.ts. A gate-level loop, lighter than the
 * product's (the parent is always the incumbent, one call per item, no batches), built from the
 * product's own pieces: the screen (core/gates/screen.ts), the e-process and its floor
 * (core/gates/pace.ts) and thresholds; each variant changes one of them. Valid variants only: each
 * keeps P(any false commit) ≤ α (docs/gates.md says why), so what differs is cost and power.
 */
import { paceConfig, startPaceTest } from '../../src/core/gates/pace';
import type { PaceConfig } from '../../src/core/gates/pace';
import { DEFAULT_GRID } from '../../src/core/gates/eprocess';
import { SCREEN, Screen, dropBar, promoteBar } from '../../src/core/gates/screen';
import { screenedGamma } from '../../src/core/gates/schedules';
import { SeededRandom, seededPermutation } from '../../src/core/random';
import type { Sentence, World, WorldKind } from './world';
import { BASE_QUALITY, evaluationDraw, hasReal, makeWorld, promptKey, proposalKind, successProbability, trueQuality } from './world';

const BUDGETS = [500, 1000, 2000] as const;
const ALPHA = 0.05;

interface Variant {
  name: string;
  /** Run-level thresholds over the dev-set tests (j = 1, 2, …), or 1/α per candidate. */
  gamma: ((j: number) => number) | 'per-candidate';
  screen: boolean;
  /** Promotion bar (fixed for the whole run) and length of the screen, and whether its drop bar stays at −2 instead of rising. */
  promoteAt?: number;
  maxItems?: number;
  levelDropBar?: boolean;
  floor: number | undefined;
  /** Mixture weights fitted to the run's earlier dev-set tests (the bet "fitted to the effects seen"). */
  fitted?: boolean;
}

const VARIANTS: readonly Variant[] = [
  { name: 'default: screen + j(j+1)/α + floor ×0.2', gamma: screenedGamma, screen: true, floor: 0.2 },
  { name: 'no screen (α spent on every candidate)', gamma: screenedGamma, screen: false, floor: 0.2 },
  { name: 'no floor (exact futility only)', gamma: screenedGamma, screen: true, floor: undefined },
  { name: 'floor ×0.1', gamma: screenedGamma, screen: true, floor: 0.1 },
  { name: 'floor ×0.33', gamma: screenedGamma, screen: true, floor: 1 / 3 },
  { name: 'γ_j = 6/(π² j²)', gamma: (j) => 6 / (Math.PI ** 2 * j * j), screen: true, floor: 0.2 },
  { name: 'screen promotes at +3 throughout (not +4 after 2 dev-set tests)', gamma: screenedGamma, screen: true, promoteAt: 3, floor: 0.2 },
  { name: 'the earlier screen: promote at +4, drop bar level at −2', gamma: screenedGamma, screen: true, promoteAt: 4, levelDropBar: true, floor: 0.2 },
  { name: 'screen of 12 items', gamma: screenedGamma, screen: true, maxItems: 12, floor: 0.2 },
  { name: 'bet fitted to earlier tests', gamma: screenedGamma, screen: true, floor: 0.2, fitted: true },
  { name: 'per-candidate 1/α (no run-level bound)', gamma: 'per-candidate', screen: false, floor: undefined },
];

interface Outcome {
  qualityAt: number[];
  realAt: boolean[];
  badAt: boolean[];
  firstRealAt: number | undefined;
}

function simulate(w: World, v: Variant): Outcome {
  const rnd = new SeededRandom(w.seed).fork('ablation');
  const memo = new Map<string, number>();
  let calls = 0;
  let incumbent: Sentence[] = [];
  const out: Outcome = { qualityAt: [], realAt: [], badAt: [], firstRealAt: undefined };
  const snap = () => {
    for (let b = out.qualityAt.length; b < BUDGETS.length && calls > BUDGETS[b]!; b++) record(b);
  };
  const record = (b: number) => {
    out.qualityAt[b] = trueQuality(w, incumbent);
    out.realAt[b] = hasReal(incumbent);
    out.badAt[b] = incumbent.length > 0 && trueQuality(w, incumbent) <= BASE_QUALITY + 1e-12;
  };
  /** One canonical draw per (prompt, item), as the product's memo and cache keep it. */
  const outcome = (s: Sentence[], index: number): number => {
    const key = promptKey(s);
    const k = `${key}:${index}`;
    let y = memo.get(k);
    if (y === undefined) {
      calls++;
      snap();
      y = evaluationDraw(w, key, index, 0) < successProbability(w, s, index) ? 1 : 0;
      memo.set(k, y);
    }
    return y;
  };
  const components: number[][] = []; // per earlier dev-set test: each λ's final log-wealth
  let tested = 0;
  const largest = BUDGETS[BUDGETS.length - 1]!;
  for (let k = 1; calls <= largest; k++) {
    for (let i = 0; i < 4; i++) outcome(incumbent, w.feedback[rnd.int(w.feedback.length)]!.index);
    const child = [...incumbent, { id: k, kind: proposalKind(w, k) }];
    if (v.screen) {
      const screen = new Screen(w.feedback.length, tested);
      const order = seededPermutation(w.feedback.length, rnd.int(2 ** 31));
      let net = 0;
      let promoted: boolean | undefined;
      for (let t = 0; promoted === undefined; t++) {
        const it = w.feedback[order[t]!]!;
        const d = outcome(child, it.index) - outcome(incumbent, it.index);
        if (v.promoteAt === undefined && v.maxItems === undefined && !v.levelDropBar) {
          const verdict = screen.observe(d);
          if (verdict) promoted = verdict === 'promote';
        } else {
          net += d;
          if (net >= (v.promoteAt ?? promoteBar(tested))) promoted = true;
          else if (net <= (v.levelDropBar ? -SCREEN.dropAt : dropBar(t + 1)) || t + 1 >= (v.maxItems ?? SCREEN.maxItems)) promoted = false;
        }
      }
      if (!promoted) continue;
    }
    const cfg: PaceConfig = paceConfig('pace+', {
      alpha: v.gamma === 'per-candidate' ? ALPHA : ALPHA * v.gamma(tested + 1),
      wealthFloor: v.floor,
      ...(v.fitted && components.length > 0 ? { bettor: { kind: 'mixture', lambdas: DEFAULT_GRID, weights: fittedWeights(components) } } : {}),
    });
    const order = seededPermutation(w.dev.length, rnd.int(2 ** 31));
    const test = startPaceTest(cfg, { tested: 0, commits: 0 }, w.dev.length);
    let wins = 0;
    let losses = 0;
    for (let t = 0; !test.verdict; t++) {
      const it = w.dev[order[t]!]!;
      const d = outcome(child, it.index) - outcome(incumbent, it.index);
      if (d > 0) wins++;
      if (d < 0) losses++;
      test.observe(d);
    }
    tested++;
    components.push(DEFAULT_GRID.map((l) => wins * Math.log1p(l) + losses * Math.log1p(-l)));
    if (test.verdict.decision === 'commit') {
      if (out.firstRealAt === undefined && hasReal(child) && !hasReal(incumbent)) out.firstRealAt = calls;
      incumbent = child;
    }
  }
  for (let b = out.qualityAt.length; b < BUDGETS.length; b++) record(b);
  return out;
}

/**
 * Half the uniform prior, half each λ's geometric-mean wealth over the run's earlier tests: fixed
 * before this test starts, so the mixture is still a supermartingale under its null (A4).
 */
function fittedWeights(components: readonly number[][]): number[] {
  const mean = DEFAULT_GRID.map((_, g) => components.reduce((s, c) => s + c[g]!, 0) / components.length);
  const top = Math.max(...mean);
  const fit = mean.map((m) => Math.exp(m - top));
  const total = fit.reduce((a, b) => a + b, 0);
  return fit.map((f) => 0.5 / DEFAULT_GRID.length + (0.5 * f) / total);
}

export function ablationMain(args: readonly string[]): void {
  const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const runs = Number(flag('--runs') ?? 300);
  const sizes = { feedback: Number(flag('--feedback') ?? 150), dev: Number(flag('--dev') ?? 150) };
  const started = Date.now();
  console.log(`\nbench/evolve --ablation — ${runs} runs per variant and world; gate-level loop, feedback ${sizes.feedback} / dev ${sizes.dev}\n`);
  console.log('| variant | +0.25: mean true quality 500 / 1,000 / 2,000 | +0.25: first admit (median calls) | +0.25: held at 2,000 | +0.10: held at 2,000 | no gain: ends not truly better at 2,000 |');
  console.log('|---|---|---|---|---|---|');
  const kinds: WorldKind[] = ['real25', 'real10', 'none'];
  for (const v of VARIANTS) {
    const byKind = new Map(kinds.map((kind) => [kind, Array.from({ length: runs }, (_, i) => simulate(makeWorld(kind, i + 1, sizes), v))]));
    const real = byKind.get('real25')!;
    const q = BUDGETS.map((_, b) => (real.reduce((s, o) => s + o.qualityAt[b]!, 0) / runs).toFixed(3)).join(' / ');
    const first = real.map((o) => o.firstRealAt ?? Infinity).sort((a, b) => a - b)[Math.floor(runs / 2)]!;
    const held = (kind: WorldKind) => (byKind.get(kind)!.filter((o) => o.realAt[2]).length / runs).toFixed(3);
    const bad = (byKind.get('none')!.filter((o) => o.badAt[2]).length / runs).toFixed(3);
    console.log(`| ${v.name} | ${q} | ${Number.isFinite(first) ? first : '—'} | ${held('real25')} | ${held('real10')} | ${bad} |`);
  }
  console.log(`\nWall time ${((Date.now() - started) / 1000).toFixed(0)} s.`);
}
