/**
 * Finite-population PACE (GATES.md 1.2, "Finite-population variant"): tests "better on THIS dev
 * set", the null `Σ_{i=1..n} Δ_i ≤ 0` over the n fixed dev items with their outcomes as evaluated
 * (one canonical draw per version and item, GATES.md 4.3), instead of the population null E[Δ] ≤ 0.
 *
 * The only randomness is the item order, a uniform permutation fixed before the first evaluation
 * (A2), so item k is a draw without replacement from the items not yet seen. Waudby-Smith & Ramdas
 * (2024, section 5): with `S_{k−1} = Σ_{j<k} Δ_j`, the remaining n − k + 1 items sum to at most
 * `−S_{k−1}` under H0, so the next draw has null mean at most
 *
 *     m_k = −S_{k−1} / (n − k + 1)
 *
 * and the factor `1 + λ_k (Δ_k − m_k)` with a predictable `0 ≤ λ_k ≤ 1/(1 + m_k)` is ≥ 0 with
 * conditional mean ≤ 1: the wealth is a nonnegative supermartingale and Ville's bound holds as in
 * GATES.md 3 (no i.i.d. assumption on the items is needed, only the random order).
 *
 * What n and the sum mean. PACE skips ties because their factor `1 + λ·0` is 1. Here it is not:
 * a tie is a draw of Δ = 0 and moves the wealth by `1 − λ_k m_k` (up while the candidate leads,
 * down while it trails), and a bet cannot depend on whether the item turns out to be a tie (A4).
 * So the population is every dev item of the test — ties are members with Δ = 0 — n is the dev-set
 * size and `Σ Δ_i = W − L` over the whole dev set: the null is "the candidate's dev score is at
 * most the incumbent's" (what greedy compares, GATES.md 2). Conditioning on the discordant items
 * instead would need their number before the test ends, which A4 forbids.
 *
 * The clamp. Any predictable λ_k in the range is valid; we take the bettor's own bet λ (its grid
 * value, or the plug-in bet computed from the past as in 4.1) scaled to
 *
 *     λ_k = λ · min(1, 1/(1 + m_k)),
 *
 * which is λ itself while m_k ≤ 0 (the candidate has not trailed) and otherwise keeps the worst loss
 * `λ_k (1 + m_k)` at λ. Since λ < 1, `λ_k ≤ 1/(1 + m_k)` and every factor is ≥ 1 − λ > 0: log-wealth
 * stays finite (4.7), where clamping to exactly 1/(1 + m_k) would let one loss zero the wealth.
 * When `1 + m_k ≤ 0` (the lead is at least the number of items left: under H0 every one of them
 * must be a loss, or H0 is already impossible) every factor is ≥ 1 for any λ ≥ 0 and the bound is
 * void; the bet stays λ. Continuous Δ ∈ [−1, 1] (4.4) needs nothing else: only Δ ≥ −1 is used.
 */
import { RatchetError } from '../errors';
import type { BettorSpec, EProcess, ScoreMode } from './eprocess';
import { createEProcess } from './eprocess';
import { logWeightedSumExp } from './logMath';

/** m_k = −S_{k−1}/(n − k + 1): the largest null mean of the next draw, given the sum so far and the items left. */
export function finiteNullMean(sumBefore: number, remaining: number): number {
  if (!(Number.isInteger(remaining) && remaining >= 1)) {
    throw new RatchetError('internal', `A finite-population draw needs at least one item left, got ${remaining}.`);
  }
  return sumBefore === 0 ? 0 : -sumBefore / remaining; // no −0 in records
}

/** The largest admissible bet 1/(1 + m_k); Infinity when 1 + m_k ≤ 0 (every λ ≥ 0 keeps the factor ≥ 0). */
export function finiteBetBound(m: number): number {
  return 1 + m > 0 ? 1 / (1 + m) : Infinity;
}

/** λ_k = λ·min(1, 1/(1 + m_k)): the bettor's bet, shrunk while the candidate trails so a loss costs at most λ. */
export function finiteBet(lambda: number, m: number): number {
  return m > 0 ? lambda / (1 + m) : lambda;
}

/** The wealth factor 1 + λ_k (Δ_k − m_k). */
export function finiteFactor(bet: number, delta: number, m: number): number {
  return 1 + bet * (delta - m);
}

/**
 * ln Π_{j<r} (1 + finiteBet(λ, m_j)(1 − m_j)) for each λ, along the all-wins path from the current
 * sum, m_j = −(sum + j)/(remaining − j): the futility bound's growth. `atLeastOne` floors each
 * factor at 1 (a plug-in bettor may bet 0). Plain loops: it runs after every item, O(r) per λ.
 */
function allWinsLogGrowth(lambdas: readonly number[], sum: number, remaining: number, r: number, atLeastOne: boolean): number[] {
  if (!(Number.isInteger(r) && r >= 0 && r <= remaining)) {
    throw new RatchetError('internal', `Only ${remaining} dev items are left; cannot look ${r} ahead.`);
  }
  const out = lambdas.map(() => 0);
  for (let j = 0; j < r; j++) {
    const m = -(sum + j) / (remaining - j);
    for (let g = 0; g < lambdas.length; g++) {
      const x = finiteBet(lambdas[g]!, m) * (1 - m);
      out[g]! += Math.log1p(atLeastOne && x < 0 ? 0 : x);
    }
  }
  return out;
}

/**
 * The finite-population e-process of a bettor over a dev set of n items. Unlike the population
 * processes of eprocess.ts, `observe` takes every item in the pre-fixed order, ties included
 * (Δ = 0), and `observed` counts them; `logBest(r)` may look at most at the items left.
 */
