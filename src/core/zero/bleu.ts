/**
 * Sentence BLEU as sacrebleu's `sentence_bleu` computes it with its defaults — the measure J-Zero's
 * repetition penalty uses to call two generated tasks near-duplicates — so a threshold quoted from
 * the paper (or checked with sacrebleu by a user) means the same here:
 *
 * - tokenisation `13a` (the mteval-v13a rules): drop `<skipped>`, join `-\n` hyphenations, turn
 *   newlines into spaces, unescape `&quot; &amp; &lt; &gt;`, then split off punctuation except the
 *   apostrophe, split `.` and `,` unless between digits, split `-` after a digit, collapse spaces.
 *   Case is kept (sacrebleu's default). The rules are ASCII ones, as in sacrebleu: non-ASCII
 *   punctuation (« », 。) stays attached to its word. Not handled: sacrebleu's other tokenisers
 *   (`intl`, `zh`, `ja-mecab`), so CJK text without spaces compares as few long tokens.
 * - n-grams up to 4, clipped counts against the one reference;
 * - smoothing `exp` (mteval's): the k-th order with no match gets precision 1/(2^k · total);
 * - effective order: a sentence too short to have n-grams of some order averages only the orders
 *   it has (sacrebleu's `use_effective_order=True` for sentences);
 * - no match at any order gives 0; brevity penalty exp(1 − r/h) when the hypothesis is shorter.
 *
 * Scores are in [0, 1] (sacrebleu's / 100). `PreparedSentence` holds a text's n-gram counts so a
 * batch compares every pair without re-tokenising.
 */

const MAX_ORDER = 4;

export interface PreparedSentence {
  tokens: number;
  /** Counts of each n-gram (tokens joined by a space), index n − 1. */
  ngrams: Map<string, number>[];
}

/** The 13a tokens of a text. */
export function tokenize13a(text: string): string[] {
  let line = text.replaceAll('<skipped>', '').replaceAll('-\n', '').replaceAll('\n', ' ');
  if (line.includes('&')) line = line.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>');
  line = ` ${line} `
    .replace(/([{-~[-` -&(-+:-@/])/g, ' $1 ')
    .replace(/([^0-9])([.,])/g, '$1 $2 ')
    .replace(/([.,])([^0-9])/g, ' $1 $2')
    .replace(/([0-9])(-)/g, '$1 $2 ');
  return line.split(/\s+/).filter((t) => t !== '');
}

export function prepareSentence(text: string): PreparedSentence {
  const tokens = tokenize13a(text);
  const ngrams: Map<string, number>[] = [];
  for (let n = 1; n <= MAX_ORDER; n++) {
    const counts = new Map<string, number>();
    for (let i = 0; i + n <= tokens.length; i++) {
      const gram = tokens.slice(i, i + n).join(' ');
      counts.set(gram, (counts.get(gram) ?? 0) + 1);
    }
    ngrams.push(counts);
  }
  return { tokens: tokens.length, ngrams };
}

/** BLEU of `hypothesis` against one `reference`, in [0, 1]. */
export function sentenceBleu(hypothesis: string | PreparedSentence, reference: string | PreparedSentence): number {
  const hyp = typeof hypothesis === 'string' ? prepareSentence(hypothesis) : hypothesis;
  const ref = typeof reference === 'string' ? prepareSentence(reference) : reference;
  const correct: number[] = [];
  const total: number[] = [];
  for (let n = 0; n < MAX_ORDER; n++) {
    let c = 0;
    let t = 0;
    for (const [gram, count] of hyp.ngrams[n]!) {
      t += count;
      c += Math.min(count, ref.ngrams[n]!.get(gram) ?? 0);
    }
    correct.push(c);
    total.push(t);
  }
  if (correct.every((c) => c === 0)) return 0;
  const bp = hyp.tokens < ref.tokens ? Math.exp(1 - ref.tokens / hyp.tokens) : 1;
  let smooth = 1;
  let order = 0;
  let logSum = 0;
  for (let n = 0; n < MAX_ORDER; n++) {
    if (total[n] === 0) break;
    order = n + 1;
    if (correct[n] === 0) {
      smooth *= 2;
      logSum += Math.log(1 / (smooth * total[n]!));
    } else {
      logSum += Math.log(correct[n]! / total[n]!);
    }
  }
  return bp * Math.exp(logSum / order);
}

/**
 * BLEU is not symmetric (the brevity penalty and the precisions look from the hypothesis); a
 * near-duplicate test must not depend on which task came first, so it takes the larger direction.
 */
export function symmetricBleu(a: string | PreparedSentence, b: string | PreparedSentence): number {
  const pa = typeof a === 'string' ? prepareSentence(a) : a;
  const pb = typeof b === 'string' ? prepareSentence(b) : b;
  return Math.max(sentenceBleu(pa, pb), sentenceBleu(pb, pa));
}
