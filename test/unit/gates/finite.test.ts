// Finite-population PACE (GATES.md 1.2, Waudby-Smith & Ramdas 2024 §5): the factor, the clamp,
// hand-computed wealth paths, the exact futility bound, the configuration and the pre-flight, and
// validity computed exactly — every distinct order of small dev sets, no Monte-Carlo error.
import { describe, expect, it } from 'vitest';
import type { BettorSpec } from '../../../src/core/gates/eprocess';
import { CONTINUOUS_GRID, DEFAULT_GRID, createEProcess } from '../../../src/core/gates/eprocess';
import { createFiniteEProcess, finiteBet, finiteBetBound, finiteFactor, finiteNullMean } from '../../../src/core/gates/finite';
import type { PaceConfig } from '../../../src/core/gates/pace';
import { gateConfigHash, paceConfig, paceDecisionRecord, startPaceTest } from '../../../src/core/gates/pace';
import { preflight } from '../../../src/core/gates/preflight';
import { EMPTY_LEDGER } from '../../../src/core/gates/thresholds';
import { RatchetError } from '../../../src/core/errors';
import { SeededRandom, hashSeed } from '../../../src/core/random';
import { arrangements, exactCommitRate, population, runOrder } from './finitePopulation';

const finite = (gate: 'pace' | 'pace+', overrides: Partial<Omit<PaceConfig, 'gate'>> = {}): PaceConfig => paceConfig(gate, { ...overrides, population: 'finite' });

describe('the factor and the clamp', () => {
  it('m_k = −S_{k−1}/(n − k + 1)', () => {
    expect(finiteNullMean(3, 5)).toBe(-0.6);
    expect(finiteNullMean(-2, 4)).toBe(0.5);
    expect(Object.is(finiteNullMean(0, 7), 0)).toBe(true); // +0: a record never shows −0
    expect(() => finiteNullMean(1, 0)).toThrow(RatchetError);
  });

  it('the bound 1/(1 + m_k), void once the lead exceeds the items left', () => {
    expect(finiteBetBound(0)).toBe(1);
    expect(finiteBetBound(-0.6)).toBe(2.5);
    expect(finiteBetBound(0.5)).toBeCloseTo(2 / 3, 15);
    expect(finiteBetBound(-1)).toBe(Infinity);
    expect(finiteBetBound(-1.5)).toBe(Infinity);
  });

  it('λ_k = λ·min(1, 1/(1 + m_k)) and 1 + λ_k(Δ_k − m_k)', () => {
    expect(finiteBet(0.85, -0.6)).toBe(0.85);
    expect(finiteBet(0.85, 0)).toBe(0.85);
    expect(finiteBet(0.85, 0.5)).toBeCloseTo(0.85 / 1.5, 15);
    expect(finiteFactor(0.5, 1, -0.6)).toBeCloseTo(1.8, 15);
    expect(finiteFactor(0.5, 0, -0.6)).toBeCloseTo(1.3, 15); // a tie while leading is evidence
    expect(finiteFactor(0.5, -1, -0.6)).toBeCloseTo(0.8, 15);
    expect(finiteFactor(finiteBet(0.85, 0.5), -1, 0.5)).toBeCloseTo(0.15, 15); // worst loss 1 − λ, as without the correction
    expect(finiteFactor(finiteBet(0.85, 0.5), 0, 0.5)).toBeCloseTo(1 - 0.85 / 3, 15); // a tie while trailing costs
  });

  it('keeps every bet in [0, 1/(1 + m_k)] and every factor ≥ 1 − λ > 0', () => {
    for (const lambda of [0.05, 0.3, 0.5, 0.75, 0.85, 0.99]) {
      for (let m = -3; m <= 1.0001; m += 0.05) {
        const bet = finiteBet(lambda, m);
        expect(bet).toBeGreaterThanOrEqual(0);
        expect(bet).toBeLessThanOrEqual(finiteBetBound(m));
        for (const d of [-1, -0.5, 0, 0.5, 1]) expect(finiteFactor(bet, d, m)).toBeGreaterThanOrEqual(1 - lambda - 1e-12);
      }
    }
  });
});

