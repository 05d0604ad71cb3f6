/**
 * One simulated run of T candidates through one gate, using the product's own gate code
 * (src/core/gates): the PACE state machine, thresholds and ledger, the incumbent cache, the sign
 * test, LORD++ and the greedy rule. Cost accounting follows GATES.md 2–4:
 * - greedy: n for the initial incumbent, n per candidate; greedy re-scoring: 2n per candidate;
 * - paper PACE (and the PACE+ no-cache ablation): 2 calls per item consumed, the incumbent
 *   re-evaluated with a fresh draw;
 * - PACE+, sign test, LORD++: candidate calls + incumbent cache misses.
 */
import type { Decision } from '../../src/core/gates/record';
import type { PaceConfig } from '../../src/core/gates/pace';
import type { LordState } from '../../src/core/gates/lordpp';
import type { RunLedger } from '../../src/core/gates/thresholds';
import type { RunPlan, Version } from './world';
import { SeededRandom, hashSeed, seededPermutation } from '../../src/core/random';
import { OutcomeCache } from '../../src/core/gates/incumbentCache';
import { greedyGate } from '../../src/core/gates/greedy';
import { signTest, signTestPValue } from '../../src/core/gates/signTest';
import { LORD_START, lordGammas, lordStep } from '../../src/core/gates/lordpp';
import { paceConfig, startPaceTest } from '../../src/core/gates/pace';
import { EMPTY_LEDGER } from '../../src/core/gates/thresholds';
import { freshDraw, propose, testAccuracy } from './world';

export const BENCH_GATES = ['greedy', 'greedy-re', 'sign', 'lord++', 'pace', 'pace+', 'pace+ e-lond'] as const;
/** Ablations of PACE+ run in the headline cells: without the futility stop, without the cache. */
export const ABLATIONS = ['pace+ no-futility', 'pace+ no-cache'] as const;
export type BenchGate = (typeof BENCH_GATES)[number] | (typeof ABLATIONS)[number];

export const GATE_TITLES: Record<BenchGate, string> = {
  greedy: 'greedy',
  'greedy-re': 'greedy (re-scored incumbent)',
  sign: 'fixed-n sign test',
  'lord++': 'LORD++ (sign p-values)',
  pace: 'PACE (paper, λ=0.5)',
  'pace+': 'PACE+',
  'pace+ e-lond': 'PACE+ e-LOND',
  'pace+ no-futility': 'PACE+ without futility stop',
  'pace+ no-cache': 'PACE+ without incumbent cache',
};

/** Sums over runs; every rate in the report is a ratio of two of these. */
export interface Tally {
  runs: number;
  commits: number;
  falseCommits: number;
  harmfulCommits: number;
  nonBeneficialTested: number;
  nonBeneficialCommitted: number;
  neutralTested: number;
  neutralCommitted: number;
  realTested: number;
  realCommitted: number;
  candCalls: number;
  incCalls: number;
  /** Σ over runs of V/max(R, 1). */
  fdp: number;
  /** Σ over runs of the true accuracy change (fraction). */
  deltaAcc: number;
  /** Tests that stopped as futile or infeasible (PACE+). */
  futile: number;
  /** Σ over runs of squares, for Monte-Carlo standard errors. */
  commitsSq: number;
  deltaAccSq: number;
  callsSq: number;
}

export function emptyTally(): Tally {
  return {
    runs: 0,
    commits: 0,
    falseCommits: 0,
    harmfulCommits: 0,
    nonBeneficialTested: 0,
    nonBeneficialCommitted: 0,
    neutralTested: 0,
    neutralCommitted: 0,
    realTested: 0,
    realCommitted: 0,
    candCalls: 0,
    incCalls: 0,
    fdp: 0,
    deltaAcc: 0,
    futile: 0,
    commitsSq: 0,
    deltaAccSq: 0,
    callsSq: 0,
  };
}

