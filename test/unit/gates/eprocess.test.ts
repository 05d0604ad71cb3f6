// The e-processes of GATES.md 4.1 and 4.4 against closed forms and hand-computed recursions.
import { describe, expect, it } from 'vitest';
import type { BettorSpec } from '../../../src/core/gates/eprocess';
import { CONTINUOUS_GRID, DEFAULT_GRID, betaMixtureLogWealth, createEProcess } from '../../../src/core/gates/eprocess';
import { RatchetError } from '../../../src/core/errors';

/** Wealth path of a bettor over Δs, as [bet used, ln E after] pairs. */
function path(spec: BettorSpec, deltas: number[], scores: 'binary' | 'continuous' = 'binary'): [number, number][] {
  const ep = createEProcess(spec, scores);
  return deltas.map((d) => {
    const bet = ep.nextBet();
    ep.observe(d);
    return [bet, ep.logWealth()];
  });
}

/** ∫_{1/2}^{1} 2 (2q)^W (2(1−q))^L dq by composite Simpson, independent of the closed form. */
function betaMixtureByIntegration(w: number, l: number): number {
  const m = 20_000;
  const h = 0.5 / m;
  const f = (q: number): number => 2 * (2 * q) ** w * (2 * (1 - q)) ** l;
  let s = f(0.5) + f(1);
  for (let k = 1; k < m; k++) s += (k % 2 === 1 ? 4 : 2) * f(0.5 + k * h);
  return (s * h) / 3;
}

describe('Beta mixture closed form (GATES.md 4.1)', () => {
  it.each([
    [0, 0],
    [1, 0],
    [0, 1],
    [3, 1],
    [6, 0],
    [5, 5],
    [12, 4],
    [20, 13],
    [2, 9],
  ])('E(W=%i, L=%i) matches numerical integration', (w, l) => {
    const closed = Math.exp(betaMixtureLogWealth(w, l));
    expect(closed).toBeCloseTo(betaMixtureByIntegration(w, l), 9);
  });

  it('is a predictable bet: E after a win/loss = E·(1 ± λ̄) with λ̄ announced before the item', () => {
    const ep = createEProcess({ kind: 'beta' }, 'binary');
    for (const d of [1, 1, -1, 1, -1, -1, 1, 1, 1]) {
      const before = ep.logWealth();
      const bet = ep.nextBet();
      ep.observe(d);
      expect(ep.logWealth()).toBeCloseTo(before + Math.log1p(bet * d), 12);
      expect(bet).toBeGreaterThanOrEqual(0);
      expect(bet).toBeLessThan(1);
    }
  });

  it('logBest(m) is E(W + m, L) exactly', () => {
    const ep = createEProcess({ kind: 'beta' }, 'binary');
    [1, -1, 1].forEach((d) => ep.observe(d));
    expect(ep.logBest(4)).toBe(betaMixtureLogWealth(6, 1));
  });
});

describe('grid mixture (GATES.md 4.1)', () => {
  it('equals the average of the component wealths, for binary and continuous Δ', () => {
    const deltas = [1, -1, 0.4, 1, -0.25, 1];
    const ep = createEProcess({ kind: 'mixture', lambdas: CONTINUOUS_GRID }, 'continuous');
    deltas.forEach((d) => ep.observe(d));
    const components = CONTINUOUS_GRID.map((l) => deltas.reduce((e, d) => e * (1 + l * d), 1));
    expect(Math.exp(ep.logWealth())).toBeCloseTo(components.reduce((a, b) => a + b, 0) / components.length, 12);
  });

  it('is the predictable bet λ_k = Σ π_g E_g λ_g / Σ π_g E_g', () => {
    const ep = createEProcess({ kind: 'mixture', lambdas: DEFAULT_GRID }, 'binary');
    for (const d of [1, 1, -1, 1, -1]) {
      const before = ep.logWealth();
      const bet = ep.nextBet();
      ep.observe(d);
      expect(ep.logWealth()).toBeCloseTo(before + Math.log1p(bet * d), 12);
    }
    expect(createEProcess({ kind: 'mixture', lambdas: DEFAULT_GRID }, 'binary').nextBet()).toBeCloseTo((0.3 + 0.5 + 0.7 + 0.85) / 4, 14);
  });

  it('logBest(m) is the exact wealth after m more wins', () => {
    const a = createEProcess({ kind: 'mixture', lambdas: DEFAULT_GRID }, 'binary');
    const b = createEProcess({ kind: 'mixture', lambdas: DEFAULT_GRID }, 'binary');
    [1, -1, -1, 1].forEach((d) => {
      a.observe(d);
      b.observe(d);
    });
    const best = a.logBest(7);
    for (let k = 0; k < 7; k++) b.observe(1);
    expect(best).toBeCloseTo(b.logWealth(), 12);
  });

  it('stays finite in log space where the wealth itself overflows a double', () => {
    const ep = createEProcess({ kind: 'mixture', lambdas: DEFAULT_GRID }, 'binary');
    for (let k = 0; k < 2000; k++) ep.observe(1);
    expect(Math.exp(ep.logWealth())).toBe(Infinity);
    expect(ep.logWealth()).toBeCloseTo(2000 * Math.log1p(0.85) - Math.log(4), 6);
    const down = createEProcess({ kind: 'mixture', lambdas: DEFAULT_GRID }, 'binary');
    for (let k = 0; k < 2000; k++) down.observe(-1);
    expect(down.logWealth()).toBeCloseTo(2000 * Math.log1p(-0.3) - Math.log(4), 6);
  });
});