describe('wealth paths (fixed λ = 0.5, n = 4)', () => {
  const steps = (deltas: number[]) => {
    const test = startPaceTest(finite('pace'), EMPTY_LEDGER, 4);
    return deltas.map((d) => test.observe(d));
  };

  it('a lead makes ties and later wins count more: 1.5 · 7/6 · 0.75 · 1.5', () => {
    const s = steps([1, 0, -1, 1]);
    expect(s.map((x) => x.bet)).toEqual([0.5, 0.5, 0.5, 0.5]);
    // m = 0, −1/3, −1/2, 0
    const wealth = [1.5, 1.5 * (7 / 6), 1.5 * (7 / 6) * 0.75, 1.5 * (7 / 6) * 0.75 * 1.5];
    s.forEach((x, i) => expect(x.logWealth).toBeCloseTo(Math.log(wealth[i]!), 12));
    // B_1(3): wins at m = −1/3, −1, −3 multiply by 5/3, 2, 3.
    expect(s[0]!.logBest).toBeCloseTo(Math.log(1.5 * (5 / 3) * 2 * 3), 12);
    expect(s[3]!.verdict).toEqual({ decision: 'reject', reason: 'budget', stoppedAt: 4 });
  });

  it('trailing shrinks the bet so a loss still costs half; at m = 1 the null is certain and a win pays nothing', () => {
    const s = steps([-1, -1, 1, 0]);
    // m = 0, 1/3, 1, 1: bets 0.5, 0.5/(4/3), 0.5/2, 0.5/2
    expect(s.map((x) => x.bet)).toEqual([0.5, 0.375, 0.25, 0.25]);
    const wealth = [0.5, 0.25, 0.25, 0.1875];
    s.forEach((x, i) => expect(x.logWealth).toBeCloseTo(Math.log(wealth[i]!), 12));
  });

  it('counts a tie as an item of the population: the grid moves by 1 + λ/9 after a win (n = 10)', () => {
    const test = startPaceTest(finite('pace+'), EMPTY_LEDGER, 10);
    const tie = [1, 0].map((d) => test.observe(d))[1]!;
    // m_2 = −1/9: each component gains 1 + λ_g/9 on the tie.
    const mean = DEFAULT_GRID.reduce((acc, lambda) => acc + (1 + lambda) * (1 + lambda / 9), 0) / DEFAULT_GRID.length;
    expect(tie.logWealth).toBeCloseTo(Math.log(mean), 12);
    expect(tie.bet).toBeGreaterThan(0);
    expect(test.summary()).toMatchObject({ wins: 1, losses: 0, ties: 1, itemsConsumed: 2, n: 10 });
  });
});

