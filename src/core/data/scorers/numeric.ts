/**
 * The numeric scorer: the answer the output states, else its last number (#25). Models state their
 * answer and often go on — "Answer: 18. Check: 18 × 2 = 36" — so an explicit answer is read first:
 * GSM8K's `#### 18`, LaTeX's `\boxed{18}`, "Final answer: 18", "the answer is 18", "Answer: 18"
 * (the strongest kind present, its last occurrence — unless the output takes it back and states
 * another later, "\boxed{12} … wait, that is wrong. The answer is 15", or takes it back and only
 * says the right number in prose, "Wait, I made a mistake. … So she makes $18"; a "####" line that
 * is a Markdown heading, a prose marker followed by words rather than its number or after words
 * that look for it ("to find the answer:"), one in a hypothetical ("if …, the answer is 126") when
 * another is stated, and a list under a bare marker are none; a base model's next few-shot
 * "Question:" and what follows are not read). Only an output
 * that states none is read by its last number (models reason first and answer last). A prompt that
 * makes the model check its answer therefore scores what it answered, not the check. A stated
 * answer that is a computation ("Answer: 3 × 6 = 18", "3 boxes × 6 = 18 dollars", "12 apples and 3
 * pears = 15", "16 - 3 - 4 = 9 eggs, and 9 × $2 = $18") is its sentence's last result, and one
 * corrected in its line ("17... wait, no: 18") what the correction says; one that hedges ("17 or
 * 18", "3, 4, or 5", "3-4") or computes without a result states no
 * number, and nor does a symbolic one ("2\sqrt{3}", "\pi/2", "1:2") or a quantity in two units ("2
 * hours 30 minutes"): the output then has no answer, and its last number is not read instead.
 *
 * Numbers: thousands separators ("1,234", thin spaces "1 234", LaTeX's `1{,}234`), currency and
 * units ("$18.00", "18 dollars", "50%"), signs ("-3", "−3"), decimals (a decimal comma "3,5"),
 * fractions ("3/4", "1 1/2", "½", `-\frac{3}{4}`), powers ("1.5e3", "1.5 × 10^3", "10⁶", "2^{10}"),
 * "2.5 million" — but not digits inside words ("CO2", "v1"), and "3-4" reads as 4, not −4. Units
 * may be attached ("18kg").
 */
import { hasExpected } from '../item';
import type { DataItem } from '../item';
import { itemScoreError } from './types';
import type { Scorer, ScorerSpecOf } from './types';

// A sign only counts when it does not follow a digit or letter (so "3-4" is a range, "x-1" a name).
// Thousands: groups of three after a comma, a no-break, thin or narrow no-break space, an
// apostrophe (Swiss), or — two groups at least, so "1.234" stays a decimal — a dot (German).
// A comma before one or two digits is a decimal comma ("3,5"), a list ("1,2,3") is not.
const NUMBER_SOURCE =
  String.raw`(?<fsign>(?<![\w.,/])[-−]\s*)?\\[dt]?frac\{\s*(?<fnum>-?\d+(?:\.\d+)?)\s*\}\{\s*(?<fden>-?\d+(?:\.\d+)?)\s*\}` +
  String.raw`|(?<![\w.,/])(?<sign>[-−+](?=[$€£¥]?\d|\.\d))?[$€£¥]?` +
  String.raw`(?:(?<whole>\d+)[ \u00a0](?<mnum>\d+)\/(?<mden>\d+)(?![\d/]|[.,]\d)` +
  String.raw`|(?<int>\d{1,3}(?:,\d{3})+(?!\d)|\d{1,3}(?:[\u00a0\u2009\u202f'’]\d{3})+(?!\d)|\d{1,3}(?:\.\d{3}){2,}(?!\.?\d)|\d+)` +
  String.raw`(?:\.(?<dec>\d+)|,(?<cdec>\d{1,2})(?![\d,]))?` +
  String.raw`(?:e(?<exp>[-+]?\d+)|[ \t]*(?:×|\\times|\\cdot|·|\*|x)[ \t]*10[ \t]*(?:\^\s*\{?\s*(?<pow>[-−+]?\d+)\s*\}?|(?<sup>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))|\^\s*\{?\s*(?<ipow>[-−]?\d+)\s*\}?)?` +
  String.raw`(?:[ \u00a0](?<scale>hundred|thousand|million|billion|trillion)\b)?` +
  String.raw`(?: ?\/ ?(?<den>\d+)(?!\d|[.,]\d))?)` +
  String.raw`|(?<![\w.,])(?<dsign>[-−]?)\.(?<frac>\d+)`;

