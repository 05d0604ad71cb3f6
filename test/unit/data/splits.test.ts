import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/data/diagnostics';
import type { DataItem } from '../../../src/core/data/item';
import { splitAdvice, splitItems, splitOrder, splitOverlaps, splitSizes } from '../../../src/core/data/splits';
import type { SplitPlan, Splits } from '../../../src/core/data/splits';

function items(n: number, file = 'd.jsonl'): DataItem[] {
  return Array.from({ length: n }, (_, i) => ({ id: `item-${i}`, vars: { q: i }, source: { file, line: i + 1 } }));
}
const ids = (s: Splits): Record<string, string[]> => ({ feedback: s.feedback.map((i) => i.id), dev: s.dev.map((i) => i.id), test: s.test.map((i) => i.id) });
const DEFAULT: SplitPlan = { kind: 'fractions', feedback: 0.2, dev: 0.6, test: 0.2 };

describe('splits', () => {
  it('are disjoint and cover the items, with the requested sizes', () => {
    const all = items(53);
    const s = splitItems(all, DEFAULT, 0);
    expect([s.feedback.length, s.dev.length, s.test.length]).toEqual([10, 32, 11]);
    const seen = [...s.feedback, ...s.dev, ...s.test].map((i) => i.id);
    expect(new Set(seen).size).toBe(53);
    expect(seen.sort()).toEqual(all.map((i) => i.id).sort());
  });

  it('depend on the seed and the ids, not on the file order', () => {
    const all = items(40);
    const a = splitItems(all, DEFAULT, 7);
    expect(ids(splitItems([...all].reverse(), DEFAULT, 7))).toEqual(ids(a));
    expect(ids(splitItems(all, DEFAULT, 7))).toEqual(ids(a));
    expect(ids(splitItems(all, DEFAULT, 8)).dev).not.toEqual(ids(a).dev);
  });

  it('orders items by the documented hash: SHA-256 of "seed␟split␟id", first 4 bytes big-endian', () => {
    // Recomputed here with node:crypto, independently of src/core/random.ts.
    const key = (id: string): number => createHash('sha256').update(`0\u001fsplit\u001f${id}`).digest().readUInt32BE(0);
    const expected = items(12)
      .map((i) => i.id)
      .sort((a, b) => key(a) - key(b));
    expect(splitOrder(items(12), 0).map((i) => i.id)).toEqual(expected);
    // Pinned: changing the rule would silently move every user's items between splits.
    expect(ids(splitItems(items(5), { kind: 'counts', feedback: 1, dev: 3, test: 1 }, 0))).toEqual({
      dev: ['item-4', 'item-2', 'item-0'],
      test: ['item-1'],
      feedback: ['item-3'],
    });
  });

  it('keeps the dev set when only the test/feedback shares change', () => {
    const all = items(50);
    const a = splitItems(all, { kind: 'counts', dev: 20, test: 10, feedback: 20 }, 3);
    const b = splitItems(all, { kind: 'counts', dev: 20, test: 25, feedback: 5 }, 3);
    expect(ids(b).dev).toEqual(ids(a).dev);
  });

  it('turns fractions into counts that add up, and gives the rest to splits left out', () => {
    expect(splitSizes(10, DEFAULT)).toEqual({ feedback: 2, dev: 6, test: 2 });
    expect(splitSizes(7, DEFAULT)).toEqual({ feedback: 1, dev: 4, test: 2 }); // remainder tie: dev, then test
    expect(splitSizes(10, { kind: 'fractions', feedback: 0, dev: 0.5, test: 0.3 })).toEqual({ feedback: 0, dev: 5, test: 3 });
    expect(splitSizes(30, { kind: 'counts', dev: 20 })).toEqual({ feedback: 5, dev: 20, test: 5 });
    expect(splitSizes(30, { kind: 'counts', dev: 20, test: 4 })).toEqual({ feedback: 6, dev: 20, test: 4 });
    expect(() => splitSizes(10, { kind: 'counts', dev: 8, test: 5 })).toThrow('split asks for 13 items (dev 8, test 5) but the dataset has 10');
  });

  it('finds items that sit in two explicit split files', () => {
    const dev = items(3, 'dev.jsonl');
    const test: DataItem[] = [{ id: 'other', vars: { q: 1 }, source: { file: 'test.jsonl', line: 4 } }];
    expect(splitOverlaps({ dev, test, feedback: [] }).map(formatDiagnostic)).toEqual([
      'test.jsonl:4:1: item is in both the dev and the test split (also at dev.jsonl:2); the splits must be disjoint so the proposer never sees a dev or test item',
    ]);
  });
});

describe('split advice', () => {
  it('warns about a small dev split with the gate-specific number from the caller', () => {
    expect(splitAdvice({ feedback: 2, dev: 8, test: 2 }, { gate: 'PACE+', alpha: 0.05, minWins: 6 })).toEqual([
      {
        split: 'dev',
        message: 'dev split has 8 items: PACE+ at α = 0.05 needs at least 6 consecutive wins to commit, so only large gains can be detected; add items or use a larger dev share (with 12 items, add at least 10 more for a dev split of 20)',
      },
    ]);
    expect(splitAdvice({ feedback: 10, dev: 12, test: 8 }, { gate: 'PACE+', alpha: 0.05 })[0]!.message).toBe(
      'dev split has 12 items, too few to detect anything but large gains; add items or use a larger dev share (e.g. split: { feedback: 5, dev: 20, test: 5 })',
    );
  });

  it('says when the gate can never commit, and when feedback or test is empty', () => {
    expect(splitAdvice({ feedback: 0, dev: 4, test: 0 }, { gate: 'PACE', alpha: 0.05, minWins: 8 }).map((a) => a.split)).toEqual(['dev', 'feedback', 'test']);
    expect(splitAdvice({ feedback: 0, dev: 4, test: 0 }, { gate: 'PACE', alpha: 0.05, minWins: 8 })[0]!.message).toContain('so it can never commit');
    expect(splitAdvice({ feedback: 10, dev: 30, test: 10 }, { gate: 'PACE+', alpha: 0.05, minWins: 6 })).toEqual([]);
  });
});