export interface FiniteEProcess extends EProcess {
  readonly n: number;
  /** m_k of the next item (throws once all n items are observed). */
  nullMean(): number;
}

/**
 * Builds the finite-population e-process (GATES.md 1.2) for a bettor of 4.1/4.4. The grid mixture
 * (and a fixed bet) is a mixture of one finite-population process per λ, so its futility bound
 * stays exact; plug-in bettors (aGRAPA, ONS, Beta) keep their own predictable bet sequence, fed
 * the non-tie Δs exactly as in the population test, and get the clamped bet on every item.
 */
export function createFiniteEProcess(spec: BettorSpec, scores: ScoreMode, n: number): FiniteEProcess {
  if (!(Number.isInteger(n) && n >= 0)) throw new RatchetError('internal', `Dev-set size must be a non-negative integer, got ${n}.`);
  const population = createEProcess(spec, scores); // validates the bets for the score mode
  switch (spec.kind) {
    case 'fixed':
      return new FiniteMixture('fixed', [spec.lambda], [1], n);
    case 'mixture': {
      const weights = spec.weights ?? spec.lambdas.map(() => 1);
      const total = weights.reduce((a, b) => a + b, 0);
      return new FiniteMixture(
        'mixture',
        spec.lambdas,
        weights.map((w) => w / total),
        n,
      );
    }
    default:
      return new FinitePlugIn(population, n);
  }
}

/** Shared bookkeeping: the running sum S and the items seen, ties included. */
abstract class FiniteBase {
  observed = 0;
  protected sum = 0;

  constructor(readonly n: number) {}

  nullMean(): number {
    if (this.observed >= this.n) throw new RatchetError('internal', `All ${this.n} dev items are observed; a finite-population test has no next draw.`);
    return finiteNullMean(this.sum, this.n - this.observed);
  }

  protected advance(delta: number): void {
    this.sum += delta;
    this.observed++;
  }
}

/** Σ_g π_g Π_j (1 + λ_{g,j} (Δ_j − m_j)), λ_{g,j} = finiteBet(λ_g, m_j): a mixture of test supermartingales. */
class FiniteMixture extends FiniteBase implements FiniteEProcess {
  readonly exactBest = true;
  readonly maxBet: number;
  private readonly logW: number[];
  private readonly logPi: number[];
  private logE = 0;

  constructor(
    readonly kind: 'fixed' | 'mixture',
    private readonly lambdas: readonly number[],
    weights: readonly number[],
    n: number,
  ) {
    super(n);
    this.logW = lambdas.map(() => 0);
    this.logPi = weights.map(Math.log);
    this.maxBet = Math.max(...lambdas);
  }

  logWealth(): number {
    return this.logE;
  }

  nextBet(): number {
    // The mixture's predictable bet on (Δ − m): Σ π_g E_g λ_{g,k} / Σ π_g E_g, as in 4.1.
    const m = this.nullMean();
    let num = 0;
    for (let g = 0; g < this.lambdas.length; g++) num += Math.exp(this.logPi[g]! + this.logW[g]! - this.logE) * finiteBet(this.lambdas[g]!, m);
    return num;
  }

  observe(delta: number): void {
    const m = this.nullMean();
    for (let g = 0; g < this.lambdas.length; g++) this.logW[g]! += Math.log1p(finiteBet(this.lambdas[g]!, m) * (delta - m));
    this.logE = logWeightedSumExp(this.logW, this.logPi);
    this.advance(delta);
  }

  /**
   * Exact (4.2): each factor grows with Δ_k, and a win lowers every later m_j, which raises every
   * later factor (finiteBet(λ, m)(Δ − m) is non-increasing in m for Δ ≥ −1); so r straight wins
   * maximise every component at once.
   */
  logBest(r: number): number {
    const growth = allWinsLogGrowth(this.lambdas, this.sum, this.n - this.observed, r, false);
    if (r === 0) return this.logE;
    return logWeightedSumExp(
      growth.map((x, g) => x + this.logW[g]!),
      this.logPi,
    );
  }
}

/** A plug-in bettor's own bet sequence, clamped per item; its wealth is tracked here. */
class FinitePlugIn extends FiniteBase implements FiniteEProcess {
  readonly exactBest = false;
  readonly kind: EProcess['kind'];
  readonly maxBet: number;
  private logE = 0;

  constructor(
    private readonly bettor: EProcess,
    n: number,
  ) {
    super(n);
    this.kind = bettor.kind;
    this.maxBet = bettor.maxBet;
  }

  logWealth(): number {
    return this.logE;
  }

  nextBet(): number {
    return finiteBet(this.bettor.nextBet(), this.nullMean());
  }

  observe(delta: number): void {
    const m = this.nullMean();
    this.logE += Math.log1p(finiteBet(this.bettor.nextBet(), m) * (delta - m));
    // The bettor's statistics see the non-tie Δs, as in the population test ("ties skipped").
    if (delta !== 0) this.bettor.observe(delta);
    this.advance(delta);
  }

  /**
   * Upper bound (4.2): a bet is at most finiteBet(maxBet, m) and a factor at most
   * 1 + max(0, that·(1 − m)), which is non-increasing in m; any r items leave m_j at or above its
   * all-wins value.
   */
  logBest(r: number): number {
    return this.logE + allWinsLogGrowth([this.maxBet], this.sum, this.n - this.observed, r, true)[0]!;
  }
}
