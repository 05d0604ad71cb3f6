/**
 * Novelty rejection for code search (ShinkaEvolve 9912af1 `core/novelty_judge.py`): a candidate
 * whose similarity to a program of its island exceeds a threshold goes to an LLM judge, and is
 * resampled when the judge says NOT_NOVEL. Similarity is the cosine of embeddings when the run
 * has an embedding model, and a token n-gram Jaccard otherwise. An exact duplicate — the same text
 * after whitespace normalisation — is never novel and is never evaluated.
 */
import { RatchetError } from '../errors';
import { sha256Hex } from '../random';

/** Shinka `EvolutionConfig.code_embed_sim_threshold`. */
export const COSINE_THRESHOLD = 0.99;
/**
 * Ratchet's own (Shinka has no n-gram stand-in): Jaccard of token trigrams stays above 0.9 only
 * when under about 5 % of the trigrams differ — a few tokens edited in a program of a few hundred.
 */
export const NGRAM_THRESHOLD = 0.9;
export const NGRAM_N = 3;
/** Shinka `get_code_embedding_async` embeds the first 10,000 characters of a file. */
export const EMBED_MAX_CHARS = 10_000;

/**
 * Text normalised for duplicate detection: line endings unified, trailing whitespace and blank
 * lines dropped, runs of inner whitespace collapsed. Leading indentation is kept, because in
 * Python or YAML it is syntax; whitespace inside string literals is collapsed too, accepted as an
 * edit not worth an evaluation.
 */
export function normaliseForDuplicate(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => {
      const indent = /^[ \t]*/.exec(line)![0];
      return indent + line.slice(indent.length).trim().replace(/\s+/g, ' ');
    })
    .filter((line) => line.trim() !== '')
    .join('\n');
}

/** The database's `textHash`: SHA-256 of the normalised text. */
export function textHash(text: string): string {
  return sha256Hex(normaliseForDuplicate(text));
}

export interface NoveltyProgram {
  id: string;
  text: string;
  /** Its embedding when the run kept one from an earlier check; embedded again otherwise. */
  embedding?: readonly number[];
}

/** The first program with the same normalised text, if any. */
export function isDuplicate(candidate: string, programs: readonly NoveltyProgram[]): string | undefined {
  const key = normaliseForDuplicate(candidate);
  return programs.find((p) => normaliseForDuplicate(p.text) === key)?.id;
}

/** Words (letters, digits, `_`) and single punctuation characters, so `a+b` and `a + b` agree. */
function tokens(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];
}

function ngrams(text: string, n: number): Set<string> {
  const t = tokens(text);
  const out = new Set<string>();
  // A text shorter than n tokens is one gram, so two short texts still compare.
  if (t.length > 0 && t.length < n) out.add(t.join('\u001f'));
  for (let i = 0; i + n <= t.length; i++) out.add(t.slice(i, i + n).join('\u001f'));
  return out;
}

/** Jaccard similarity |A ∩ B| / |A ∪ B| of the texts' token n-gram sets; two empty texts are 1. */
export function ngramSimilarity(a: string, b: string, n: number = NGRAM_N): number {
  if (!(Number.isInteger(n) && n >= 1)) throw new RatchetError('internal', `n-gram length must be a positive integer, got ${n}.`);
  const A = ngrams(a, n);
  const B = ngrams(b, n);
  if (A.size === 0 && B.size === 0) return 1;
  let inter = 0;
  for (const g of A) if (B.has(g)) inter++;
  return inter / (A.size + B.size - inter);
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new RatchetError('internal', `Cannot compare embeddings of lengths ${a.length} and ${b.length}.`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export type NoveltyVerdict = 'NOVEL' | 'NOT_NOVEL';

export interface NoveltyInput {
  candidate: string;
  /** The programs of the candidate's island (Shinka compares within the parent's island). */
  programs: readonly NoveltyProgram[];
  /** The endpoint's `/embeddings`, when the run configured an embedding model. */
  embed?: (texts: string[]) => Promise<number[][]>;
  /** The LLM novelty judge (Shinka prompts_novelty.py), shown the candidate and its closest program. */
  judge?: (candidate: string, closest: NoveltyProgram) => Promise<NoveltyVerdict>;
  cosineThreshold?: number;
  ngramThreshold?: number;
  ngramN?: number;
}

export interface NoveltyResult {
  novel: boolean;
  via: 'embedding' | 'ngram' | 'duplicate';
  /** The highest similarity to a program of the island (1 for a duplicate; 0 for an empty island). */
  similarity: number;
  closestId?: string;
  /** Set only when the similarity exceeded the threshold and a judge was asked. */
  judged?: NoveltyVerdict;
  /** The candidate's embedding, for the run to keep with the program so it is not embedded again. */
  embedding?: number[];
}

/**
 * Duplicate check, then the highest similarity to the island; above the threshold (strictly, as
 * Shinka's `max_similarity <= threshold` accepts) the judge decides. Without a judge nothing is
 * rejected for similarity alone: Shinka runs no novelty rejection unless `novelty_llm_models` is
 * set, and a near-identical text may still be a worthwhile change of one constant.
 */
export async function noveltyCheck(input: NoveltyInput): Promise<NoveltyResult> {
  const dup = isDuplicate(input.candidate, input.programs);
  if (dup !== undefined) return { novel: false, via: 'duplicate', similarity: 1, closestId: dup };
  const { similarities, via, embedding } = await similaritiesOf(input);
  const threshold = via === 'embedding' ? (input.cosineThreshold ?? COSINE_THRESHOLD) : (input.ngramThreshold ?? NGRAM_THRESHOLD);
  let closest = -1;
  similarities.forEach((s, i) => {
    if (closest < 0 || s > similarities[closest]!) closest = i;
  });
  const base = { via, ...(embedding ? { embedding } : {}) };
  if (closest < 0) return { novel: true, similarity: 0, ...base };
  const similarity = similarities[closest]!;
  const closestProgram = input.programs[closest]!;
  const result = { similarity, closestId: closestProgram.id, ...base };
  if (similarity <= threshold || !input.judge) return { novel: true, ...result };
  const judged = await input.judge(input.candidate, closestProgram);
  return { novel: judged === 'NOVEL', judged, ...result };
}

async function similaritiesOf(input: NoveltyInput): Promise<{ similarities: number[]; via: 'embedding' | 'ngram'; embedding?: number[] }> {
  if (!input.embed) return { similarities: input.programs.map((p) => ngramSimilarity(input.candidate, p.text, input.ngramN)), via: 'ngram' };
  const missing = input.programs.filter((p) => !p.embedding);
  const vectors = await input.embed([input.candidate, ...missing.map((p) => p.text)].map((t) => t.slice(0, EMBED_MAX_CHARS)));
  if (vectors.length !== missing.length + 1) throw new RatchetError('llmMalformed', `The embedding endpoint returned ${vectors.length} vectors for ${missing.length + 1} texts.`);
  const embedding = vectors[0]!;
  const fresh = new Map(missing.map((p, i) => [p.id, vectors[i + 1]!]));
  const similarities = input.programs.map((p) => cosine(embedding, p.embedding ?? fresh.get(p.id)!));
  return { similarities, via: 'embedding', embedding };
}
