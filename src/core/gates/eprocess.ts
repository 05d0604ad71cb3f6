/**
 * Betting e-processes for the paired null `E[Δ] ≤ 0` (GATES.md 3, 4.1, 4.4), all in log space (4.7).
 *
 * Each process is the wealth `E_k = Π_{j≤k} (1 + λ_j Δ_j)` of a bettor whose bet `λ_j ∈ [0, 1)`
 * depends only on `Δ_1..Δ_{j−1}` (requirement A4), so under H0 it is a nonnegative
 * supermartingale and Ville's inequality gives `P(∃k: E_k ≥ 1/α) ≤ α`. Mixtures are averages of
 * such processes, hence supermartingales too. `logBest(m)` is the largest log-wealth reachable
 * after m more items (all wins), exact where the spec gives a closed form and an upper bound for
 * plug-in bettors (4.2); the futility stop is exact either way because it only compares an upper
 * bound with the threshold.
 *
 * Ties are never passed to `observe`: a tie's factor is 1 (binary) or Δ = 0 (continuous), and
 * keeping them out of the plug-in statistics matches the paper's "ties skipped".
 */
import { RatchetError } from '../errors';
import { clip, logChoose, logSumExp, logWeightedSumExp } from './logMath';

/** Binary outcomes give Δ ∈ {−1, 0, 1}; continuous scores in [0, 1] give Δ ∈ [−1, 1] (4.4). */
export type ScoreMode = 'binary' | 'continuous';

export type BettorSpec =
  /** The paper's constant bet (section 3), λ = 0.5 there. */
  | { kind: 'fixed'; lambda: number }
  /** Fixed-weight mixture over a λ grid (4.1, the default); weights default to uniform. */
  | { kind: 'mixture'; lambdas: readonly number[]; weights?: readonly number[] }
  /**
   * aGRAPA (Waudby-Smith & Ramdas 2024, App. B). Binary: plug-in Kelly `λ = 2q̂ − 1`,
   * `q̂ = (W + a)/(W + L + a + b)`. Continuous: regularised moments with μ₀, σ₀² (4.4).
   */
  | { kind: 'agrapa'; cap?: number; a?: number; b?: number; mu0?: number; sigma0Sq?: number }
  /** Online Newton step (Cutkosky & Orabona 2018), start λ₁, cap c. */
  | { kind: 'ons'; cap?: number; lambda1?: number }
  /** Uniform prior on q ∈ [½, 1] (λ = 2q − 1), closed form (binary only). */
  | { kind: 'beta' };

export type BettorKind = BettorSpec['kind'];

/** The PACE+ default grid (4.1). */
export const DEFAULT_GRID: readonly number[] = [0.3, 0.5, 0.7, 0.85];
/** Largest bet in continuous mode, so a factor never drops below 1 − c = 0.25 (4.4). */
export const CONTINUOUS_CAP = 0.75;
/** The default grid with every λ capped at c for continuous scores (4.4: "grid with Λ ⊂ [0, c]"). */
export const CONTINUOUS_GRID: readonly number[] = [0.3, 0.5, 0.7, 0.75];

export interface EProcess {
  readonly kind: BettorKind;
  /** Items observed so far (non-ties). */
  readonly observed: number;
  /** ln E_k. */
  logWealth(): number;
  /** ln of the largest wealth reachable after m more items, every one a win (4.2). */
  logBest(m: number): number;
  /** True when logBest is exact (fixed, mixture, beta), false for an upper bound (aGRAPA, ONS). */
  readonly exactBest: boolean;
  /** The largest bet nextBet() can return: the largest λ of a grid, a plug-in's cap c, 1 for the Beta mixture. */
  readonly maxBet: number;
  /** The bet λ the next observation will use: a function of the past only (A4). */
  nextBet(): number;
  /** Multiply in the factor of one non-tie item, Δ ∈ [−1, 1] \ {0}. */
  observe(delta: number): void;
}

/**
 * Builds an e-process for a bettor (GATES.md 4.1, 4.4). Throws RatchetError('badInput') for a bet
 * outside the admissible range of the score mode — an invalid bet would void the guarantee.
 */