const SCALES: Record<string, number> = { hundred: 1e2, thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };
const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const VULGAR_FRACTIONS: Record<string, string> = { '½': '1/2', '⅓': '1/3', '⅔': '2/3', '¼': '1/4', '¾': '3/4', '⅕': '1/5', '⅖': '2/5', '⅗': '3/5', '⅘': '4/5', '⅙': '1/6', '⅚': '5/6', '⅛': '1/8', '⅜': '3/8', '⅝': '5/8', '⅞': '7/8' };

/** LaTeX's thousands separators (`1{,}234`, `1\,234`, `1,\!234`) as commas; `1½` as `1 1/2`. */
function plainNumbers(text: string): string {
  return text
    .replace(/(\d)(?:\{,\}|,\\!|\\[,!;: ])(?=\d{3}(?!\d))/g, '$1,')
    .replace(/(?<![\d.])(\d+)[ \t]*\\[dt]?frac\{\s*(\d+)\s*\}\{\s*(\d+)\s*\}/g, '$1 $2/$3')
    .replace(/(?<![\d.])(\d+)[ \t]+and[ \t]+(?:a[ \t]+half\b|(\d+)\/(\d+)(?!\d))/g, (_m, w: string, n?: string, d?: string) => `${w} ${n ?? 1}/${d ?? 2}`)
    .replace(/(\d?)([½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞])/g, (_m, d: string, f: string) => (d === '' ? VULGAR_FRACTIONS[f]! : `${d} ${VULGAR_FRACTIONS[f]!}`));
}

