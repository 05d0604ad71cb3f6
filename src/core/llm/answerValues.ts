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
 * After a value, the model correcting or doubting it ("8, no, 7", "A, no, B", "A. Actually, B",
 * "7?"): the value named first is not its answer, and no other is read from the words after it.
 */
const CORRECTION =
  /^[\])}*_\x60"'\u201d\u2019\s]*(?:\?|[,;.:!–—([-]*\s*(?:no(?:pe)?(?=\s*[,;:.!]|\s+[\d.]|\s+wait)|actually|wait|hold\s+on|hmm+|sorry|(?:or\s+)?rather|make\s+(?:that|it)|I\s+mean|scratch\s+that|correction|edit(?:ed)?|revised|changed\s+to|updated?|initially|at\s+first|on\s+(?:second\s+thought|reflection))(?![\p{L}]))/iu;
/**
 * A reason after a choice ("B, because A drops a digit", "B since …"): what it says is not read.
 * A reason in brackets ("B (A is wrong)") is read by `NOT_A_REASON`.
 */
const REASON = /^[\])}*_\x60"'\u201d\u2019\s]*[,;:.—–-]*\s*(?:because|since|as|given|due\s+to)\b/i;
/** Brackets after a choice that hedge, correct or rank it rather than give a reason: "A (or tie)", "A (no, B)", "A (worse)", "B (?)". */
const NOT_A_REASON =
  /^\s*(?:[AB](?![\p{L}\p{N}])(?!\s+(?:is|was|'s|has|had|does|did|gets|got|misses|missed|drops|dropped|fails|failed)\b)|or\b|maybe|perhaps|possibly|probably|arguably|likely|not\b|no\b|edit|revised|initially|at\s+first|worse|weaker|loses|lost|wrong|incorrect|\?|tie|draw|equal|same|either|both)/iu;
/**
 * After a choice (and any reason in brackets), anything that names another choice, compares, or
 * hedges: "A close call, but B", "tie → B", "A ≤ B", "A: 6, B: 9", "A y B son iguales", "A… or maybe
 * B", "Neither is perfect, but B is closer". The verdict is not clear from the line: none.
 */
const MORE_THAN_ONE_CHOICE =
  /(?<![\p{L}\p{N}])[AB](?![\p{L}\p{N}])|\b(?:tie|tied|draw|equal(?:ly)?|equivalent|same|neither|both|toss-up|coin\s+flip|or|maybe|perhaps|possibly|probably|arguably)\b|[?→⟶➝⇒≤≥≺≻⪯⪰⩽⩾＜＞~≈≅≡≃≠<>]|->|=>|&[lg]t;|\\(?:prec|succ|lt|gt|le|ge)\b/u;

/** Brackets after a tie that hedge or correct it: "tie (or A)", "tie (no, B)"; "tie (both correct)" is a reason. */
const NOT_A_TIE_REASON = /^\s*(?:[AB](?![\p{L}\p{N}])(?!\s+(?:and|&)\s+[AB]\b)|or\b|maybe|perhaps|possibly|probably|arguably|likely|not\b|no\b|edit|revised|initially|at\s+first|\?)/iu;

/** What follows a choice once a reason in brackets is set aside; undefined when the brackets hedge or correct. */
function pastReason(rest: string, tie = false): string | undefined {
  const bracket = /^[\])}*_\x60"'\u201d\u2019\s]*\(([^()]*)\)/.exec(rest);
  if (!bracket) return rest;
  return (tie ? NOT_A_TIE_REASON : NOT_A_REASON).test(bracket[1]!) ? undefined : rest.slice(bracket[0].length);
}

/** After a choice, ranked above the other: "B is better than A", "B > A", "B beats A", "Response B is more accurate than Response A". */
const ABOVE = new RegExp(
  `^[\\]\\)\\}*_\\x60"'\\u201d\\u2019\\s]*(?:(?:is|was)\\s+)?(?:(?:slightly|much|clearly|far|somewhat|a\\s+bit)\\s+)?(?:(?:better|stronger|superior|preferable|preferred|more\\s+\\p{L}+)\\s+(?:than|to|over)|>|≻|beats|outperforms|wins\\s+over|over)\\s+[*_\\x60"'\\u201c\\u2018]*(?:${SLOT_WORDS})?([AB])(?![\\p{L}\\p{N}])[*_\\x60"'\\u201d\\u2019.!\\s]*$`,
  'iu',
);

/**
 * After a slot, anywhere, words that deny or rank it down: "A is worse", "A is the weaker one", "A
 * is less accurate", "A falls short", "A has a bug", "A isn't better", "B is the loser", "A comes
 * second" (a doubt, "A?", is `MORE_THAN_ONE_CHOICE`'s). Such a line is no verdict
 * (a reason after "because" is read by `REASON` first: "B, because A has a bug").
 */
const RANKED_DOWN =
  /\b(?:not|never|no|less|worse|worst|inferior|weaker|wrong|incorrect|flawed|fails?|failed|falls?\s+short|bugs?|errors?|loser|loses|lost|second|lower|behind|lacks?|lacking|missing|misses|beaten|outperformed|underperforms?)\b|n['’]t\b/i;

/** After a choice, the other ruled out ("B, not A"), or "not" alone where a second tag cut the line ("B, not ANSWER-x: A"). */
const NOT_THE_OTHER = new RegExp(
  `^[\\]\\)\\}*_\\x60"'\\u201d\\u2019\\s]*(?:[,;:—–-]\\s*(?:and\\s+)?not\\s*$|[,;:—–-]*\\s*(?:and\\s+)?not\\s+[*_\\x60"'\\u201c\\u2018]*(?:${SLOT_WORDS})?([AB])(?![\\p{L}\\p{N}])[*_\\x60"'\\u201d\\u2019.!\\s]*$)`,
  'iu',
);

/** After a choice, "is below" the other: "A < B" (the other is the verdict). */
const BELOW = new RegExp(`^[\\]\\)\\}*_\\x60"'\\u201d\\u2019\\s]*<\\s*[*_\\x60"'\\u201c\\u2018]*(?:${SLOT_WORDS})?([AB])(?![\\p{L}\\p{N}])`, 'iu');

/** The verdict a value names, or undefined when it names none or several. */
export function readVerdict(raw: string): VerdictValue | undefined {
  const tie = TIE.exec(raw);
  if (tie) {
    const rest = raw.slice(tie[0].length);
    return ANOTHER_CHOICE.test(rest) || CORRECTION.test(rest) || !onlyThisChoice(rest, true) ? undefined : { verdict: 'tie', at: tie.index + tie[0].length - tie[1]!.length };
  }
  const slot = SLOT.exec(raw);
  if (!slot) return undefined;
  const letter = slot[1]!;
  const rest = raw.slice(slot[0].length);
  // A lower-case "a" before a word is the article ("a better response"), not slot A.
  if (letter === 'a' && /^\s+\p{L}/u.test(rest)) return undefined;
  // "B, not A", "B and not A": the other one ruled out; "B is better than A", "B > A": ranked above it.
  const notOther = NOT_THE_OTHER.exec(rest);
  const above = ABOVE.exec(rest);
  if ((notOther && (notOther[1] === undefined || notOther[1].toUpperCase() !== letter.toUpperCase())) || (above && above[1]!.toUpperCase() !== letter.toUpperCase())) {
    return { verdict: letter.toUpperCase() as 'A' | 'B', at: slot[0].length - 1 };
  }
  const below = BELOW.exec(rest);
  if (below) {
    const other = below[1]!.toUpperCase() as 'A' | 'B';
    return other === letter.toUpperCase() ? undefined : { verdict: other, at: slot[0].length + below[0].length - 1 };
  }
  if (ANOTHER_CHOICE.test(rest) || CORRECTION.test(rest) || !onlyThisChoice(rest, false)) return undefined;
  return { verdict: letter.toUpperCase() as 'A' | 'B', at: slot[0].length - 1 };
}

/** Whether the words after a choice leave it the only one: a reason, or nothing that names, compares or hedges another. */
function onlyThisChoice(rest: string, tie: boolean): boolean {
  if (REASON.test(rest)) return true;
  const after = pastReason(rest, tie);
  if (after === undefined) return false;
  if (REASON.test(after)) return true;
  // "a tie (equal)" repeats the tie in other words; after a slot a tie word is another choice.
  return tie ? !/(?<![\p{L}\p{N}])[AB](?![\p{L}\p{N}])|[?→⟶➝⇒≤≥≺≻<>~≈]|->|=>|\bor\b|\bbut\b/u.test(after) : !MORE_THAN_ONE_CHOICE.test(after) && !RANKED_DOWN.test(after);
}

const NUMBER = String.raw`(\d+(?:\.\d+)?|\.\d+)`;
const GRADE = new RegExp(`^${OPENERS}(?:score|grade|rating)?\\s*[:=]?\\s*${NUMBER}[*_\\x60"'\\s]*(%|(?:/|⁄|out\\s+of|of)\\s*[*_\\x60]*${NUMBER})?`, 'i');
/** After a grade, another grade or a range: the scale echoed back ("0-10", "7 or 8"), or a change of mind ("7 → 8"). */
const ANOTHER_GRADE = /^[\])}*_`"'\s]*(?:(?:-|–|—|\bto\b|\bor\b|,|\/|→|->|=>|⇒|⟶|➝)\s*[*_`]*\d|[½¼¾⅓⅔])/i;
/** After a number, an operator: the grade is a computation ("3 + 2 + 2 = 7", "10 − 3 = 7"), its result after the last "=". */
const COMPUTATION = /^[\])}*_`"'\s]*(?:[-+×*/÷−]|\bminus\b|\bplus\b|\btimes\b)\s*[(]?\s*\d/i;
/** After a grade, another number outside brackets, or a hedge in them: "2 minor issues → 8", "3 points off, 7", "8 (or 9)". */
const ANOTHER_NUMBER = /\d/;

/**
 * The grade a value names, as a fraction of `scale` in [0, 1]: "n" (out of `scale`), "n/m",
 * "n out of m" or "p%"; undefined when there is none, several, or one out of range.
 */
export function readGrade(raw: string, scale: number): number | undefined {
  const m = GRADE.exec(raw);
  if (!m) return undefined;
  const rest = raw.slice(m[0].length);
  // "3 + 2 + 2 = 7", "(8 + 6) / 2 = 7", "10 (−3 for the unit) = 7": the result, or none without one.
  const bracket = /^[\s*_`]*\(\s*[-−+]\s*\d[^()]*\)/.exec(rest);
  if (COMPUTATION.test(rest) || bracket) {
    const eq = raw.lastIndexOf('=');
    return eq > m.index + m[0].length - 1 ? readGrade(raw.slice(eq + 1), scale) : undefined;
  }
  if (ANOTHER_GRADE.test(rest) || CORRECTION.test(rest)) return undefined;
  const after = REASON.test(rest) ? '' : pastReason(rest);
  if (after === undefined || (!REASON.test(after) && ANOTHER_NUMBER.test(after))) return undefined;
  const value = Number(m[1]);
  // On a scale above 1, a bare "0.7" (or "1.0") is a fraction written as one, not tenths of the scale.
  if (m[2] === undefined && scale > 1 && value > 0 && (value < 1 || (value === 1 && m[1]!.includes('.')))) return undefined;
  const outOf = m[2] === '%' ? 100 : m[3] !== undefined ? Number(m[3]) : scale;
  if (!(outOf > 0) || !(value >= 0) || value > outOf) return undefined;
  return value / outOf;
}