export function addTally(a: Tally, b: Tally): Tally {
  const out = { ...a };
  for (const k of Object.keys(out) as (keyof Tally)[]) out[k] += b[k];
  return out;
}

const EPS = 1e-12;
const itemIds: string[] = [];
function itemId(i: number): string {
  while (itemIds.length <= i) itemIds.push(`item-${itemIds.length}`);
  return itemIds[i]!;
}

interface GateState {
  incumbent: Version;
  calls: { cand: number; inc: number };
}

/** Decides one candidate; returns the decision. Each gate keeps its own state between candidates. */
type Decide = (cand: Version, t: number, s: GateState) => Decision;

function makeGate(gate: BenchGate, plan: RunPlan, tally: Tally): Decide {
  const cfg = plan.cfg;
  const n = cfg.n;
  // The no-futility ablation shares PACE+'s stream, so both see the same item orders.
  const rng = new SeededRandom(hashSeed(plan.seed, 'fresh', gate === 'pace+ no-futility' ? 'pace+' : gate));
  const sumDraws = (v: Version): number => v.draws.reduce((a, b) => a + b, 0);
  switch (gate) {
    case 'greedy': {
      let scoreI = -1;
      return (cand, _t, s) => {
        if (scoreI < 0) {
          scoreI = sumDraws(s.incumbent); // measured once, when the initial version is scored
          s.calls.inc += n;
        }
        s.calls.cand += n;
        const scoreC = sumDraws(cand);
        const r = greedyGate(scoreC, scoreI);
        if (r.decision === 'commit') scoreI = scoreC;
        return r.decision;
      };
    }
    case 'greedy-re': {
      let first = true;
      return (cand, _t, s) => {
        if (first) {
          s.calls.inc += n; // the initial scoring every run starts with (counted as for greedy)
          first = false;
        }
        let scoreI = 0;
        for (let i = 0; i < n; i++) scoreI += freshDraw(s.incumbent, i, rng);
        s.calls.inc += n;
        s.calls.cand += n;
        return greedyGate(sumDraws(cand), scoreI).decision;
      };
    }
    case 'sign':
    case 'lord++': {
      const cache = new OutcomeCache('bench');
      const gammas = lordGammas(cfg.T);
      let lord: LordState = LORD_START;
      return (cand, _t, s) => {
        let w = 0;
        let l = 0;
        const pending = new Map<string, number>();
        for (let i = 0; i < n; i++) {
          const yI = incumbentOutcome(cache, s, i);
          const yC = cand.draws[i]!;
          s.calls.cand++;
          pending.set(itemId(i), yC);
          if (yC > yI) w++;
          else if (yC < yI) l++;
        }
        let decision: Decision;
        if (gate === 'sign') decision = signTest(w, l, n - w - l, cfg.alpha).decision;
        else {
          const r = lordStep(cfg.alpha, gammas, lord, signTestPValue(w, l));
          lord = r.state;
          decision = r.decision;
        }
        if (decision === 'commit') cache.adopt(cand.key, pending);
        return decision;
      };
    }
    case 'pace': {
      const pcfg = paceConfig('pace', { alpha: cfg.alpha });
      return (cand, _t, s) => {
        const test = startPaceTest(pcfg, EMPTY_LEDGER, n);
        const order = seededPermutation(n, rng.nextUint32());
        for (let k = 0; k < n && !test.verdict; k++) {
          const i = order[k]!;
          const yI = freshDraw(s.incumbent, i, rng);
          s.calls.inc++;
          s.calls.cand++;
          test.observe(cand.draws[i]! - yI);
        }
        return test.verdict!.decision;
      };
    }
    case 'pace+ no-cache': {
      const pcfg = paceConfig('pace+', { alpha: cfg.alpha });
      return (cand, _t, s) => {
        const test = startPaceTest(pcfg, EMPTY_LEDGER, n);
        const order = seededPermutation(n, rng.nextUint32());
        for (let k = 0; k < n && !test.verdict; k++) {
          const i = order[k]!;
          s.calls.inc++;
          s.calls.cand++;
          test.observe(cand.draws[i]! - freshDraw(s.incumbent, i, rng));
        }
        return test.verdict!.decision;
      };
    }
    case 'pace+':
    case 'pace+ no-futility':
    case 'pace+ e-lond': {
      const pcfg: PaceConfig = gate === 'pace+ e-lond' ? paceConfig('pace+', { alpha: cfg.alpha, schedule: 'e-lond', horizonT: cfg.T }) : paceConfig('pace+', { alpha: cfg.alpha, futility: gate === 'pace+' });
      const cache = new OutcomeCache('bench');
      let ledger: RunLedger = EMPTY_LEDGER;
      return (cand, _t, s) => {
        const test = startPaceTest(pcfg, ledger, n);
        const order = seededPermutation(n, rng.nextUint32());
        const pending = new Map<string, number>();
        for (let k = 0; k < n && !test.verdict; k++) {
          const i = order[k]!;
          const yC = cand.draws[i]!;
          s.calls.cand++;
          pending.set(itemId(i), yC);
          test.observe(yC - incumbentOutcome(cache, s, i));
        }
        const v = test.verdict!;
        if (v.reason === 'futile' || v.reason === 'infeasible') tally.futile++;
        if (v.decision === 'commit') cache.adopt(cand.key, pending);
        ledger = test.ledgerAfter();
        return v.decision;
      };
    }
  }
}

