/**
 * The simulated worlds of `bench:evolve --worlds` (bench/README.md): GSM8K's test problems
 * (read from /work/shared/data, never copied), a stochastic agent and a proposer that mostly adds
 * neutral sentences, the same for every arm of a seed — the items, the splits, the proposals and
 * the noise of each evaluation.
 *
 * - An item i has a latent success probability u(i) = U^0.818 (U uniform), so the population mean is
 *   exactly 0.55 with a realistic spread: some problems almost always solved, some almost never.
 * - A prompt is the starting prompt plus sentences, each a proposal of the proposer: `real` (in the
 *   worlds with a real gain), `neutral` or `harmful`. Every sentence re-draws u on a random 20 % of
 *   the items (churn: the population mean stays 0.55); a real sentence then lifts every item,
 *   p = u + δ(1 − u)/0.45 (mean 0.55 + δ; a second real sentence adds nothing); each harmful one
 *   scales p by (1 − 0.05/0.55) (mean −0.05 from 0.55). The true quality of a prompt is that mean,
 *   exactly, over the population the items are drawn from.
 * - One evaluation of a prompt on an item succeeds with probability p; its uniform is keyed by
 *   (seed, prompt content, item, how many times this prompt met this item), so two arms evaluating
 *   the same prompt on the same item see the same draws.
 * - The proposer's k-th proposal of a run is real with probability 0.2 (worlds with a real gain),
 *   harmful with 0.1, else neutral, keyed by (seed, k): both arms meet the same stream of ideas.
 * - `noise`: u ≡ 0.55 on every item and no sentence changes anything: outcomes are pure coin flips.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type WorldKind = 'real25' | 'real10' | 'none' | 'noise';
export const WORLD_KINDS: readonly WorldKind[] = ['real25', 'real10', 'none', 'noise'];

export const WORLD_TITLES: Record<WorldKind, string> = {
  real25: 'a real sentence worth +0.25',
  real10: 'a real sentence worth +0.10',
  none: 'no real gain (neutral and harmful sentences)',
  noise: 'pure noise (every outcome a coin flip)',
};

export type SentenceKind = 'real' | 'neutral' | 'harmful';

export interface Sentence {
  /** The proposal that wrote it (1-based): unique in a run, the same in every arm. */
  id: number;
  kind: SentenceKind;
}

export interface GsmItem {
  index: number;
  question: string;
  answer: number;
}

export const BASE_QUALITY = 0.55;
const SPREAD = 0.818; // U^k has mean 1/(k+1) = 0.55
const CHURN = 0.2;
const HARM = 0.05;
const P_REAL = 0.2;
const P_HARMFUL = 0.1;

export interface World {
  kind: WorldKind;
  seed: number;
  delta: number;
  items: readonly GsmItem[];
  feedback: readonly GsmItem[];
  dev: readonly GsmItem[];
  /** u(i) of the starting prompt, by item index. */
  base: Float64Array;
}

let gsm: GsmItem[] | undefined;

/** GSM8K's 1,319 test problems with their final answers ("#### 18"). */
export function gsm8k(dir = process.env.RATCHET_GSM8K ?? '/work/shared/data/gsm8k'): readonly GsmItem[] {
  gsm ??= readFileSync(join(dir, 'test.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line, index) => {
      const r = JSON.parse(line) as { question: string; answer: string };
      return { index, question: r.question, answer: Number(r.answer.split('####').pop()!.trim().replace(/,/g, '')) };
    });
  return gsm;
}

/** A fast, well-mixed 32-bit hash of small integers, as a uniform in [0, 1). */
export function hashUniform(a: number, b: number, c: number, d = 0): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) ^ Math.imul(c + 0x7f4a7c15, 0x297a2d39);
  h = Math.imul(h ^ (h >>> 12), 0x9e3779b1) ^ Math.imul(d + 0x165667b1, 0x85ebca77);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

export function makeWorld(kind: WorldKind, seed: number, sizes: { feedback: number; dev: number }): World {
  const items = gsm8k();
  const order = items.map((it) => ({ it, key: hashUniform(seed, 1, it.index) })).sort((a, b) => a.key - b.key);
  const base = new Float64Array(items.length);
  for (const it of items) base[it.index] = kind === 'noise' ? BASE_QUALITY : hashUniform(seed, 2, it.index) ** SPREAD;
  return {
    kind,
    seed,
    delta: kind === 'real25' ? 0.25 : kind === 'real10' ? 0.1 : 0,
    items,
    feedback: order.slice(0, sizes.feedback).map((o) => o.it),
    dev: order.slice(sizes.feedback, sizes.feedback + sizes.dev).map((o) => o.it),
    base,
  };
}

/** What the proposer's k-th proposal of the run adds. */
export function proposalKind(w: World, k: number): SentenceKind {
  const r = hashUniform(w.seed, 3, k);
  const real = w.delta > 0 ? P_REAL : 0;
  if (r < real) return 'real';
  if (r < real + P_HARMFUL && w.kind !== 'noise') return 'harmful';
  return 'neutral';
}

/** P(success) of a prompt with these sentences (in the order they were added) on item `index`. */
export function successProbability(w: World, sentences: readonly Sentence[], index: number): number {
  if (w.kind === 'noise') return BASE_QUALITY;
  let u = w.base[index]!;
  let real = false;
  let harmful = 0;
  for (const s of sentences) {
    if (hashUniform(w.seed, 4, s.id, index) < CHURN) u = hashUniform(w.seed, 5, s.id, index) ** SPREAD;
    if (s.kind === 'real') real = true;
    else if (s.kind === 'harmful') harmful++;
  }
  const p = real ? u + (w.delta * (1 - u)) / (1 - BASE_QUALITY) : u;
  return p * (1 - HARM / BASE_QUALITY) ** harmful;
}

/** The population mean of successProbability: the prompt's true quality. */
export function trueQuality(w: World, sentences: readonly Sentence[]): number {
  if (w.kind === 'noise') return BASE_QUALITY;
  const real = sentences.some((s) => s.kind === 'real');
  const harmful = sentences.filter((s) => s.kind === 'harmful').length;
  return (BASE_QUALITY + (real ? w.delta : 0)) * (1 - HARM / BASE_QUALITY) ** harmful;
}

export function hasReal(sentences: readonly Sentence[]): boolean {
  return sentences.some((s) => s.kind === 'real');
}

/** The uniform of the `nth` evaluation (0-based) of the prompt `key` on item `index`. */
export function evaluationDraw(w: World, key: number, index: number, nth: number): number {
  return hashUniform(w.seed ^ 0x5bd1e995, key, index, nth);
}

/** A number naming a prompt's content (its sentences), the same in every arm. */
export function promptKey(sentences: readonly Sentence[]): number {
  let h = 0x811c9dc5;
  for (const s of sentences) h = Math.imul(h ^ s.id, 0x01000193) ^ (s.kind === 'real' ? 1 : s.kind === 'harmful' ? 2 : 3);
  return h >>> 0;
}
