/**
 * The numeric scorer: the answer the output states, else its last number (#25). Models state their
 * answer and often go on — "Answer: 18. Check: 18 × 2 = 36" — so an explicit answer is read first:
 * GSM8K's `#### 18`, LaTeX's `\boxed{18}`, "Final answer: 18", "the answer is 18", "Answer: 18"
 * (the strongest kind present, its last occurrence). Only an output that states none is read by
 * its last number (models reason first and answer last). A prompt that makes the model check its
 * answer therefore scores what it answered, not the check.
 *
 * Numbers: thousands separators ("1,234", thin spaces "1 234"), currency and units ("$18.00",
 * "18 dollars", "50%"), signs ("-3", "−3"), decimals, fractions ("3/4", `\frac{3}{4}`) — but not
 * digits inside words ("CO2", "v1"), and "3-4" reads as 4, not −4. Units may be attached ("18kg").
 */
import { hasExpected } from '../item';
import type { DataItem } from '../item';
import { itemScoreError } from './types';
import type { Scorer, ScorerSpecOf } from './types';

// A sign only counts when it does not follow a digit or letter (so "3-4" is a range, "x-1" a name).
// Groups of three after a comma, or after a thin or narrow no-break space (U+2009, U+202F).
const NUMBER_SOURCE = String.raw`\\d?frac\{\s*(-?\d+(?:\.\d+)?)\s*\}\{\s*(-?\d+(?:\.\d+)?)\s*\}|(?<![\w.,/])([-−+](?=[$€£¥]?\d|\.\d))?[$€£¥]?(\d{1,3}(?:,\d{3})+|\d{1,3}(?:[\u2009\u202f]\d{3})+|\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?(?:\/(\d+)(?![\d.,]))?|(?<![\w.,])([-−]?)\.(\d+)`;

function numberMatches(text: string): { value: number; index: number }[] {
  const out: { value: number; index: number }[] = [];
  for (const m of text.matchAll(new RegExp(NUMBER_SOURCE, 'g'))) {
    let value: number;
    if (m[1] !== undefined) value = Number(m[1]) / Number(m[2]);
    else if (m[4] !== undefined) {
      const whole = m[4].replace(/[,\u2009\u202f]/g, '');
      value = Number(`${whole}${m[5] === undefined ? '' : `.${m[5]}`}${m[6] === undefined ? '' : `e${m[6]}`}`);
      if (m[7] !== undefined && m[5] === undefined && m[6] === undefined) value /= Number(m[7]);
      if (m[3] === '-' || m[3] === '−') value = -value;
    } else value = Number(`${m[8] === '' ? '' : '-'}0.${m[9]}`);
    if (Number.isFinite(value)) out.push({ value, index: m.index });
  }
  return out;
}

/** Every number in the text, in order. */
export function numbersIn(text: string): number[] {
  return numberMatches(text).map((m) => m.value);
}

/** The last number in the text, or undefined. */
export function lastNumber(text: string): number | undefined {
  return numbersIn(text).at(-1);
}

/**
 * Where outputs state their answer, strongest first; the number is the first one after the marker
 * (on its line, or the next line for a bare heading such as "Final answer:").
 */
const ANSWER_MARKERS: readonly RegExp[] = [
  /^[ \t>*]*####[ \t]*/gm,
  /\\boxed\{/g,
  /\bfinal[ \t]+answer\b[^\n\d−-]{0,24}?(?:[:=]|\bis\b)[ \t*_]*(?:\n[ \t*_]*)?/gi,
  /\bfinal[ \t]+answer\b[*_:# \t]*\n[ \t*_]*/gi,
  /\b(?:the[ \t]+)?answer(?:[ \t]+is|[ \t]*[:=])[ \t*_]*/gi,
];

/** The answer the text states (its strongest marker's last occurrence), or undefined when it states none. */
export function statedAnswer(text: string): number | undefined {
  for (const marker of ANSWER_MARKERS) {
    let found: number | undefined;
    for (const m of text.matchAll(marker)) {
      const after = text.slice(m.index + m[0].length);
      const lineEnd = after.search(/\n(?!\s*[$\d\\−-])/);
      const first = numberMatches(lineEnd < 0 ? after : after.slice(0, lineEnd))[0];
      if (first !== undefined) found = first.value;
    }
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The output's answer: the one it states, else its last number. */
export function answerNumber(text: string): number | undefined {
  return statedAnswer(text) ?? lastNumber(text);
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
      const got = answerNumber(output);
      if (got === undefined) return Promise.resolve({ score: 0, reason: 'no number in the output' });
      const close = wanted.some((w) => Math.abs(got - w) <= Math.max(spec.tolerance, spec.relativeTolerance * Math.abs(w)));
      return Promise.resolve(close ? { score: 1 } : { score: 0, reason: `got ${got}, expected ${wanted.join(' or ')}` });
    },
  };
}