describe('the finite e-processes', () => {
  const sequence = (seed: string, n: number, scores: 'binary' | 'continuous'): number[] => {
    const rng = new SeededRandom(hashSeed('finite-seq', seed));
    return Array.from({ length: n }, () => {
      if (scores === 'continuous') return Math.round((rng.next() * 2 - 1) * 8) / 8;
      const u = rng.next();
      return u < 0.35 ? 1 : u < 0.65 ? -1 : 0;
    });
  };

  it('the grid mixture is the average of its components, each with its own clamped bet', () => {
    const deltas = sequence('mixture', 30, 'binary');
    const ep = createFiniteEProcess({ kind: 'mixture', lambdas: DEFAULT_GRID }, 'binary', deltas.length);
    const components = DEFAULT_GRID.map(() => 1);
    let sum = 0;
    deltas.forEach((d, k) => {
      const m = -sum / (deltas.length - k) || 0;
      DEFAULT_GRID.forEach((lambda, g) => (components[g]! *= finiteFactor(finiteBet(lambda, m), d, m)));
      const before = ep.logWealth();
      const bet = ep.nextBet();
      expect(ep.nullMean()).toBeCloseTo(m, 15);
      ep.observe(d);
      // the mixture's predictable bet on Δ − m (GATES.md 4.1)
      expect(ep.logWealth()).toBeCloseTo(before + Math.log1p(bet * (d - m)), 12);
      sum += d;
    });
    expect(Math.exp(ep.logWealth())).toBeCloseTo(components.reduce((a, b) => a + b, 0) / components.length, 10);
    expect(ep.observed).toBe(30);
    expect(() => ep.observe(1)).toThrow(/no next draw/);
  });

  it.each<[string, BettorSpec]>([
    ['aGRAPA', { kind: 'agrapa' }],
    ['ONS', { kind: 'ons', lambda1: 0.5, cap: 0.8 }],
    ['Beta mixture', { kind: 'beta' }],
  ])('%s keeps its own bet sequence (fed the non-tie Δs) and gets it clamped on every item', (_label, spec) => {
    const deltas = sequence('plug-in', 40, 'binary');
    const ep = createFiniteEProcess(spec, 'binary', deltas.length);
    const own = createEProcess(spec, 'binary');
    let logE = 0;
    let sum = 0;
    deltas.forEach((d, k) => {
      const m = -sum / (deltas.length - k) || 0;
      const bet = finiteBet(own.nextBet(), m);
      expect(ep.nextBet()).toBeCloseTo(bet, 14);
      ep.observe(d);
      logE += Math.log1p(bet * (d - m));
      expect(ep.logWealth()).toBeCloseTo(logE, 12);
      if (d !== 0) own.observe(d);
      sum += d;
    });
  });

  it('B_k(r) of the grid is exactly the wealth after r straight wins', () => {
    for (const [scores, lambdas] of [
      ['binary', DEFAULT_GRID],
      ['continuous', CONTINUOUS_GRID],
    ] as const) {
      const deltas = sequence(`best-${scores}`, 20, scores);
      for (const prefix of [0, 3, 8, 15, 20]) {
        const ep = createFiniteEProcess({ kind: 'mixture', lambdas }, scores, 20);
        deltas.slice(0, prefix).forEach((d) => ep.observe(d));
        const best = ep.logBest(20 - prefix);
        for (let j = prefix; j < 20; j++) ep.observe(1);
        expect(best).toBeCloseTo(ep.logWealth(), 10);
      }
    }
  });

  it.each<[string, BettorSpec]>([
    ['grid mixture', { kind: 'mixture', lambdas: DEFAULT_GRID }],
    ['fixed λ=0.5', { kind: 'fixed', lambda: 0.5 }],
    ['aGRAPA', { kind: 'agrapa' }],
    ['ONS', { kind: 'ons', lambda1: 0.5, cap: 0.8 }],
    ['Beta mixture', { kind: 'beta' }],
  ])('%s: the futility stop never changes a decision (1,500 dev sets)', (label, bettor) => {
    const rng = new SeededRandom(hashSeed('finite-futility', label));
    let commits = 0;
    for (let i = 0; i < 1500; i++) {
      const n = [12, 20, 40][rng.int(3)]!;
      const lead = rng.int(9) - 4; // Σ Δ from −4 to +4
      const discordant = Math.min(n - Math.abs(lead), 2 * rng.int(n / 2) + Math.abs(lead));
      const w = (discordant + lead) / 2;
      const values = population(w, discordant - w, n - discordant);
      const ordered = values
        .map((v) => [rng.next(), v] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, v]) => v);
      const withStop = runOrder(finite('pace+', { bettor }), ordered);
      const without = runOrder(finite('pace+', { bettor, futility: false }), ordered);
      expect(withStop.commit).toBe(without.commit);
      expect(withStop.consumed).toBeLessThanOrEqual(without.consumed);
      if (withStop.commit) commits++;
    }
    expect(commits).toBeGreaterThan(50); // not vacuous
  });
});

