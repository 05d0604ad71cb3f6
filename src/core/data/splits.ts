/**
 * Three disjoint splits of a dataset (GATES.md 1.1, requirement A1): `feedback` is all the proposer
 * may see, `dev` is what the gate tests on, `test` is held out for reporting.
 *
 * Assignment: items are ordered by `hashSeed(seed, 'split', id)` (ties by id) and cut in the order
 * dev, test, feedback. So the splits depend on the run seed and the item ids only — never on file
 * order — and changing the test or feedback share leaves the dev set as it was. Each split keeps
 * that hashed order; the gate draws its own item order per test (A2).
 *
 * Sizes: fractions are turned into counts by largest remainder (ties go to dev, then test), so they
 * always add up; with counts, splits left out share what remains in the default proportions.
 */
import { RatchetError } from '../errors';
import { hashSeed } from '../random';
import { diagnostic, lineLocation } from './diagnostics';
import type { Diagnostic } from './diagnostics';
import { stableJson } from './item';
import type { DataItem } from './item';

export const SPLIT_NAMES = ['feedback', 'dev', 'test'] as const;
export type SplitName = (typeof SPLIT_NAMES)[number];

export type SplitPlan = { kind: 'fractions'; feedback: number; dev: number; test: number } | { kind: 'counts'; feedback?: number; dev?: number; test?: number };

export const DEFAULT_SPLIT_FRACTIONS: Readonly<Record<SplitName, number>> = { feedback: 0.2, dev: 0.6, test: 0.2 };

export type SplitSizes = Record<SplitName, number>;

export interface Splits {
  feedback: DataItem[];
  dev: DataItem[];
  test: DataItem[];
}

/** Cutting order: dev first, so it is the most stable split. */
const CUT_ORDER: readonly SplitName[] = ['dev', 'test', 'feedback'];

export function splitSizes(n: number, plan: SplitPlan): SplitSizes {
  if (plan.kind === 'fractions') {
    const total = Math.min(n, Math.floor(n * (plan.feedback + plan.dev + plan.test) + 1e-9));
    return apportion(total, plan);
  }
  const given = SPLIT_NAMES.filter((s) => plan[s] !== undefined);
  const used = given.reduce((sum, s) => sum + plan[s]!, 0);
  if (used > n) {
    const asked = given.map((s) => `${s} ${plan[s]}`).join(', ');
    throw new RatchetError('badInput', `split asks for ${used} items (${asked}) but the dataset has ${n}`, { field: 'split', items: n });
  }
  const missing = SPLIT_NAMES.filter((s) => plan[s] === undefined);
  const shares = Object.fromEntries(SPLIT_NAMES.map((s) => [s, missing.includes(s) ? DEFAULT_SPLIT_FRACTIONS[s] : 0])) as SplitSizes;
  const rest = missing.length > 0 ? apportion(n - used, shares) : { feedback: 0, dev: 0, test: 0 };
  return { feedback: plan.feedback ?? rest.feedback, dev: plan.dev ?? rest.dev, test: plan.test ?? rest.test };
}

/** Largest-remainder apportionment of `total` items by `weights`. */
function apportion(total: number, weights: Readonly<Record<SplitName, number>>): SplitSizes {
  const sum = SPLIT_NAMES.reduce((s, k) => s + weights[k], 0);
  const sizes: SplitSizes = { feedback: 0, dev: 0, test: 0 };
  if (sum <= 0 || total <= 0) return sizes;
  const exact = SPLIT_NAMES.map((k) => ({ k, x: (total * weights[k]) / sum }));
  for (const { k, x } of exact) sizes[k] = Math.floor(x + 1e-9);
  let left = total - SPLIT_NAMES.reduce((s, k) => s + sizes[k], 0);
  const byRemainder = [...exact].sort((a, b) => b.x - Math.floor(b.x + 1e-9) - (a.x - Math.floor(a.x + 1e-9)) || CUT_ORDER.indexOf(a.k) - CUT_ORDER.indexOf(b.k));
  for (const { k } of byRemainder) {
    if (left <= 0) break;
    if (weights[k] <= 0) continue;
    sizes[k]++;
    left--;
  }
  return sizes;
}

/** The items in the order that decides their split for this seed. */
export function splitOrder(items: readonly DataItem[], seed: number): DataItem[] {
  const keyed = items.map((item) => ({ item, key: hashSeed(seed, 'split', item.id) }));
  keyed.sort((a, b) => a.key - b.key || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0));
  return keyed.map((k) => k.item);
}

