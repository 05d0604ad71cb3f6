/**
 * A learned Bradley–Terry head over response embeddings (issue #17, optional: needs an embedding
 * model). Each response gets a strength s(e) = w·e; P(a ≻ b) = σ(s(a) − s(b)) = σ(w·(e_a − e_b)).
 * It is trained on the known-order pairs (labels from how the pairs were made, never from a judge)
 * by minimising the mean logistic loss on embedding differences plus (λ/2)‖w‖².
 *
 * Why this form: with no bias term the model is antisymmetric — swapping a and b gives
 * 1 − P — so it has no position preference to correct and needs no mirrored copies of the data;
 * every training label is "the first is better" and the loss is still the full logistic loss.
 *
 * Training is full-batch gradient descent with a backtracking (Armijo) step from w = 0: the loss
 * is convex and smooth, so this converges without a learning rate to tune, and the result depends
 * only on the data and the seed, which fixes the held-out split. The held-out pairwise accuracy
 * is what says whether the head can stand in for the judge in reward-free PACE; a head at ≈ ½
 * learned nothing.
 */
import { RatchetError } from '../errors';
import { sigmoid } from '../gates/logMath';
import { seededPermutation } from '../random';
import type { PairType } from '../journal/payloadTypes';

export interface EmbeddedPair {
  id: string;
  type?: PairType;
  better: readonly number[];
  worse: readonly number[];
}

export interface BtHead {
  weights: number[];
}

export interface BtHeadOptions {
  /** Fixes which pairs are held out. */
  seed: number;
  /** Share of pairs held out for the accuracy (¼ by default). */
  heldOutShare?: number;
  /** L2 strength λ (10⁻³ by default): keeps w finite when the training pairs are separable. */
  l2?: number;
  maxIterations?: number;
  /** Stop when the gradient's norm falls below this. */
  tolerance?: number;
}

export interface PairAccuracy {
  pairs: number;
  correct: number;
  /** undefined when there are no pairs. */
  accuracy: number | undefined;
}

export interface BtHeadFit {
  head: BtHead;
  trainIds: string[];
  heldOutIds: string[];
  train: PairAccuracy;
  heldOut: PairAccuracy;
  /** Final training objective (mean logistic loss + L2). */
  loss: number;
  iterations: number;
  converged: boolean;
}

/** P(a ≻ b) under the head. */
export function preferenceProbability(head: BtHead, a: readonly number[], b: readonly number[]): number {
  return sigmoid(dot(head.weights, a) - dot(head.weights, b));
}

/** A pair counts as correct when the head gives the better response the higher strength; equal strengths are not correct. */
export function pairAccuracy(head: BtHead, pairs: readonly EmbeddedPair[]): PairAccuracy {
  const correct = pairs.filter((p) => dot(head.weights, p.better) > dot(head.weights, p.worse)).length;
  return { pairs: pairs.length, correct, accuracy: pairs.length === 0 ? undefined : correct / pairs.length };
}

export function trainBtHead(pairs: readonly EmbeddedPair[], opts: BtHeadOptions): BtHeadFit {
  const dim = checkDimensions(pairs);
  const share = opts.heldOutShare ?? 0.25;
  if (!(share >= 0 && share < 1)) throw new RatchetError('badInput', `The held-out share must lie in [0, 1), got ${share}.`);
  const order = seededPermutation(pairs.length, opts.seed);
  const heldOutCount = Math.round(pairs.length * share);
  const heldOut = order.slice(0, heldOutCount).map((i) => pairs[i]!);
  const train = order.slice(heldOutCount).map((i) => pairs[i]!);
  const diffs = train.map((p) => p.better.map((x, k) => x - p.worse[k]!));
  const { weights, loss, iterations, converged } = minimise(diffs, dim, opts.l2 ?? 1e-3, opts.maxIterations ?? 2000, opts.tolerance ?? 1e-6);
  const head = { weights };
  return {
    head,
    trainIds: train.map((p) => p.id),
    heldOutIds: heldOut.map((p) => p.id),
    train: pairAccuracy(head, train),
    heldOut: pairAccuracy(head, heldOut),
    loss,
    iterations,
    converged,
  };
}

function checkDimensions(pairs: readonly EmbeddedPair[]): number {
  const dim = pairs[0]?.better.length ?? 0;
  if (dim === 0) throw new RatchetError('badInput', 'A Bradley–Terry head needs at least one pair of non-empty embeddings.');
  for (const p of pairs) {
    if (p.better.length !== dim || p.worse.length !== dim) {
      throw new RatchetError('badInput', `Pair ${p.id} has embeddings of ${p.better.length} and ${p.worse.length} numbers; the first pair has ${dim}. Were they made by different embedding models?`);
    }
    if (![...p.better, ...p.worse].every(Number.isFinite)) throw new RatchetError('badInput', `Pair ${p.id} has an embedding value that is not a finite number.`);
  }
  return dim;
}

/** Mean log(1 + e^(−w·x)) + (λ/2)‖w‖², and its gradient. */
function objective(diffs: readonly number[][], w: readonly number[], l2: number): { value: number; grad: number[] } {
  const grad = w.map((x) => l2 * x);
  let value = (l2 / 2) * dot(w, w);
  const n = Math.max(1, diffs.length);
  for (const x of diffs) {
    const z = dot(w, x);
    value += softplus(-z) / n;
    const g = -sigmoid(-z) / n;
    for (let k = 0; k < x.length; k++) grad[k]! += g * x[k]!;
  }
  return { value, grad };
}

function minimise(diffs: readonly number[][], dim: number, l2: number, maxIterations: number, tolerance: number) {
  let w = new Array<number>(dim).fill(0);
  let current = objective(diffs, w, l2);
  let step = 1;
  for (let it = 0; it < maxIterations; it++) {
    const g2 = dot(current.grad, current.grad);
    if (Math.sqrt(g2) < tolerance) return { weights: w, loss: current.value, iterations: it, converged: true };
    // Armijo backtracking; the step grows again after an accepted one so a flat region is crossed quickly.
    let accepted = false;
    for (; step >= 1e-12; step /= 2) {
      const next = w.map((x, k) => x - step * current.grad[k]!);
      const trial = objective(diffs, next, l2);
      if (trial.value <= current.value - 0.5 * step * g2) {
        w = next;
        current = trial;
        step *= 2;
        accepted = true;
        break;
      }
    }
    // No step lowers the loss in floating point: this is the optimum to machine precision.
    if (!accepted) return { weights: w, loss: current.value, iterations: it, converged: true };
  }
  return { weights: w, loss: current.value, iterations: maxIterations, converged: false };
}

function softplus(x: number): number {
  return Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x)));
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k]! * b[k]!;
  return s;
}
