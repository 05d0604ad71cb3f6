// Novelty rejection (Shinka core/novelty_judge.py): duplicates, n-gram and cosine similarity, and
// the judge asked only above the threshold.
import { describe, expect, it, vi } from 'vitest';
import { COSINE_THRESHOLD, cosine, isDuplicate, ngramSimilarity, noveltyCheck, normaliseForDuplicate, textHash } from '../../../src/core/code/novelty';
import type { NoveltyProgram } from '../../../src/core/code/novelty';

const PROGRAM = ['def f(x):', '    y = x + 1', '    return y * 2', ''].join('\n');

describe('duplicates after whitespace normalisation', () => {
  it('line endings, trailing spaces, blank lines and inner runs do not matter', () => {
    const messy = 'def f(x):  \r\n\r\n    y  =  x +\t1\r\n    return y * 2\r\n\r\n';
    expect(normaliseForDuplicate(messy)).toBe(normaliseForDuplicate(PROGRAM));
    expect(textHash(messy)).toBe(textHash(PROGRAM));
  });

  it('indentation does: moving a line out of a block is a different program', () => {
    const dedented = ['def f(x):', '    y = x + 1', 'return y * 2'].join('\n');
    expect(textHash(dedented)).not.toBe(textHash(PROGRAM));
    expect(textHash(PROGRAM.replace('+ 1', '+ 2'))).not.toBe(textHash(PROGRAM));
  });

  it('isDuplicate names the first program with the same normalised text', () => {
    const programs = [
      { id: 'a', text: 'x = 1' },
      { id: 'b', text: PROGRAM },
      { id: 'c', text: PROGRAM },
    ];
    expect(isDuplicate(PROGRAM + '\n\n', programs)).toBe('b');
    expect(isDuplicate('x = 2', programs)).toBeUndefined();
  });
});

describe('token n-gram Jaccard', () => {
  it('identical texts are 1, disjoint ones 0, two empty texts 1', () => {
    expect(ngramSimilarity(PROGRAM, PROGRAM)).toBe(1);
    expect(ngramSimilarity('a b c d', 'e f g h')).toBe(0);
    expect(ngramSimilarity('', '  \n')).toBe(1);
    expect(ngramSimilarity('a b c', '')).toBe(0);
  });

  it('counts |A∩B|/|A∪B| over token trigrams; punctuation is a token, spacing is not', () => {
    // tokens a + b * c → trigrams {a+b, +b*, b*c}; a + b * d → {a+b, +b*, b*d}: 2/4
    expect(ngramSimilarity('a+b*c', 'a + b * d')).toBe(0.5);
    // bigrams: {a+, +b, b*, *c} vs {a+, +b, b*, *d}: 3/5
    expect(ngramSimilarity('a+b*c', 'a + b * d', 2)).toBe(0.6);
  });

  it('a text shorter than n tokens is one gram', () => {
    expect(ngramSimilarity('a b', 'a b')).toBe(1);
    expect(ngramSimilarity('a b', 'a c')).toBe(0);
  });

  it('one changed constant in a longer program stays above 0.9; a rewrite falls far below', () => {
    const long = Array.from({ length: 40 }, (_, i) => `v${i} = compute(v${i - 1}, ${i})`).join('\n');
    expect(ngramSimilarity(long, long.replace('compute(v9, 10)', 'compute(v9, 11)'))).toBeGreaterThan(0.9);
    expect(ngramSimilarity(long, long.replaceAll('compute', 'other').replaceAll('=', ':='))).toBeLessThan(0.5);
  });
});

describe('cosine', () => {
  it('is the normalised dot product, 0 for a zero vector, and needs equal lengths', () => {
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 15);
    expect(cosine([1, 1], [1, 0])).toBeCloseTo(Math.SQRT1_2, 15);
    expect(cosine([0, 0], [1, 0])).toBe(0);
    expect(() => cosine([1], [1, 2])).toThrow(/lengths/);
  });
});

