/**
 * The values a judging model writes after its answer tag (untrusted.ts `taggedValues`), read as it
 * meant them (#25): a verdict (`B`, `**B**`, `[[B]]`, `Response B`, `\boxed{A}`, `a tie`) or a grade
 * (`7`, `7/10`, `7 out of 10`, `**0.8**`, `80%`). A value that names several choices — the answer
 * format echoed back ("A, B or tie", "0–10") — or one the model doubts, corrects or ranks below the
 * other in the same breath ("7?", "8, no, 7", "A is worse") is no value: the caller asks again,
 * then records an abstention; it never guesses.
 */

export type Verdict = 'A' | 'B' | 'tie';

/** A verdict and where, in the value as written, its word starts (for the logprobs of that token). */
export interface VerdictValue {
  verdict: Verdict;
  at: number;
}

/** Wrappers models put around a value: quotes, emphasis, code ticks, brackets, LaTeX. */
const OPENERS = String.raw`[\s*_\x60"'\u201c\u2018$]*(?:\\boxed\{|\\text\{|\\textbf\{|\\mathrm\{|\\mathbf\{){0,2}[\s*_\x60"'\u201c\u2018]*(?:\[\[?|\(|\{)?[\s*_\x60"'\u201c\u2018]*`;
const SLOT_WORDS = '(?:the\\s+)?(?:response|slot|option|assistant|candidate|answer|prompt|program|output|choice|model|version)\\s*';
const SLOT = new RegExp(`^${OPENERS}(?:${SLOT_WORDS}[(\\[]?)?([AB])(?![\\p{L}\\p{N}])`, 'iu');
const TIE = new RegExp(`^${OPENERS}(?:(?:it'?s\\s+)?an?\\s+)?(tie|draw|equal|neither|same)(?![\\p{L}])`, 'iu');
/**
 * After a choice, another one: the format echoed back ("A or B", "A/B/tie", "A, B or tie"), or
 * both named as one ("A and B are equal", "A = B"): no single verdict.
 */
const ANOTHER_CHOICE = new RegExp(`^[\\]\\)\\}*_\\x60"'\\u201d\\u2019\\s]*(?:,|/|\\||\\bor\\b|\\band\\b|&|==?|≈|\\bvs\\b\\.?|\\bversus\\b)\\s*[*_\\x60"'\\u201c\\u2018]*(?:${SLOT_WORDS})?(?:[AB]|tie)(?![\\p{L}\\p{N}])`, 'iu');

/**
 * After a choice, words that doubt it or rank it below the other ("A?", "A? no, B", "A is worse",
 * "A is the weaker one"): the choice named first is not the verdict, and no other is read from prose.
 */
const NOT_CHOSEN = new RegExp(
  `^[\\]\\)\\}*_\\x60"'\\u201d\\u2019\\s]*(?:\\?|(?:is|'s|was|seems|looks|ranks|comes)?\\s*(?:the\\s+)?(?:worse|worst|inferior|weaker|wrong|incorrect|loses|lost|behind|not\\s+(?:better|the\\s+better|preferred))(?![\\p{L}]))`,
  'iu',
);
/**
 * After a value, the model correcting or doubting it ("8, no, 7", "A, no, B", "A. Actually, B",
 * "7?"): the value named first is not its answer, and no other is read from the words after it.
 */
const CORRECTION = /^[\])}*_\x60"'\u201d\u2019\s]*(?:\?|[,;.:!–—-]*\s*(?:no(?:pe)?(?=\s*[,;:.!]|\s+[\d.])|actually|wait|sorry|(?:or\s+)?rather|make\s+that|I\s+mean|scratch\s+that|correction)(?![\p{L}]))/iu;
/** After a choice, "is below" the other: "A < B" (the other is the verdict). */
const BELOW = new RegExp(`^[\\]\\)\\}*_\\x60"'\\u201d\\u2019\\s]*<\\s*[*_\\x60"'\\u201c\\u2018]*(?:${SLOT_WORDS})?([AB])(?![\\p{L}\\p{N}])`, 'iu');

/** The verdict a value names, or undefined when it names none or several. */
export function readVerdict(raw: string): VerdictValue | undefined {
  const tie = TIE.exec(raw);
  if (tie) {
    const rest = raw.slice(tie[0].length);
    return ANOTHER_CHOICE.test(rest) || CORRECTION.test(rest) ? undefined : { verdict: 'tie', at: tie.index + tie[0].length - tie[1]!.length };
  }
  const slot = SLOT.exec(raw);
  if (!slot) return undefined;
  const letter = slot[1]!;
  const rest = raw.slice(slot[0].length);
  // A lower-case "a" before a word is the article ("a better response"), not slot A.
  if (letter === 'a' && /^\s+\p{L}/u.test(rest)) return undefined;
  const below = BELOW.exec(rest);
  if (below) {
    const other = below[1]!.toUpperCase() as 'A' | 'B';
    return other === letter.toUpperCase() ? undefined : { verdict: other, at: slot[0].length + below[0].length - 1 };
  }
  if (ANOTHER_CHOICE.test(rest) || NOT_CHOSEN.test(rest) || CORRECTION.test(rest)) return undefined;
  return { verdict: letter.toUpperCase() as 'A' | 'B', at: slot[0].length - 1 };
}

const NUMBER = String.raw`(\d+(?:\.\d+)?|\.\d+)`;
const GRADE = new RegExp(`^${OPENERS}(?:score|grade|rating)?\\s*[:=]?\\s*${NUMBER}[*_\\x60"'\\s]*(%|(?:/|out\\s+of|of)\\s*[*_\\x60]*${NUMBER})?`, 'i');
/** After a grade, another grade or a range: the scale echoed back ("0-10", "7 or 8"), or a change of mind ("7 → 8"). */
const ANOTHER_GRADE = /^[\])}*_`"'\s]*(?:-|–|—|\bto\b|\bor\b|,|\/|→|->|=>|⇒)\s*[*_`]*\d/i;

/**
 * The grade a value names, as a fraction of `scale` in [0, 1]: "n" (out of `scale`), "n/m",
 * "n out of m" or "p%"; undefined when there is none, several, or one out of range.
 */
export function readGrade(raw: string, scale: number): number | undefined {
  const m = GRADE.exec(raw);
  if (!m) return undefined;
  const rest = raw.slice(m[0].length);
  if (ANOTHER_GRADE.test(rest) || CORRECTION.test(rest)) return undefined;
  const value = Number(m[1]);
  // On a scale above 1, a bare "0.7" is a fraction written as one, not seven hundredths of the scale.
  if (m[2] === undefined && scale > 1 && value > 0 && value < 1) return undefined;
  const outOf = m[2] === '%' ? 100 : m[3] !== undefined ? Number(m[3]) : scale;
  if (!(outOf > 0) || !(value >= 0) || value > outOf) return undefined;
  return value / outOf;
}
