// Sentence BLEU (sacrebleu defaults: 13a, exp smoothing, effective order) and near-duplicate removal (#17).
import { describe, expect, it } from 'vitest';
import { sentenceBleu, symmetricBleu, tokenize13a } from '../../../src/core/zero/bleu';
import { taskText } from '../../../src/core/zero/challengerFormat';
import { dedupTasks } from '../../../src/core/zero/dedup';

describe('13a tokenisation', () => {
  it('splits punctuation but not apostrophes, decimals, thousands or inner hyphens', () => {
    expect(tokenize13a("Hello, world! It's 3.14 or 1,000 dollars-and 5-6 (x).")).toEqual(['Hello', ',', 'world', '!', "It's", '3.14', 'or', '1,000', 'dollars-and', '5', '-', '6', '(', 'x', ')', '.']);
  });

  it('unescapes the four entities, joins hyphenated line breaks, drops <skipped>', () => {
    expect(tokenize13a('a &amp; b &lt;c&gt; &quot;d&quot;')).toEqual(['a', '&', 'b', '<', 'c', '>', '"', 'd', '"']);
    expect(tokenize13a('well-\nknown<skipped>\nfact')).toEqual(['wellknown', 'fact']);
  });
});

describe('sentence BLEU against hand-computed values', () => {
  it('one substituted word: (5/6 · 3/5 · 1/4 · ½·1/3)^¼, the 4-gram order smoothed to 1/(2·3)', () => {
    expect(sentenceBleu('the cat sat on the mat', 'the cat is on the mat')).toBeCloseTo((1 / 48) ** 0.25, 12);
  });

  it('a short hypothesis: effective order 2, brevity penalty exp(1 − 6/2)', () => {
    expect(sentenceBleu('the cat', 'the cat sat on the mat')).toBeCloseTo(Math.exp(-2), 12);
  });

  it('a long hypothesis: orders 3 and 4 smoothed to 1/(2·4) and 1/(4·3), no brevity penalty', () => {
    expect(sentenceBleu('the cat sat on the mat', 'the cat')).toBeCloseTo((2 / 6 / 5 / 8 / 12) ** 0.25, 12);
  });

  it('identical text scores 1, no shared token scores 0, and case counts', () => {
    expect(sentenceBleu('The quick brown fox jumps.', 'The quick brown fox jumps.')).toBe(1);
    expect(sentenceBleu('alpha beta', 'gamma delta')).toBe(0);
    expect(sentenceBleu('THE CAT', 'the cat')).toBe(0);
  });

  it('the symmetric score takes the larger direction, so order does not matter', () => {
    expect(symmetricBleu('the cat', 'the cat sat on the mat')).toBeCloseTo((1 / 1440) ** 0.25, 12);
    expect(symmetricBleu('the cat sat on the mat', 'the cat')).toBe(symmetricBleu('the cat', 'the cat sat on the mat'));
  });
});

describe('dedup on an injected corpus', () => {
  const train = 'A train leaves Paris at 9am travelling at 120 km/h towards Lyon, 460 km away. When does it arrive?';
  const nearTrain = 'A train leaves Paris at 9am travelling at 120 km/h towards Lyon, 460 km away. At what time does it arrive?';
  const paraphrase = 'If a train departs Paris at nine in the morning and moves at 120 kilometres per hour, how long until it reaches Lyon 460 kilometres off?';
  const primes = 'List three prime numbers greater than 50.';
  const tasks = [
    { id: 't1', text: train },
    { id: 't2', text: train },
    { id: 't3', text: nearTrain },
    { id: 't4', text: paraphrase },
    { id: 't5', text: primes },
  ];

  it('drops exact and near duplicates within the batch, keeps the paraphrase', () => {
    const r = dedupTasks(tasks, (t) => t.text);
    expect(r.kept.map((t) => t.id)).toEqual(['t1', 't4', 't5']);
    expect(r.duplicates.map((d) => [d.task.id, d.against, d.of === train])).toEqual([
      ['t2', 'batch', true],
      ['t3', 'batch', true],
    ]);
    expect(r.duplicates[0]!.bleu).toBe(1);
    expect(r.duplicates[1]!.bleu).toBeGreaterThan(0.7);
    expect(symmetricBleu(train, paraphrase)).toBeLessThan(0.2);
  });

  it('drops a task repeating an earlier round, and names the round even when it repeats the batch too', () => {
    const r = dedupTasks([...tasks, { id: 't6', text: `${primes} ` }], (t) => t.text, { earlier: [{ text: 'List three prime numbers greater than 50!', round: 1 }] });
    expect(r.kept.map((t) => t.id)).toEqual(['t1', 't4']);
    expect(r.duplicates.filter((d) => d.against === 'earlier').map((d) => [d.task.id, d.round])).toEqual([
      ['t5', 1],
      ['t6', 1],
    ]);
  });

  it('the threshold decides what "near" means: at 1 only exact repeats go', () => {
    expect(dedupTasks(tasks, (t) => t.text, { threshold: 1 }).kept.map((t) => t.id)).toEqual(['t1', 't3', 't4', 't5']);
    expect(() => dedupTasks(tasks, (t) => t.text, { threshold: 0 })).toThrow(/threshold/);
  });

  it('compares several-variable tasks by their values, so shared variable names make no duplicate', () => {
    const vars = ['question', 'context'];
    const short = [
      { question: 'Who?', context: 'Ann met Bo.' },
      { question: 'Why?', context: 'It rained.' },
      { question: 'Who?', context: 'Ann met Bo.' },
    ];
    expect(dedupTasks(short, (t) => taskText(t, vars)).kept).toEqual(short.slice(0, 2));
  });
});