function numberMatches(raw: string): { value: number; index: number; end: number }[] {
  const text = plainNumbers(raw);
  const out: { value: number; index: number; end: number }[] = [];
  for (const m of text.matchAll(new RegExp(NUMBER_SOURCE, 'gi'))) {
    const g = m.groups!;
    let value: number;
    if (g.fnum !== undefined) value = ((g.fsign === undefined ? 1 : -1) * Number(g.fnum)) / Number(g.fden);
    else if (g.whole !== undefined || g.int !== undefined) {
      if (g.whole !== undefined) value = Number(g.whole) + Number(g.mnum) / Number(g.mden);
      else {
        const dec = g.dec ?? g.cdec;
        value = Number(`${g.int!.replace(/\D/g, '')}${dec === undefined ? '' : `.${dec}`}${g.exp === undefined ? '' : `e${g.exp}`}`);
        const pow = g.pow ?? (g.sup === undefined ? undefined : [...g.sup].map((c) => (c === '⁻' ? '-' : c === '⁺' ? '' : String(SUPERSCRIPT_DIGITS.indexOf(c)))).join(''));
        if (pow !== undefined) value *= 10 ** Number(pow.replace('−', '-'));
        if (g.ipow !== undefined) value **= Number(g.ipow.replace('−', '-'));
        if (g.scale !== undefined) value *= SCALES[g.scale.toLowerCase()]!;
        if (g.den !== undefined && dec === undefined && g.exp === undefined && pow === undefined && g.ipow === undefined && g.scale === undefined) value /= Number(g.den);
      }
      if (g.sign === '-' || g.sign === '−') value = -value;
    } else value = Number(`${g.dsign === '' ? '' : '-'}0.${g.frac}`);
    if (Number.isFinite(value)) out.push({ value, index: m.index, end: m.index + m[0].length });
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
 * (on its line, or the next line for a bare heading such as "Final answer:"). GSM8K's `#### 18` is
 * a line holding a number alone (a unit or two may follow): a Markdown heading ("#### Step 1: …",
 * "#### 1. Find the price") is no answer. A prose marker ("the answer is", "**Answer**:") must be
 * followed by its number, not by words ("the answer is found by multiplying 3 by 6", "the answer is
 * not 17").
 */
const ANSWER_MARKERS: readonly { pattern: RegExp; prose: boolean }[] = [
  { pattern: /^[ \t>*]*####[ \t]*(?=[$€£¥−-]?[ \t]*\d(?:[\d,.'\u2009\u202f\u00a0]*\d)?[ \t]*(?:[%\p{Ll}$€£¥/]+[ \t]*){0,2}[.!*_]*[ \t]*$)/gmu, prose: false },
  { pattern: /\\boxed\{/g, prose: false },
  { pattern: /\bfinal[ \t]+answer\b[^\n\d−-]{0,24}?(?:[:=：]|\bis\b)[ \t*_]*(?:\n[ \t*_]*)?/gi, prose: true },
  { pattern: /\bfinal[ \t]+answer\b[*_:：# \t]*\n[ \t*_]*/gi, prose: true },
  { pattern: /\b(?:the[ \t]+)?answer(?:[ \t]+is|[*_ \t]*[:=：])[ \t*_]*/gi, prose: true },
];
/** Words a stated answer may put before its number ("the answer is exactly 18", "= 18"; "either 17 or 18" hedges). */
const BEFORE_NUMBER = /^[\s*_"'`\u201c(]*(?:(?:exactly|simply|just|approximately|about|around|roughly|either|equal[ \t]+to|equals|=|\$)[ \t*_]*)*[$€£¥−\-+.\d\\]/i;
/** A marker in a hypothetical ("If the question meant per week, the answer is 126"): no statement of the answer. */
const HYPOTHETICAL = /\b(?:if|suppose|supposing|assuming|were)\b[^.!?\n]*$/i;
/** The answer on the line after a bare marker is no list item ("1. Each box costs 6."). */
const LIST_ITEM = /^[ \t*_:]*(?:\n\s*(?:[*_]*\d+[.)][ \t]+\S|[-*+•][ \t]+\S)|[-+•][ \t]+\p{L})/u;
/**
 * Before a prose marker, words that look for the answer rather than state it ("Let's solve this
 * to find the answer:", "here is the answer:"): what follows is the working, not the answer.
 */
const SEEKING = /\b(?:find|get|reach|compute|calculate|determine|work[ \t]+out|arrive[ \t]+at|here[ \t]+is|here's|for)[ \t]+(?:the[ \t]+)?(?:final[ \t]+)?$/i;

/** After an answer's number, another it hedges with ("17 or 18", "5 to 6", "17 or maybe 18"): no single number. */
const HEDGE = /^(?:[ \t]*,[ \t]*[$€£¥]?[-−]?\d[\d.]*)*[ \t]*(?:,[ \t]*)?(?:\bor\b|\bto\b)[ \t]*(?:(?:maybe|perhaps|possibly)[ \t]+)?[$€£¥]?[-−]?\d/i;
/** After an answer's number, an operator: the answer is a computation ("3 × 6 = 18"), or a range ("3-4"). */
const OPERATOR = /^%?[ \t]*(?:[-+×*/÷·−–]|\\times|\\cdot|x\b)[ \t]*[$€£¥(]?[-−]?\d/i;

/** After an answer's number, the output taking it back ("17... wait, no: 18", "17. Actually, 18"). */
const CORRECTED = /^[ \t.,;:!…—–-]*\b(?:wait|no(?=[ \t]*[,:;—–-])|nope|actually|sorry|oops|correction|I[ \t]+mean)\b[^\n\d]{0,24}(?=[$€£¥−-]?\d)/i;
/**
 * After an answer's number, the rest of a computation written with words, up to its "=": words, an
 * operator, a number, words ("3 boxes × 6 = 18"). Nothing else between: "12 apples; 12 + 6 = 18
 * fruits" answers 12.
 */
const WORDY_COMPUTATION = /^(?:[ \t]*\p{L}+)*(?:[ \t]*(?:×|\\times|\\cdot|\btimes\b|÷|\+|\*(?!\*)|[ \t][-−–][ \t]|[ \t]?\/[ \t]?|\band\b|\bplus\b|\bminus\b)[ \t]*(?:\p{L}+[ \t]+)*[$€£¥]?\d[\d.,]*(?:\/\p{L}+)?(?:[ \t]*\p{L}+)*)+[ \t]*=/u;

/**
 * A quantity in two units ("2 hours 30 minutes", "3 feet, 4 inches", "1h 30m", "18 dollars and 50
 * cents") is no single number in any one unit: neither of its numbers is the answer. ("5 hours, 3
 * hours more than Bob" is one unit twice: 5.)
 */
const UNIT = String.raw`(?:[ \t]*(hours?|hrs?|minutes?|mins?|seconds?|secs?|days?|weeks?|months?|years?|yrs?|feet|foot|ft|inch(?:es)?|yards?|yds?|miles?|meters?|metres?|centimeters?|centimetres?|cm|kilometers?|kilometres?|km|pounds?|lbs?|ounces?|oz|kilograms?|kg|grams?|tons?|dollars?|cents?|euros?|pence)|([hms]))\b`;
const BETWEEN_PARTS = String.raw`[ \t]*(?:,[ \t]*|and[ \t]+)?`;
const COMPOUND_AFTER = new RegExp(String.raw`^${UNIT}${BETWEEN_PARTS}\d+(?:\.\d+)?${UNIT}`, 'i');
const COMPOUND_BEFORE = new RegExp(String.raw`\d${UNIT}${BETWEEN_PARTS}$`, 'i');
const UNIT_AFTER = new RegExp(String.raw`^${UNIT}`, 'i');

/** The number is one part of a quantity in two units (told apart by their first letters). */
function compound(text: string, m: { index: number; end: number }): boolean {
  const units = (match: RegExpExecArray | null): string[] =>
    match
      ? match
          .slice(1)
          .filter((u) => u !== undefined)
          .map((u) => u[0]!.toLowerCase())
      : [];
  const after = text.slice(m.end);
  const both = units(COMPOUND_AFTER.exec(after));
  if (both.length === 2) return both[0] !== both[1];
  const [before] = units(COMPOUND_BEFORE.exec(text.slice(0, m.index)));
  const [own] = units(UNIT_AFTER.exec(after));
  return before !== undefined && own !== undefined && before !== own;
}

/** Around a number, what makes it part of an expression that is no number: a root, π, a repeating decimal, a ratio or a time. */
const SYMBOLIC_BEFORE = /(?:\\sqrt|√|\\overline|\\bar)\s*\{?\s*$|(?:\\pi|π)\s*\}?\s*[/{]?\s*$|\d:$/;
const SYMBOLIC_AFTER = /^\.?\s*(?:\\sqrt|√|\\pi|π|\\overline|\\bar)|^:\d/;

function symbolic(text: string, m: { index: number; end: number }): boolean {
  return SYMBOLIC_BEFORE.test(text.slice(0, m.index)) || SYMBOLIC_AFTER.test(text.slice(m.end));
}

/**
 * The number an answer line states: its first, or the result of the computation it starts with;
 * null when it hedges between two numbers, computes without a result or is symbolic ("2\sqrt{3}");
 * undefined when it has none.
 */
function lineAnswer(line: string): number | null | undefined {
  const text = plainNumbers(line);
  const [first, second] = numberMatches(text);
  if (first === undefined) return undefined;
  if (symbolic(text, first)) return null;
  const rest = text.slice(first.end);
  // "2 hours 30 minutes": none, unless it goes on to a result ("= 150 minutes").
  if (compound(text, first)) {
    const eq = /^[^=\n]*=/.exec(rest);
    return eq ? (numberMatches(rest.slice(eq[0].length))[0]?.value ?? null) : null;
  }
  if (OPERATOR.test(rest)) return chainResult(rest);
  // "17... wait, no: 18": what follows the correction, read as an answer line ("wait, no: 9 × 2 = 18").
  const corrected = CORRECTED.exec(rest);
  if (corrected) return lineAnswer(rest.slice(corrected[0].length)) ?? first.value;
  // "3 boxes × 6 = 18 dollars": a computation with words in it is its result too.
  const computation = WORDY_COMPUTATION.exec(rest);
  const result = computation && numberMatches(rest.slice(computation[0].length))[0];
  if (result) return result.value;
  return second !== undefined && second.value !== first.value && HEDGE.test(rest) ? null : first.value;
}

/**
 * The result of a computation: the number after its sentence's last "=" ("16 - 3 - 4 = 9 eggs, and
 * 9 × $2 = $18." is 18; "3 × 6 = 18. Check: 18 / 2 = 9" is 18); null without one.
 */
function chainResult(rest: string): number | null {
  const sentence = rest.split(/[.!?](?=\s+\p{Lu}|\s*$)|\n\s*\n/u)[0]!;
  const eq = sentence.lastIndexOf('=');
  return eq < 0 ? null : (numberMatches(sentence.slice(eq + 1))[0]?.value ?? null);
}

interface MarkedAnswer {
  strength: number;
  index: number;
  end: number;
  value: number | null;
  /** In a hypothetical ("If …, the answer is 126"): an answer only when the output states no other. */
  hypothetical: boolean;
}

/**
 * Words that void a stated answer even when no other is stated after them ("Wait, I made a
 * mistake. … So Janet makes $18."); "Actually, 9 eggs are sold" after an answer explains it. The
 * short words only where a sentence starts ("She actually keeps 7 eggs" takes nothing back); a
 * recheck that confirms ("Let me recheck: …") is no retraction.
 */
const SENTENCE_START = String.raw`(?:^|[.!?:;)][ \t]*|\n[ \t>*_]*)`;
const TAKEN_BACK = new RegExp(
  String.raw`${SENTENCE_START}(?:wait|oops|correction)\b|\bthat(?:'s|[ \t]+is|[ \t]+was)[ \t]+(?:wrong|incorrect|not[ \t]+right)\b|\b(?:I[ \t]+made|there[ \t]+is|there[ \t]+was)[ \t]+an?[ \t]+(?:error|mistake)\b|\bI[ \t]+(?:miscalculated|was[ \t]+wrong)\b`,
  'i',
);
/** Between a stated answer and a later one, the output taking the first back: those words, or "Actually," / "Hmm," starting a sentence. */
const RETRACTED = new RegExp(String.raw`${TAKEN_BACK.source}|${SENTENCE_START}(?:actually|hmm+)\b`, 'i');

/** Every answer a marker states, in the order of the markers (strongest first), each with its place. */
function markedAnswers(text: string): MarkedAnswer[] {
  // `end`: the marker's end; what follows it on its line is the answer (and may correct itself there).
  const out: MarkedAnswer[] = [];
  ANSWER_MARKERS.forEach(({ pattern, prose }, strength) => {
    for (const m of text.matchAll(pattern)) {
      const after = text.slice(m.index + m[0].length);
      // The prose markers: a number right after them, outside a hypothetical.
      const before = text.slice(0, m.index);
      if (prose && (!BEFORE_NUMBER.test(after) || SEEKING.test(before))) continue;
      // A list under the marker (a heading's newline may be in the marker itself): no answer line.
      if (LIST_ITEM.test(m[0].includes('\n') ? `\n${after}` : after)) continue;
      // The answer's line; the next lines too while they go on with a number ("= 18", "-3"), not a list item.
      const lineEnd = after.search(/\n(?!\s*(?:[$\d\\]|[−-](?![ \t])))/);
      const line = lineEnd < 0 ? after : after.slice(0, lineEnd);
      const value = lineAnswer(line);
      if (value !== undefined) out.push({ strength, index: m.index, end: m.index + m[0].length, value, hypothetical: prose && HYPOTHETICAL.test(before) });
    }
  });
  return out;
}

/**
 * The answer the text states: its strongest marker's last occurrence, unless the output takes that
 * back later and states another ("\boxed{12} … wait, that is wrong. The answer is 15": the last one
 * after the retraction, of any marker). A number, null when it names no single number, undefined
 * when the text states none.
 */
export function statedAnswer(text: string): number | null | undefined {
  const all = markedAnswers(text);
  const stated = all.some((a) => !a.hypothetical) ? all.filter((a) => !a.hypothetical) : all;
  const strongest = Math.min(...stated.map((a) => a.strength));
  const chosen = stated.filter((a) => a.strength === strongest).at(-1);
  if (chosen === undefined) return undefined;
  const retraction = RETRACTED.exec(text.slice(chosen.end));
  if (retraction === null) return chosen.value;
  const from = chosen.end + retraction.index;
  const later = stated.filter((a) => a.index > from).sort((a, b) => a.index - b.index);
  if (later.length > 0) return later.at(-1)!.value;
  if (!TAKEN_BACK.test(text.slice(chosen.end))) return chosen.value;
  // Taken back and not stated again ("Wait, I made a mistake. … So Janet makes $18 every day."):
  // the output's last number after the retraction, as for an output that states none.
  const plain = plainNumbers(text.slice(from));
  const last = numberMatches(plain).at(-1);
  // Taken back with no number after it ("#### 18\nWait, that is wrong."): no answer.
  return last === undefined || symbolic(plain, last) || compound(plain, last) ? null : last.value;
}

/**
 * The output up to where it goes on with another question, as a base model continuing a few-shot
 * prompt does ("The answer is 18.\n\nQuestion: A robe takes…\nAnswer: … The answer is 3."), once it
 * has stated an answer: the next example's answer is not this one's.
 */
function ownAnswer(output: string): string {
  for (const m of output.matchAll(/\n[ \t]*(?:#+[ \t]*)?(?:Question|Q|Problem)[ \t]*\d*[ \t]*[:.][ \t]*\S/g)) {
    const before = output.slice(0, m.index);
    if (statedAnswer(before) !== undefined) return before;
  }
  return output;
}

/** The output's answer: the one it states, else its last number; undefined when it hedges, is symbolic or has none. */
export function answerNumber(output: string): number | undefined {
  const text = ownAnswer(output);
  const stated = statedAnswer(text);
  if (stated !== undefined) return stated ?? undefined;
  const plain = plainNumbers(text);
  const last = numberMatches(plain).at(-1);
  return last === undefined || symbolic(plain, last) || compound(plain, last) ? undefined : last.value;
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