/** cache[I][i], or one evaluation of the incumbent (its canonical draw) stored on a miss (4.3). */
function incumbentOutcome(cache: OutcomeCache, s: GateState, i: number): number {
  const id = itemId(i);
  const hit = cache.get(s.incumbent.key, id);
  if (hit !== undefined) return hit;
  const y = s.incumbent.draws[i]!;
  s.calls.inc++;
  cache.set(s.incumbent.key, id, y);
  return y;
}

/** Runs all T candidates of a plan through one gate, adds the run to the tally, returns the decisions. */
export function simulateRun(plan: RunPlan, gate: BenchGate, tally: Tally): Decision[] {
  const decisions: Decision[] = [];
  const s: GateState = { incumbent: plan.initial, calls: { cand: 0, inc: 0 } };
  const decide = makeGate(gate, plan, tally);
  let commits = 0;
  let falseCommits = 0;
  for (let t = 0; t < plan.cfg.T; t++) {
    const cand = propose(plan, t, s.incumbent, `c${t}`);
    const nonBeneficial = cand.acc <= s.incumbent.acc + EPS;
    const harmful = cand.acc < s.incumbent.acc - EPS;
    if (nonBeneficial) tally.nonBeneficialTested++;
    if (cand.kind === 'neutral') tally.neutralTested++;
    if (cand.kind === 'real') tally.realTested++;
    const decision = decide(cand, t, s);
    decisions.push(decision);
    if (decision === 'commit') {
      commits++;
      if (nonBeneficial) {
        falseCommits++;
        tally.nonBeneficialCommitted++;
      }
      if (harmful) tally.harmfulCommits++;
      if (cand.kind === 'neutral') tally.neutralCommitted++;
      if (cand.kind === 'real') tally.realCommitted++;
      s.incumbent = cand;
    }
  }
  tally.runs++;
  tally.commits += commits;
  tally.falseCommits += falseCommits;
  tally.fdp += falseCommits / Math.max(commits, 1);
  tally.candCalls += s.calls.cand;
  tally.incCalls += s.calls.inc;
  const deltaAcc = testAccuracy(plan.cfg, s.incumbent) - testAccuracy(plan.cfg, plan.initial);
  tally.deltaAcc += deltaAcc;
  tally.commitsSq += commits * commits;
  tally.deltaAccSq += deltaAcc * deltaAcc;
  tally.callsSq += (s.calls.cand + s.calls.inc) ** 2;
  return decisions;
}
