// The incumbent cache of GATES.md 4.3.
import { describe, expect, it } from 'vitest';
import { OutcomeCache } from '../../../src/core/gates/incumbentCache';

describe('OutcomeCache', () => {
  it('keeps one canonical draw per (version, item) and counts hits and misses', () => {
    const c = new OutcomeCache('cfg-1');
    expect(c.get('v1', 'i1')).toBeUndefined();
    c.set('v1', 'i1', 1);
    c.set('v1', 'i1', 0); // a second draw never replaces the canonical one
    expect(c.get('v1', 'i1')).toBe(1);
    expect(c.get('v2', 'i1')).toBeUndefined();
    expect({ hits: c.hits, misses: c.misses }).toEqual({ hits: 1, misses: 2 });
  });

  it('adopts a committed candidate’s outcomes and fills the rest lazily', () => {
    const c = new OutcomeCache('cfg-1');
    c.adopt(
      'cand',
      new Map([
        ['i3', 1],
        ['i1', 0],
      ]),
    );
    c.set('cand', 'i2', 0.25);
    expect(c.snapshot()).toEqual({ evalConfigHash: 'cfg-1', versions: { cand: { i3: 1, i1: 0, i2: 0.25 } } });
    expect(c.size('cand')).toBe(3);
  });

  it('drops everything when the evaluation config changes (A3)', () => {
    const c = new OutcomeCache('cfg-1');
    c.set('v1', 'i1', 1);
    expect(c.setEvalConfig('cfg-1')).toBe(false);
    expect(c.peek('v1', 'i1')).toBe(1);
    expect(c.setEvalConfig('cfg-2')).toBe(true);
    expect(c.peek('v1', 'i1')).toBeUndefined();
    expect(c.snapshot()).toEqual({ evalConfigHash: 'cfg-2', versions: {} });
  });

  it('round-trips through a snapshot and refuses outcomes outside [0, 1]', () => {
    const c = new OutcomeCache('cfg');
    c.set('v', 'a', 0.5);
    expect(OutcomeCache.fromSnapshot(c.snapshot()).snapshot()).toEqual(c.snapshot());
    expect(() => c.set('v', 'b', 2)).toThrow(/\[0, 1\]/);
  });
});
