// The answer corpus (test/fixtures/answers/corpus.ts, #25): every answer, shaped as real models
// write them, is read as the model meant it — or, where the entry says so, lost with a stated
// reason and then asked for again. Nothing is misread.
import { describe, expect, it } from 'vitest';
import { CORPUS, PARSERS } from '../fixtures/answers/corpus';
import { readEntry } from '../fixtures/answers/readings';

describe('the answer corpus', () => {
  it('holds at least 100 answers, at least 6 for every parser', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(100);
    for (const p of PARSERS) expect(CORPUS.filter((e) => e.parser === p).length, p).toBeGreaterThanOrEqual(6);
    // Names are unique within a parser, so a failure names one answer.
    const keys = CORPUS.map((e) => `${e.parser}: ${e.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(CORPUS.map((e) => [`${e.parser}: ${e.name}`, e] as const))('%s', (_key, e) => {
    const { reading, outcome } = readEntry(e);
    if (e.outcome) {
      expect(outcome, `read ${JSON.stringify(reading)}`).toBe(e.outcome.kind);
      return;
    }
    expect(reading).toEqual(e.expected);
    expect(outcome).toBe('right');
  });

  it('misreads nothing', () => {
    expect(CORPUS.filter((e) => readEntry(e).outcome === 'misread').map((e) => `${e.parser}: ${e.name}`)).toEqual([]);
  });
});