export function createEProcess(spec: BettorSpec, scores: ScoreMode): EProcess {
  const maxBet = scores === 'continuous' ? CONTINUOUS_CAP : 1;
  switch (spec.kind) {
    case 'fixed':
      checkBet(spec.lambda, maxBet, scores, 'lambda');
      return new MixtureProcess('fixed', [spec.lambda], [1]);
    case 'mixture': {
      if (spec.lambdas.length === 0) throw new RatchetError('badInput', 'The λ grid is empty; give at least one bet in (0, 1).');
      spec.lambdas.forEach((l) => checkBet(l, maxBet, scores, 'lambdas'));
      const weights = spec.weights ?? spec.lambdas.map(() => 1 / spec.lambdas.length);
      if (weights.length !== spec.lambdas.length || weights.some((w) => !(w > 0))) {
        throw new RatchetError('badInput', 'Mixture weights must be positive, one per λ.');
      }
      const total = weights.reduce((a, b) => a + b, 0);
      return new MixtureProcess(
        'mixture',
        spec.lambdas,
        weights.map((w) => w / total),
      );
    }
    case 'agrapa': {
      const cap = spec.cap ?? (scores === 'continuous' ? CONTINUOUS_CAP : 0.8);
      checkBet(cap, maxBet, scores, 'cap');
      return scores === 'binary' ? new AgrapaBinary(cap, spec.a ?? 1.5, spec.b ?? 0.5) : new AgrapaContinuous(cap, spec.mu0 ?? 0, spec.sigma0Sq ?? 0.25);
    }
    case 'ons': {
      const cap = spec.cap ?? 0.5;
      checkBet(cap, maxBet, scores, 'cap');
      const lambda1 = spec.lambda1 ?? 0;
      if (!(lambda1 >= 0 && lambda1 <= cap)) throw new RatchetError('badInput', `ONS start λ₁ must lie in [0, ${cap}], got ${lambda1}.`);
      return new OnsProcess(cap, lambda1);
    }
    case 'beta':
      if (scores !== 'binary') {
        throw new RatchetError('badInput', 'The Beta-mixture bettor has a closed form for binary outcomes only; use aGRAPA or a grid for continuous scores.');
      }
      return new BetaMixtureProcess();
  }
}

function checkBet(lambda: number, maxBet: number, scores: ScoreMode, what: string): void {
  const ok = Number.isFinite(lambda) && lambda > 0 && (maxBet === 1 ? lambda < 1 : lambda <= maxBet);
  if (!ok) {
    const range = maxBet === 1 ? '(0, 1)' : `(0, ${maxBet}]`;
    throw new RatchetError('badInput', `Bet ${what} = ${lambda} is outside ${range} for ${scores} scores.`, { [what]: lambda });
  }
}

/** Fixed bet = a one-component mixture; both have an exact best case (4.2). */
class MixtureProcess implements EProcess {
  readonly exactBest = true;
  readonly maxBet: number;
  observed = 0;
  private readonly logW: number[];
  private readonly logPi: number[];
  private readonly log1pLambda: number[];
  private readonly logLambda: number[];
  private logE = 0;

  constructor(
    readonly kind: 'fixed' | 'mixture',
    private readonly lambdas: readonly number[],
    weights: readonly number[],
  ) {
    this.logW = lambdas.map(() => 0);
    this.logPi = weights.map(Math.log);
    this.log1pLambda = lambdas.map(Math.log1p);
    this.logLambda = lambdas.map(Math.log);
    this.maxBet = Math.max(...lambdas);
  }

  logWealth(): number {
    return this.logE;
  }

  logBest(m: number): number {
    if (m === 0) return this.logE;
    // Σ_g π_g E_g (1 + λ_g)^m in log space; inlined because the loop calls it after every item.
    let max = -Infinity;
    for (let g = 0; g < this.logW.length; g++) max = Math.max(max, this.logPi[g]! + this.logW[g]! + m * this.log1pLambda[g]!);
    let sum = 0;
    for (let g = 0; g < this.logW.length; g++) sum += Math.exp(this.logPi[g]! + this.logW[g]! + m * this.log1pLambda[g]! - max);
    return max + Math.log(sum);
  }

  nextBet(): number {
    if (this.lambdas.length === 1) return this.lambdas[0]!;
    // The mixture is the predictable bet Σ π_g E_g λ_g / Σ π_g E_g (4.1).
    let num = 0;
    for (let g = 0; g < this.logW.length; g++) num += Math.exp(this.logPi[g]! + this.logW[g]! + this.logLambda[g]! - this.logE);
    return num;
  }

  observe(delta: number): void {
    for (let g = 0; g < this.lambdas.length; g++) this.logW[g]! += Math.log1p(this.lambdas[g]! * delta);
    this.logE = this.lambdas.length === 1 ? this.logW[0]! : logWeightedSumExp(this.logW, this.logPi);
    this.observed++;
  }
}

/** Plug-in bettors share the bookkeeping and the (1 + c)^m upper bound (4.2). */
abstract class PlugInProcess implements EProcess {
  abstract readonly kind: BettorKind;
  readonly exactBest = false;
  observed = 0;
  protected logE = 0;

  constructor(protected readonly cap: number) {}

  get maxBet(): number {
    return this.cap;
  }

  logWealth(): number {
    return this.logE;
  }

  logBest(m: number): number {
    return this.logE + m * Math.log1p(this.cap);
  }

