// The proposer-model bandit: UCB1 rewarded by the gate, optionally cost-aware.
import { describe, expect, it } from 'vitest';
import { UcbBandit, gateReward } from '../../../src/core/code/bandit';
import { SeededRandom } from '../../../src/core/random';

describe('gateReward: r = w·1[commit] + (1 − w)·clip(gain/scale, 0, 1)', () => {
  it('the gate dominates: any commit earns at least ½, any rejection at most ½', () => {
    expect(gateReward({ decision: 'commit', gain: 0.2, gainScale: 1 })).toBeCloseTo(0.6, 15);
    expect(gateReward({ decision: 'commit', gain: -1, gainScale: 1 })).toBe(0.5);
    expect(gateReward({ decision: 'reject', gain: 5, gainScale: 1 })).toBe(0.5);
    expect(gateReward({ decision: 'reject', gain: 0.1, gainScale: 0.4 })).toBeCloseTo(0.125, 15);
    expect(gateReward({ decision: 'reject', gain: -0.3, gainScale: 1 })).toBe(0);
  });

  it('an incorrect child (no gain) earns 0; the weight is adjustable', () => {
    expect(gateReward({ decision: 'reject', gainScale: 1 })).toBe(0);
    expect(gateReward({ decision: 'commit', gain: 1, gainScale: 2, gateWeight: 0.8 })).toBeCloseTo(0.8 + 0.2 * 0.5, 15);
    expect(() => gateReward({ decision: 'commit', gainScale: 0 })).toThrow(/gainScale/);
    expect(() => gateReward({ decision: 'commit', gainScale: 1, gateWeight: 2 })).toThrow(/gateWeight/);
  });
});