describe('configuration, record and pre-flight', () => {
  it('defaults to the population null; the finite one is recorded in the config, its hash and the decision', () => {
    expect(paceConfig('pace+').population).toBe('infinite');
    const cfg = finite('pace+');
    expect(cfg.population).toBe('finite');
    // Journals written before the option keep their hash: the default configuration's is unchanged.
    expect(gateConfigHash(paceConfig('pace+'))).toBe('8a4509f8135da6e2');
    expect(gateConfigHash(cfg)).not.toBe(gateConfigHash(paceConfig('pace+')));
    const test = startPaceTest(cfg, EMPTY_LEDGER, 8);
    while (!test.verdict) test.observe(1);
    const record = paceDecisionRecord(test, { candidateId: 'c1', parentId: 'c0', incumbentId: 'c0', orderSeed: 1, candidateCalls: 5, incumbentCalls: 0 });
    expect(record).toMatchObject({ population: 'finite', configHash: gateConfigHash(cfg), decision: 'commit', itemsConsumed: 5, wins: 5 });
    expect(() => paceConfig('pace+', { population: 'finit' as never })).toThrow(/'infinite' or 'finite', got "finit"/);
  });

  it('pre-flight: the finite grid needs 4 items at α = 0.05 (all wins); 3 cannot reach ×20', () => {
    expect(preflight(finite('pace+'), EMPTY_LEDGER, 3)).toEqual({
      feasible: false,
      minWins: Infinity,
      threshold: 20,
      n: 3,
      message: 'PACE+ (finite population) cannot reach ×20 at α = 0.05 even if all 3 items of your dev set are wins',
    });
    expect(preflight(finite('pace+'), EMPTY_LEDGER, 4)).toMatchObject({ feasible: true, minWins: 4 });
    expect(preflight(finite('pace+'), EMPTY_LEDGER, 40)).toMatchObject({ feasible: true, minWins: 6 });
  });

  it('pre-flight agrees with the test machine: infeasible exactly when B_0(n) < threshold', () => {
    for (const alpha of [0.01, 0.05, 0.1]) {
      for (const gate of ['pace', 'pace+'] as const) {
        const cfg = finite(gate, { alpha, futility: true });
        for (let n = 0; n <= 20; n++) {
          const machineInfeasible = startPaceTest(cfg, EMPTY_LEDGER, n).verdict?.reason === 'infeasible';
          expect(preflight(cfg, EMPTY_LEDGER, n).feasible, `${gate} α=${alpha} n=${n}`).toBe(!machineInfeasible);
        }
      }
    }
  });
});

describe('validity, exactly: P(commit) over every order of a dev set with Σ Δ ≤ 0 is ≤ α', () => {
  const bettors: [string, BettorSpec][] = [
    ['grid mixture', { kind: 'mixture', lambdas: DEFAULT_GRID }],
    ['fixed λ=0.5', { kind: 'fixed', lambda: 0.5 }],
    ['fixed λ=0.95', { kind: 'fixed', lambda: 0.95 }],
    ['aGRAPA', { kind: 'agrapa' }],
    ['ONS', { kind: 'ons', lambda1: 0.5, cap: 0.8 }],
    ['Beta mixture', { kind: 'beta' }],
  ];

  // (wins, losses, ties): mean exactly 0 with ties, without ties, mostly ties; and a negative total.
  it.each([
    [4, 4, 3],
    [6, 6, 0],
    [2, 2, 8],
    [3, 4, 4],
  ])('%i wins, %i losses, %i ties', (w, l, t) => {
    const values = population(w, l, t);
    for (const [label, bettor] of bettors) {
      for (const alpha of [0.05, 0.2]) {
        const { rate } = exactCommitRate(finite('pace+', { alpha, bettor }), values);
        expect(rate, `${label} α=${alpha}`).toBeLessThanOrEqual(alpha);
      }
    }
  });

  it('continuous scores: eight +0.25, two −1, two ties (Σ = 0; many small gains, few large losses)', () => {
    const values = [...Array<number>(8).fill(0.25), -1, -1, 0, 0];
    for (const bettor of [{ kind: 'agrapa' }, { kind: 'mixture', lambdas: CONTINUOUS_GRID }] as BettorSpec[]) {
      for (const alpha of [0.05, 0.2]) {
        const { orders, rate } = exactCommitRate(finite('pace+', { alpha, scores: 'continuous', bettor }), values);
        expect(orders).toBe(2970); // 12!/(8!·2!·2!)
        expect(rate, `${bettor.kind} α=${alpha}`).toBeLessThanOrEqual(alpha);
      }
    }
  });

  it('the enumeration can detect an invalid correction: a null mean that falls twice as fast commits above α', () => {
    // Guards against a vacuous harness: m_k doubled makes every lead look like more evidence than it is.
    const values = population(6, 6, 0);
    const alpha = 0.05;
    let orders = 0;
    let commits = 0;
    for (const a of arrangements(values)) {
      orders++;
      let logE = 0;
      let sum = 0;
      for (let k = 0; k < a.length; k++) {
        const m = (2 * -sum) / (a.length - k);
        logE += Math.log1p(finiteBet(0.5, m) * (a[k]! - m));
        sum += a[k]!;
        if (logE >= Math.log(1 / alpha)) {
          commits++;
          break;
        }
      }
    }
    expect(orders).toBe(924);
    expect(commits / orders).toBeGreaterThan(alpha);
    expect(exactCommitRate(finite('pace', { alpha }), values).rate).toBeLessThanOrEqual(alpha);
  });
});