  abstract nextBet(): number;
  protected abstract update(delta: number, bet: number): void;

  observe(delta: number): void {
    const bet = this.nextBet();
    this.logE += Math.log1p(bet * delta);
    this.update(delta, bet);
    this.observed++;
  }
}

/** aGRAPA on discordant pairs: σ̂² + μ̂² = 1, so λ = μ̂ = 2q̂ − 1 (4.1); a = 1.5, b = 0.5 make the first bet 0.5. */
class AgrapaBinary extends PlugInProcess {
  readonly kind = 'agrapa';
  private wins = 0;
  private losses = 0;

  constructor(
    cap: number,
    private readonly a: number,
    private readonly b: number,
  ) {
    super(cap);
  }

  nextBet(): number {
    const q = (this.wins + this.a) / (this.wins + this.losses + this.a + this.b);
    return clip(2 * q - 1, 0, this.cap);
  }

  protected update(delta: number): void {
    if (delta > 0) this.wins++;
    else this.losses++;
  }
}

/**
 * aGRAPA with regularised moments (4.4): μ̂_k = (μ₀ + Σ_{j<k} Δ_j)/k,
 * σ̂²_k = (σ₀² + Σ_{j<k} (Δ_j − μ̂_j)²)/k, λ_k = clip(μ̂_k/(σ̂²_k + μ̂_k²), 0, c).
 */
class AgrapaContinuous extends PlugInProcess {
  readonly kind = 'agrapa';
  private sum = 0;
  private sumSq = 0;

  constructor(
    cap: number,
    private readonly mu0: number,
    private readonly sigma0Sq: number,
  ) {
    super(cap);
  }

  private mean(): number {
    return (this.mu0 + this.sum) / (this.observed + 1);
  }

  nextBet(): number {
    const k = this.observed + 1;
    const mu = this.mean();
    const variance = (this.sigma0Sq + this.sumSq) / k;
    return clip(mu / (variance + mu * mu), 0, this.cap);
  }

  protected update(delta: number): void {
    const muBefore = this.mean(); // μ̂_j: the mean predicted before Δ_j was seen
    this.sumSq += (delta - muBefore) ** 2;
    this.sum += delta;
  }
}

/** ONS betting (4.1): z = −Δ/(1 + λΔ), A = 1 + Σ z², λ ← clip(λ − (2/(2 − ln 3)) z/A, 0, c). */
class OnsProcess extends PlugInProcess {
  readonly kind = 'ons';
  private static readonly STEP = 2 / (2 - Math.log(3));
  private lambda: number;
  private a = 1;

  constructor(cap: number, lambda1: number) {
    super(cap);
    this.lambda = lambda1;
  }

  nextBet(): number {
    return this.lambda;
  }

  protected update(delta: number, bet: number): void {
    const z = -delta / (1 + bet * delta);
    this.a += z * z;
    this.lambda = clip(this.lambda - (OnsProcess.STEP * z) / this.a, 0, this.cap);
  }
}

/**
 * Beta mixture (4.1): E(W, L) = [Σ_{j=0..W} C(D+1, j)] / [(D+1)·C(D, W)], D = W + L — the
 * integral of (2q)^W (2(1−q))^L against the uniform density 2 on [½, 1]. B_k(m) = E(W + m, L).
 */
class BetaMixtureProcess implements EProcess {
  readonly kind = 'beta';
  readonly exactBest = true;
  /** The posterior-mean bet of a prior on λ ∈ [0, 1]. */
  readonly maxBet = 1;
  observed = 0;
  private wins = 0;
  private losses = 0;
  private logE = 0;

  logWealth(): number {
    return this.logE;
  }

  logBest(m: number): number {
    return m === 0 ? this.logE : betaMixtureLogWealth(this.wins + m, this.losses);
  }

  nextBet(): number {
    // E(W+1, L) = E(W, L)·(1 + λ̄) where λ̄ is the posterior mean bet.
    return Math.exp(betaMixtureLogWealth(this.wins + 1, this.losses) - this.logE) - 1;
  }

  observe(delta: number): void {
    if (delta !== 1 && delta !== -1) throw new RatchetError('internal', `Beta mixture needs Δ = ±1, got ${delta}.`);
    if (delta > 0) this.wins++;
    else this.losses++;
    this.logE = betaMixtureLogWealth(this.wins, this.losses);
    this.observed++;
  }
}

/** ln E(W, L) of the Beta mixture, closed form of GATES.md 4.1. */
export function betaMixtureLogWealth(wins: number, losses: number): number {
  const d = wins + losses;
  const terms: number[] = [];
  for (let j = 0; j <= wins; j++) terms.push(logChoose(d + 1, j));
  return logSumExp(terms) - Math.log(d + 1) - logChoose(d, wins);
}