describe('UCB1', () => {
  it('tries every arm before any twice, in a seeded random order', () => {
    const orders = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const b = UcbBandit.create(['a', 'b', 'c', 'd']);
      const rng = new SeededRandom(seed);
      const first = Array.from({ length: 4 }, () => b.choose(rng));
      expect([...first].sort()).toEqual(['a', 'b', 'c', 'd']);
      orders.add(first.join(''));
    }
    expect(orders.size).toBeGreaterThan(1);
  });

  it('a pull counts when chosen, so proposals in flight spread over the arms before any reward', () => {
    const b = UcbBandit.create(['a', 'b', 'c']);
    const rng = new SeededRandom(2);
    const picks = Array.from({ length: 6 }, () => b.choose(rng));
    expect(b.arms().map((a) => a.pulls)).toEqual([2, 2, 2]);
    expect(picks).toHaveLength(6);
  });

  it('index = mean + c·√(2 ln N / nᵢ); untried arms are +∞', () => {
    const b = UcbBandit.create(['a', 'b', 'c'], { c: 0.5 });
    const rng = new SeededRandom(3);
    for (let k = 0; k < 3; k++) b.choose(rng);
    b.reward('a', 1);
    b.reward('b', 0.25);
    const idx = Object.fromEntries(b.indices().map((x) => [x.name, x.index]));
    const bonus = 0.5 * Math.sqrt((2 * Math.log(3)) / 1);
    expect(idx.a).toBeCloseTo(1 + bonus, 12);
    expect(idx.b).toBeCloseTo(0.25 + bonus, 12);
    // c was pulled but has no reward yet: mean 0
    expect(idx.c).toBeCloseTo(bonus, 12);
    expect(UcbBandit.create(['x']).indices()).toEqual([{ name: 'x', index: Infinity }]);
  });

  it('ties on the index are broken by the rng', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 20; seed++) {
      const b = UcbBandit.create(['a', 'b']);
      const rng = new SeededRandom(seed);
      b.choose(rng);
      b.choose(rng);
      b.reward('a', 0.5);
      b.reward('b', 0.5);
      seen.add(b.choose(rng));
    }
    expect(seen).toEqual(new Set(['a', 'b']));
  });

  it('rejects rewards outside [0, 1], rewards for unchosen pulls, and unknown or repeated arms', () => {
    const b = UcbBandit.create(['a', 'b']);
    expect(() => b.reward('a', 0.5)).toThrow(/more rewards than it was chosen/);
    b.choose(new SeededRandom(1));
    expect(() => b.reward('a', 1.5)).toThrow(/\[0, 1\]/);
    expect(() => b.reward('zz', 0.5)).toThrow(/Unknown/);
    expect(() => b.recordCost('a', -1)).toThrow(/cost/);
    expect(() => UcbBandit.create([])).toThrow(/at least one/);
    expect(() => UcbBandit.create(['a', 'a'])).toThrow(/twice/);
  });

  /**
   * Seeded Bernoulli world p = (0.3, 0.5, 0.7), T pulls. Auer, Cesa-Bianchi & Fischer (2002),
   * Theorem 1: E[nᵢ] ≤ 8 ln T / Δᵢ² + 1 + π²/3 for each suboptimal arm, hence
   * E[regret] ≤ Σ Δᵢ E[nᵢ]. Checked on the average over 20 seeds (the bound is on expectations).
   */
  it('converges to the better arm within the UCB1 regret bound', () => {
    const p = [0.3, 0.5, 0.7];
    const names = ['m0', 'm1', 'm2'];
    const T = 3000;
    const seeds = 20;
    let regret = 0;
    let suboptimal = [0, 0];
    for (let seed = 1; seed <= seeds; seed++) {
      const b = UcbBandit.create(names);
      const rng = new SeededRandom(seed);
      const world = new SeededRandom(1000 + seed);
      for (let t = 0; t < T; t++) {
        const arm = names.indexOf(b.choose(rng));
        b.reward(names[arm]!, world.next() < p[arm]! ? 1 : 0);
        regret += 0.7 - p[arm]!;
      }
      const pulls = b.arms().map((a) => a.pulls);
      expect(pulls[2]!, `seed ${seed}: the best arm is pulled most`).toBeGreaterThan(Math.max(pulls[0]!, pulls[1]!));
      suboptimal = [suboptimal[0]! + pulls[0]!, suboptimal[1]! + pulls[1]!];
    }
    const bound = (delta: number): number => (8 * Math.log(T)) / delta ** 2 + 1 + Math.PI ** 2 / 3;
    expect(suboptimal[0]! / seeds).toBeLessThanOrEqual(bound(0.4));
    expect(suboptimal[1]! / seeds).toBeLessThanOrEqual(bound(0.2));
    expect(regret / seeds).toBeLessThanOrEqual(0.4 * bound(0.4) + 0.2 * bound(0.2));
    // and it does learn: far less regret than uniform choice, T·(0.4 + 0.2)/3
    expect(regret / seeds).toBeLessThan((T * 0.6) / 3 / 2);
  });

  it('cost-aware (k = 1): of two equally good models the cheap one gets almost every pull', () => {
    const run = (costWeight: number): number[] => {
      const b = UcbBandit.create(['dear', 'cheap'], { costWeight });
      const rng = new SeededRandom(5);
      const world = new SeededRandom(6);
      for (let t = 0; t < 1000; t++) {
        const arm = b.choose(rng);
        b.recordCost(arm, arm === 'dear' ? 1 : 0.1);
        b.reward(arm, world.next() < 0.5 ? 1 : 0);
      }
      return b.arms().map((a) => a.pulls);
    };
    // index of 'dear' ≤ 0.1·(1 + √(2 ln 1000)) ≈ 0.47 < the cheap arm's mean ≈ 0.5 after a few pulls
    expect(run(1)[0]).toBeLessThanOrEqual(10);
    const blind = run(0);
    expect(Math.min(...blind)).toBeGreaterThan(200);
  });

  it('cost-aware (k = 1) at equal cost: the better model gets most pulls, as in plain UCB1', () => {
    const pulls = (costWeight: number): number[] => {
      const b = UcbBandit.create(['poor', 'good'], { costWeight });
      const rng = new SeededRandom(11);
      const world = new SeededRandom(12);
      for (let t = 0; t < 1000; t++) {
        const arm = b.choose(rng);
        b.recordCost(arm, 0.02);
        b.reward(arm, world.next() < (arm === 'good' ? 0.7 : 0.3) ? 1 : 0);
      }
      return b.arms().map((a) => a.pulls);
    };
    const [poor, good] = pulls(1);
    expect(good).toBeGreaterThan(4 * poor!);
    // Equal costs make the factor 1: the same choices as the cost-blind bandit.
    expect(pulls(1)).toEqual(pulls(0));
  });

  it('cost-aware (k = 1) ranks by reward per dollar: half the reward at a quarter of the price wins', () => {
    const b = UcbBandit.create(['dear', 'cheap'], { costWeight: 1 });
    const rng = new SeededRandom(21);
    const world = new SeededRandom(22);
    for (let t = 0; t < 1000; t++) {
      const arm = b.choose(rng);
      b.recordCost(arm, arm === 'dear' ? 0.04 : 0.01);
      b.reward(arm, world.next() < (arm === 'dear' ? 0.8 : 0.4) ? 1 : 0);
    }
    const [dear, cheap] = b.arms().map((a) => a.pulls);
    expect(cheap).toBeGreaterThan(4 * dear!);
  });

  it('the cost factor is (c_min / c̄ᵢ)^k; an arm with no cost yet counts as the cheapest', () => {
    const b = UcbBandit.create(['a', 'b', 'c'], { costWeight: 0.5 });
    const rng = new SeededRandom(1);
    for (let k = 0; k < 3; k++) b.choose(rng);
    for (const arm of ['a', 'b', 'c']) b.reward(arm, 1);
    b.recordCost('a', 0.4);
    b.recordCost('b', 0.1);
    b.recordCost('b', 0.3);
    const ucb = 1 + Math.sqrt((2 * Math.log(3)) / 1);
    expect(b.indices().map((x) => x.index)).toEqual([expect.closeTo(ucb * Math.sqrt(0.2 / 0.4), 12), expect.closeTo(ucb, 12), expect.closeTo(ucb, 12)]);
  });

  it('a JSON round trip gives identical future choices', () => {
    const a = UcbBandit.create(['x', 'y', 'z'], { c: 0.7, costWeight: 0.3 });
    const rng = new SeededRandom(8);
    for (let t = 0; t < 25; t++) {
      const arm = a.choose(rng);
      a.recordCost(arm, arm.charCodeAt(0) / 100);
      a.reward(arm, (t % 5) / 4);
    }
    const state = a.toJSON();
    const b = UcbBandit.fromJSON(JSON.parse(JSON.stringify(state)) as typeof state);
    expect(b.toJSON()).toEqual(state);
    const play = (u: UcbBandit): string[] => {
      const r = new SeededRandom(99);
      return Array.from({ length: 40 }, (_, t) => {
        const arm = u.choose(r);
        u.reward(arm, t % 2);
        return arm;
      });
    };
    expect(play(b)).toEqual(play(a));
    expect(() => UcbBandit.fromJSON({ ...state, version: 2 as 1 })).toThrow(/version/);
  });
});
