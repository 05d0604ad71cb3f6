/**
 * Bradley–Terry MAP refit for parent selection (GATES.md 7.6): P(i ≻ j) = σ(θ_i − θ_j), maximise
 *   Σ_{(i,j,s)} [s log σ(θ_i − θ_j) + (1 − s) log σ(θ_j − θ_i)] − Σ_i θ_i²/(2σ₀²),  σ₀ = 2,
 * by Newton's method (dense Hessian; pools of a few hundred versions) or Hunter's MM algorithm
 * with the prior as pseudo-games against a virtual reference player. Uncertainty by an item-level
 * bootstrap (B = 200, all comparisons on a resampled item move together), percentile 95 %
 * intervals; Thompson-style selection takes the argmax of one bootstrap replicate.
 */
import type { Random } from '../ports';
import { RatchetError } from '../errors';
import { ELO_INITIAL, ELO_TAU, softmaxSelect } from './elo';
import { sigmoid } from './logMath';

/** One judged comparison of players i and j; s = i's score (1 win, ½ tie, soft values allowed). */
export interface Comparison {
  i: number;
  j: number;
  s: number;
  /** The dev item it was judged on: the bootstrap resamples items, not comparisons. */
  item?: string;
}

export interface BtOptions {
  /** Prior standard deviation of θ (σ₀ = 2). */
  sigma0?: number;
  method?: 'newton' | 'mm';
  tolerance?: number;
  maxIterations?: number;
  /** Warm start (the bootstrap starts each replicate at the full-data fit). */
  init?: readonly number[];
}

export interface BtFit {
  theta: number[];
  /** R_i = 1500 + (400/ln 10) θ_i. */
  elo: number[];
  iterations: number;
  converged: boolean;
}

/** MAP estimate of the strengths of `players` players from the comparisons (7.6). */
export function fitBradleyTerry(players: number, comparisons: readonly Comparison[], opts: BtOptions = {}): BtFit {
  validate(players, comparisons);
  const sigma0 = opts.sigma0 ?? 2;
  const tol = opts.tolerance ?? 1e-10;
  const maxIter = opts.maxIterations ?? (opts.method === 'mm' ? 100_000 : 100);
  const theta = opts.init ? [...opts.init] : new Array<number>(players).fill(0);
  const r = opts.method === 'mm' ? mm(players, comparisons, sigma0, theta, tol, maxIter) : newton(players, comparisons, sigma0, theta, tol, maxIter);
  return { theta, elo: theta.map(toElo), ...r };
}

/** The Elo scale of GATES.md 7.6: R = 1500 + (400/ln 10) θ. */
export function toElo(theta: number): number {
  return ELO_INITIAL + ELO_TAU * theta;
}

function validate(players: number, comparisons: readonly Comparison[]): void {
  if (!(Number.isInteger(players) && players >= 1)) throw new RatchetError('internal', `Bradley–Terry needs at least one player, got ${players}.`);
  for (const c of comparisons) {
    const ok = Number.isInteger(c.i) && Number.isInteger(c.j) && c.i !== c.j && c.i >= 0 && c.j >= 0 && c.i < players && c.j < players && c.s >= 0 && c.s <= 1;
    if (!ok) throw new RatchetError('internal', `Bad comparison ${JSON.stringify(c)} for ${players} players.`);
  }
}

function logPosterior(comparisons: readonly Comparison[], theta: readonly number[], sigma0: number): number {
  let f = 0;
  for (const c of comparisons) {
    const x = theta[c.i]! - theta[c.j]!;
    // log σ(x) = −log(1 + e^{−x}), computed stably for both signs
    f += c.s * -softplus(-x) + (1 - c.s) * -softplus(x);
  }
  for (const t of theta) f -= (t * t) / (2 * sigma0 * sigma0);
  return f;
}

function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

/** Newton with step halving: the objective is strictly concave (the prior), so this converges. */
function newton(p: number, comparisons: readonly Comparison[], sigma0: number, theta: number[], tol: number, maxIter: number) {
  const prec = 1 / (sigma0 * sigma0);
  let f = logPosterior(comparisons, theta, sigma0);
  for (let iter = 1; iter <= maxIter; iter++) {
    const g = theta.map((t) => -t * prec);
    const negH = Array.from({ length: p }, (_, a) => {
      const row = new Array<number>(p).fill(0);
      row[a] = prec;
      return row;
    });
    for (const c of comparisons) {
      const sg = sigmoid(theta[c.i]! - theta[c.j]!);
      g[c.i]! += c.s - sg;
      g[c.j]! -= c.s - sg;
      const w = sg * (1 - sg);
      negH[c.i]![c.i]! += w;
      negH[c.j]![c.j]! += w;
      negH[c.i]![c.j]! -= w;
      negH[c.j]![c.i]! -= w;
    }
    const step = choleskySolve(negH, g);
    let scale = 1;
    let next = theta.map((t, a) => t + step[a]!);
    let fNext = logPosterior(comparisons, next, sigma0);
    while (fNext < f && scale > 1e-6) {
      scale /= 2;
      next = theta.map((t, a) => t + scale * step[a]!);
      fNext = logPosterior(comparisons, next, sigma0);
    }
    const maxStep = Math.max(0, ...step.map((s) => Math.abs(s * scale)));
    for (let a = 0; a < p; a++) theta[a] = next[a]!;
    f = fNext;
    if (maxStep < tol) return { iterations: iter, converged: true };
  }
  return { iterations: maxIter, converged: false };
}

