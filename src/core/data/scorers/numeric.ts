/**
 * The numeric scorer: the LAST number in the output is the answer (models reason first and answer
 * last; "answer: 7\nCheck: 8" means 8). Tolerant of thousands separators ("1,234"), currency and
 * units ("$18.00", "18 dollars", "50%"), signs ("-3", "−3") and decimals, but not of digits inside
 * words ("CO2", "v1"), and "3-4" reads as 4, not −4. Units may be attached ("18kg", "2nd").
 */
import { hasExpected } from '../item';
import type { DataItem } from '../item';
import { itemScoreError } from './types';
import type { Scorer, ScorerSpecOf } from './types';

// A sign only counts when it does not follow a digit or letter (so "3-4" is a range, "x-1" a name).
const NUMBER =
  /(?<![\w.,])(?:[-−+](?=[$€£¥]?\d|\.\d))?[$€£¥]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|(?<![\w.,])[-−]?\.\d+/g;

/** Every number in the text, in order. */
export function numbersIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const n = Number(m[0].replace(/[,$€£¥+]/g, '').replace('−', '-'));
    if (Number.isFinite(n)) out.push(n);
  }
  return out;
}

/** The last number in the text, or undefined. */
export function lastNumber(text: string): number | undefined {
  const all = numbersIn(text);
  return all[all.length - 1];
}

function expectedNumbers(item: DataItem): number[] {
  if (!hasExpected(item)) throw itemScoreError('numeric', item, 'the item has no expected value');
  const list = Array.isArray(item.expected) ? item.expected : [item.expected];
  return list.map((v) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' ? lastNumber(v) : undefined;
    if (n === undefined || !Number.isFinite(n)) throw itemScoreError('numeric', item, `expected value ${JSON.stringify(v)} is not a number`);
    return n;
  });
}

export function numericScorer(spec: ScorerSpecOf<'numeric'>): Scorer {
  return {
    type: 'numeric',
    needsExpected: true,
    requiresTrust: false,
    score: (output, item) => {
      const wanted = expectedNumbers(item);
      const got = lastNumber(output);
      if (got === undefined) return Promise.resolve({ score: 0, reason: 'no number in the output' });
      const close = wanted.some((w) => Math.abs(got - w) <= Math.max(spec.tolerance, spec.relativeTolerance * Math.abs(w)));
      return Promise.resolve(close ? { score: 1 } : { score: 0, reason: `got ${got}, expected ${wanted.join(' or ')}` });
    },
  };
}