export function splitItems(items: readonly DataItem[], plan: SplitPlan, seed: number): Splits {
  const sizes = splitSizes(items.length, plan);
  const ordered = splitOrder(items, seed);
  const out: Splits = { feedback: [], dev: [], test: [] };
  let at = 0;
  for (const name of CUT_ORDER) {
    out[name] = ordered.slice(at, at + sizes[name]);
    at += sizes[name];
  }
  return out;
}

/**
 * Items that sit in two splits (explicit split files can overlap). Same id or same variables both
 * count: a dev item copied into the feedback file would be shown to the proposer (A1).
 */
export function splitOverlaps(splits: Splits): Diagnostic[] {
  const seen = new Map<string, { split: SplitName; item: DataItem }>();
  const out: Diagnostic[] = [];
  for (const split of CUT_ORDER) {
    for (const item of splits[split]) {
      const keys = [`id:${item.id}`, `vars:${stableJson(item.vars)}`];
      const prior = keys.map((k) => seen.get(k)).find((p) => p !== undefined && p.split !== split);
      if (prior) {
        const where = `${prior.item.source.file}:${prior.item.source.line}`;
        out.push(diagnostic(lineLocation(item.source.file, item.source.line), `item is in both the ${prior.split} and the ${split} split (also at ${where}); the splits must be disjoint so the proposer never sees a dev or test item`));
      }
      for (const k of keys) if (!seen.has(k)) seen.set(k, { split, item });
    }
  }
  return out;
}

export interface SplitAdviceOptions {
  /** Gate name as shown to the user, e.g. "PACE+". */
  gate: string;
  alpha: number;
  /** Fewest consecutive wins the gate needs to commit at this α (from the gate; 6 for PACE+ at 0.05); Infinity: never on this dev set. */
  minWins?: number;
  /** Below this many dev items, warn that only large gains are detectable. Default 20. */
  recommendedDev?: number;
}

export interface SplitAdvice {
  split: SplitName;
  message: string;
}

/** Warnings about split sizes, each with a concrete suggestion. */
export function splitAdvice(sizes: SplitSizes, opts: SplitAdviceOptions): SplitAdvice[] {
  const out: SplitAdvice[] = [];
  const n = sizes.feedback + sizes.dev + sizes.test;
  const recommended = opts.recommendedDev ?? 20;
  const suggestion = suggestSplit(n, recommended);
  const needs =
    opts.minWins === undefined
      ? ''
      : Number.isFinite(opts.minWins)
        ? `: ${opts.gate} at α = ${opts.alpha} needs at least ${opts.minWins} consecutive wins to commit`
        : `: ${opts.gate} at α = ${opts.alpha} cannot reach 1/α even if the candidate wins all ${sizes.dev}`;
  if (sizes.dev === 0) {
    out.push({ split: 'dev', message: `dev split is empty, so the gate has nothing to test on; add items or give dev a share (${suggestion})` });
  } else if (opts.minWins !== undefined && sizes.dev < opts.minWins) {
    out.push({ split: 'dev', message: `dev split has ${sizes.dev} items${needs}, so it can never commit; add items or use a larger dev share (${suggestion})` });
  } else if (sizes.dev < recommended) {
    const detail = needs === '' ? ', too few to detect anything but large gains' : `${needs}, so only large gains can be detected`;
    out.push({ split: 'dev', message: `dev split has ${sizes.dev} items${detail}; add items or use a larger dev share (${suggestion})` });
  }
  if (sizes.feedback === 0) out.push({ split: 'feedback', message: 'feedback split is empty: the proposer sees no examples and edits blind' });
  if (sizes.test === 0) out.push({ split: 'test', message: 'test split is empty: gains cannot be confirmed on held-out items' });
  return out;
}

function suggestSplit(n: number, recommended: number): string {
  if (n < recommended + 2) return `with ${n} items, add at least ${recommended + 2 - n} more for a dev split of ${recommended}`;
  const dev = Math.min(n - 2, Math.max(recommended, Math.round(0.6 * n)));
  const feedback = Math.ceil((n - dev) / 2);
  return `e.g. split: { feedback: ${feedback}, dev: ${dev}, test: ${n - dev - feedback} }`;
}

/** Split advice as diagnostics at a location (the spec's `split` or `dataset` key). */
export function splitAdviceDiagnostics(advice: readonly SplitAdvice[], at: Parameters<typeof diagnostic>[0]): Diagnostic[] {
  return advice.map((a) => diagnostic(at, a.message, { field: `split.${a.split}`, severity: 'warning' }));
}