describe('noveltyCheck', () => {
  const island: NoveltyProgram[] = [
    { id: 'p1', text: 'alpha beta gamma delta epsilon zeta' },
    { id: 'p2', text: PROGRAM },
  ];

  it('an exact duplicate is never novel, and neither embeds nor asks the judge', async () => {
    const embed = vi.fn();
    const judge = vi.fn();
    const r = await noveltyCheck({ candidate: PROGRAM.replace('y * 2', 'y  *  2'), programs: island, embed, judge });
    expect(r).toEqual({ novel: false, via: 'duplicate', similarity: 1, closestId: 'p2' });
    expect(embed).not.toHaveBeenCalled();
    expect(judge).not.toHaveBeenCalled();
  });

  it('n-gram: at or below the threshold it is novel without a judge call', async () => {
    const judge = vi.fn();
    const candidate = 'alpha beta gamma delta epsilon eta';
    const s = ngramSimilarity(candidate, island[0]!.text); // 3 shared of 5 → 3/5
    expect(s).toBe(0.6);
    expect(await noveltyCheck({ candidate, programs: island, judge, ngramThreshold: 0.6 })).toEqual({ novel: true, via: 'ngram', similarity: 0.6, closestId: 'p1' });
    expect(judge).not.toHaveBeenCalled();
  });

  it('n-gram: above the threshold the judge sees the closest program and decides', async () => {
    const candidate = 'alpha beta gamma delta epsilon eta';
    const judge = vi.fn(async () => 'NOT_NOVEL' as const);
    const r = await noveltyCheck({ candidate, programs: island, judge, ngramThreshold: 0.5 });
    expect(r).toEqual({ novel: false, via: 'ngram', similarity: 0.6, closestId: 'p1', judged: 'NOT_NOVEL' });
    expect(judge).toHaveBeenCalledExactlyOnceWith(candidate, island[0]);
    const yes = await noveltyCheck({ candidate, programs: island, judge: async () => 'NOVEL', ngramThreshold: 0.5 });
    expect(yes).toMatchObject({ novel: true, judged: 'NOVEL' });
  });

  it('above the threshold with no judge configured, nothing is rejected (Shinka: no novelty LLM, no rejection)', async () => {
    const r = await noveltyCheck({ candidate: 'alpha beta gamma delta epsilon eta', programs: island, ngramThreshold: 0.5 });
    expect(r).toEqual({ novel: true, via: 'ngram', similarity: 0.6, closestId: 'p1' });
  });

  it('an empty island is novel', async () => {
    expect(await noveltyCheck({ candidate: 'x', programs: [] })).toEqual({ novel: true, via: 'ngram', similarity: 0 });
  });

  it('embeddings: cosine against every program, embedding only the ones without a vector, texts cut at 10,000 characters', async () => {
    const long = 'z'.repeat(12_000);
    const programs: NoveltyProgram[] = [
      { id: 'kept', text: 'ignored', embedding: [1, 0, 0] },
      { id: 'fresh', text: long },
    ];
    const embed = vi.fn(async (texts: string[]) => {
      expect(texts.map((t) => t.length)).toEqual([9, 10_000]);
      return [
        [0.6, 0.8, 0],
        [0, 1, 0],
      ];
    });
    const judge = vi.fn(async () => 'NOVEL' as const);
    const r = await noveltyCheck({ candidate: 'candidate', programs, embed, judge });
    // cosines 0.6 and 0.8, both ≤ 0.99
    expect(r).toEqual({ novel: true, via: 'embedding', similarity: 0.8, closestId: 'fresh', embedding: [0.6, 0.8, 0] });
    expect(embed).toHaveBeenCalledOnce();
    expect(judge).not.toHaveBeenCalled();
    expect(COSINE_THRESHOLD).toBe(0.99);
  });

  it('embeddings: above 0.99 the judge is asked about the closest program', async () => {
    const programs: NoveltyProgram[] = [
      { id: 'far', text: 'a', embedding: [0, 1] },
      { id: 'near', text: 'b', embedding: [1, 0.1] },
    ];
    const judge = vi.fn(async () => 'NOT_NOVEL' as const);
    const r = await noveltyCheck({ candidate: 'c', programs, embed: async () => [[1, 0.1001]], judge });
    expect(r).toMatchObject({ novel: false, via: 'embedding', closestId: 'near', judged: 'NOT_NOVEL' });
    expect(r.similarity).toBeGreaterThan(0.99);
    expect(judge).toHaveBeenCalledExactlyOnceWith('c', programs[1]);
  });

  it('an endpoint that returns the wrong number of vectors is a malformed answer', async () => {
    await expect(noveltyCheck({ candidate: 'c', programs: island, embed: async () => [[1]] })).rejects.toThrow(/returned 1 vectors for 3 texts/);
  });
});