/** Solves A x = b for a symmetric positive definite A. */
function choleskySolve(a: number[][], b: readonly number[]): number[] {
  const n = b.length;
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = a[i]![j]!;
      for (let k = 0; k < j; k++) sum -= l[i]![k]! * l[j]![k]!;
      if (i === j) l[i]![i] = Math.sqrt(sum);
      else l[i]![j] = sum / l[j]![j]!;
    }
  }
  const y = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    let sum = b[i]!;
    for (let k = 0; k < i; k++) sum -= l[i]![k]! * y[k]!;
    y[i] = sum / l[i]![i]!;
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let sum = y[i]!;
    for (let k = i + 1; k < n; k++) sum -= l[k]![i]! * x[k]!;
    x[i] = sum / l[i]![i]!;
  }
  return x;
}

/**
 * Hunter (2004): γ_i ← W_i / Σ n_ij/(γ_i + γ_j), soft wins allowed. The prior becomes 4/σ₀²
 * half-won games against a reference player fixed at θ = 0 (one game for σ₀ = 2): that matches the
 * Gaussian prior's curvature at θ = 0, so the MM fit is close to, not identical with, the Newton MAP.
 * The reference player anchors the scale, so no renormalisation is needed.
 */
function mm(p: number, comparisons: readonly Comparison[], sigma0: number, theta: number[], tol: number, maxIter: number) {
  const pseudo = 4 / (sigma0 * sigma0);
  const wins = new Array<number>(p).fill(pseudo / 2);
  for (const c of comparisons) {
    wins[c.i]! += c.s;
    wins[c.j]! += 1 - c.s;
  }
  const gamma = theta.map(Math.exp);
  for (let iter = 1; iter <= maxIter; iter++) {
    const denom = gamma.map((g) => pseudo / (g + 1));
    for (const c of comparisons) {
      const inv = 1 / (gamma[c.i]! + gamma[c.j]!);
      denom[c.i]! += inv;
      denom[c.j]! += inv;
    }
    let maxChange = 0;
    for (let a = 0; a < p; a++) {
      const next = wins[a]! / denom[a]!;
      maxChange = Math.max(maxChange, Math.abs(Math.log(next) - Math.log(gamma[a]!)));
      gamma[a] = next;
    }
    if (maxChange < tol) {
      gamma.forEach((g, a) => (theta[a] = Math.log(g)));
      return { iterations: iter, converged: true };
    }
  }
  gamma.forEach((g, a) => (theta[a] = Math.log(g)));
  return { iterations: maxIter, converged: false };
}

/** Comparisons grouped by item; comparisons without an item are their own group. */
function groupByItem(comparisons: readonly Comparison[]): Comparison[][] {
  const groups = new Map<string, Comparison[]>();
  comparisons.forEach((c, idx) => {
    const key = c.item === undefined ? `\u0000${idx}` : `i:${c.item}`;
    const g = groups.get(key);
    if (g) g.push(c);
    else groups.set(key, [c]);
  });
  return [...groups.values()];
}

function resample(groups: readonly Comparison[][], random: Pick<Random, 'int'>): Comparison[] {
  const out: Comparison[] = [];
  for (let k = 0; k < groups.length; k++) for (const x of groups[random.int(groups.length)]!) out.push(x);
  return out;
}

export interface BtBootstrap {
  fit: BtFit;
  /** θ per replicate: replicates[b][i]. */
  replicates: number[][];
  /** Percentile interval bounds of θ (level 95 % by default). */
  lower: number[];
  upper: number[];
  /** The same bounds on the Elo scale. */
  eloLower: number[];
  eloUpper: number[];
}

/** Fit plus an item-level bootstrap with percentile intervals (7.6). */
export function bootstrapBradleyTerry(players: number, comparisons: readonly Comparison[], random: Pick<Random, 'int'>, opts: BtOptions & { replicates?: number; level?: number } = {}): BtBootstrap {
  const fit = fitBradleyTerry(players, comparisons, opts);
  const groups = groupByItem(comparisons);
  const b = opts.replicates ?? 200;
  const replicates: number[][] = [];
  for (let r = 0; r < b; r++) replicates.push(fitBradleyTerry(players, resample(groups, random), { ...opts, init: fit.theta }).theta);
  const tail = (1 - (opts.level ?? 0.95)) / 2;
  const lower: number[] = [];
  const upper: number[] = [];
  for (let i = 0; i < players; i++) {
    const values = replicates.map((th) => th[i]!).sort((x, y) => x - y);
    lower.push(quantile(values, tail));
    upper.push(quantile(values, 1 - tail));
  }
  return { fit, replicates, lower, upper, eloLower: lower.map(toElo), eloUpper: upper.map(toElo) };
}

/** Linear-interpolation quantile of sorted values (type 7). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * Thompson-style parent selection (7.6): fit one bootstrap replicate and take its argmax, or draw
 * from a softmax over its Elo-scale ratings when `tau` is given.
 */
export function thompsonSelect(players: number, comparisons: readonly Comparison[], random: Pick<Random, 'int' | 'next'>, opts: BtOptions & { tau?: number } = {}): { index: number; theta: number[] } {
  const theta = fitBradleyTerry(players, resample(groupByItem(comparisons), random), opts).theta;
  if (opts.tau !== undefined) return { index: softmaxSelect(theta.map(toElo), random, opts.tau), theta };
  let best = 0;
  theta.forEach((t, i) => {
    if (t > theta[best]!) best = i;
  });
  return { index: best, theta };
}