describe('plug-in bettors follow their recursions', () => {
  it('aGRAPA binary: λ = clip(2q̂ − 1, 0, 0.8), q̂ = (W + 1.5)/(W + L + 2)', () => {
    const deltas = [1, 1, -1, ...Array<number>(14).fill(1), -1];
    const expected: [number, number][] = [];
    let w = 0;
    let l = 0;
    let logE = 0;
    for (const d of deltas) {
      const bet = Math.min(0.8, Math.max(0, (2 * (w + 1.5)) / (w + l + 2) - 1));
      logE += Math.log1p(bet * d);
      expected.push([bet, logE]);
      if (d > 0) w++;
      else l++;
    }
    expect(path({ kind: 'agrapa' }, deltas)).toEqual(expected);
    expect(expected[0]![0]).toBe(0.5); // the simulator's first bet (GATES.md 4.1)
    expect(expected.some(([bet]) => bet === 0.8)).toBe(true); // the cap binds
  });

  it('aGRAPA continuous: regularised moments with μ₀ = 0, σ₀² = ¼, cap 0.75 (4.4)', () => {
    const deltas = [0.5, -0.2, 0.3, 0.9, -0.6];
    const expected: [number, number][] = [];
    const seen: number[] = [];
    const predicted: number[] = [];
    let logE = 0;
    for (const d of deltas) {
      const k = seen.length + 1;
      const mu = seen.reduce((a, b) => a + b, 0) / k;
      const variance = (0.25 + seen.reduce((a, x, j) => a + (x - predicted[j]!) ** 2, 0)) / k;
      const bet = Math.min(0.75, Math.max(0, mu / (variance + mu * mu)));
      logE += Math.log1p(bet * d);
      expected.push([bet, logE]);
      seen.push(d);
      predicted.push(mu);
    }
    const got = path({ kind: 'agrapa' }, deltas, 'continuous');
    got.forEach(([bet, le], j) => {
      expect(bet).toBeCloseTo(expected[j]![0], 12);
      expect(le).toBeCloseTo(expected[j]![1], 12);
    });
    expect(got[0]![0]).toBe(0); // μ̂₁ = μ₀ = 0: no bet before any data
    expect(got[1]![0]).toBe(0.75); // 0.25/(0.25 + 0.0625) = 0.8, capped
  });

  it.each([
    [{ kind: 'ons' } as BettorSpec, 0, 0.5],
    [{ kind: 'ons', lambda1: 0.5, cap: 0.8 } as BettorSpec, 0.5, 0.8],
  ])('ONS %j: z = −Δ/(1 + λΔ), A = 1 + Σz², λ ← clip(λ − 2/(2 − ln 3)·z/A, 0, c)', (spec, lambda1, cap) => {
    const deltas = [1, 1, -1, 1, 1, -1, -1, 1, 1, 1];
    const expected: [number, number][] = [];
    let lambda = lambda1;
    let a = 1;
    let logE = 0;
    for (const d of deltas) {
      logE += Math.log1p(lambda * d);
      expected.push([lambda, logE]);
      const z = -d / (1 + lambda * d);
      a += z * z;
      lambda = Math.min(cap, Math.max(0, lambda - ((2 / (2 - Math.log(3))) * z) / a));
    }
    expect(path(spec, deltas)).toEqual(expected);
  });

  it('plug-in logBest is the (1 + c)^m upper bound of GATES.md 4.2', () => {
    const ep = createEProcess({ kind: 'agrapa' }, 'binary');
    [1, -1].forEach((d) => ep.observe(d));
    expect(ep.exactBest).toBe(false);
    expect(ep.logBest(5)).toBe(ep.logWealth() + 5 * Math.log1p(0.8));
  });
});

describe('admissible bets', () => {
  it.each([
    [{ kind: 'fixed', lambda: 1 }, 'binary'],
    [{ kind: 'fixed', lambda: 0 }, 'binary'],
    [{ kind: 'fixed', lambda: 0.85 }, 'continuous'],
    [{ kind: 'mixture', lambdas: DEFAULT_GRID }, 'continuous'],
    [{ kind: 'mixture', lambdas: [] }, 'binary'],
    [{ kind: 'agrapa', cap: 0.9 }, 'continuous'],
    [{ kind: 'beta' }, 'continuous'],
  ] as [BettorSpec, 'binary' | 'continuous'][])('rejects %j for %s scores', (spec, scores) => {
    expect(() => createEProcess(spec, scores)).toThrow(RatchetError);
    try {
      createEProcess(spec, scores);
    } catch (err) {
      expect(RatchetError.is(err, 'badInput')).toBe(true);
    }
  });
});
