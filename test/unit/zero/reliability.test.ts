// Judge reliability on known-order pairs, both presentation orders, ties dropped (#17).
import { describe, expect, it } from 'vitest';
import type { JudgeVerdict } from '../../../src/core/gates/pairwise';
import type { JudgedPair, KnownOrderPair } from '../../../src/core/zero/reliability';
import { amplificationPair, pairJudgement, reliabilityOf, reliabilitySeries, roleAsymmetryPair } from '../../../src/core/zero/reliability';

const Z = 1.959963984540054;

function judged(pair: KnownOrderPair, betterFirst: JudgeVerdict, worseFirst: JudgeVerdict): JudgedPair {
  return { pair, betterFirst, worseFirst };
}
const role = (i: number) => roleAsymmetryPair(`r${i}`, `task ${i}`, 'solver answer', 'challenger answer');
const amp = (i: number) => amplificationPair(`a${i}`, `task ${i}`, 'composed', 'one-shot');

describe('one pair in both orders', () => {
  it('agrees when the better response wins in both slots, splits when the slot wins', () => {
    expect(pairJudgement({ betterFirst: 'A', worseFirst: 'B' })).toBe('right');
    expect(pairJudgement({ betterFirst: 'B', worseFirst: 'A' })).toBe('wrong');
    expect(pairJudgement({ betterFirst: 'A', worseFirst: 'A' })).toBe('split');
    expect(pairJudgement({ betterFirst: 'B', worseFirst: 'B' })).toBe('split');
    expect(pairJudgement({ betterFirst: 'tie', worseFirst: 'B' })).toBe('right');
    expect(pairJudgement({ betterFirst: 'B', worseFirst: 'tie' })).toBe('wrong');
    expect(pairJudgement({ betterFirst: 'tie', worseFirst: 'tie' })).toBe('tie');
  });

  it('the known order comes from how the pair was made', () => {
    expect(roleAsymmetryPair('p', 't', 'S', 'C')).toEqual({ id: 'p', type: 'roleAsymmetry', task: 't', better: 'S', worse: 'C' });
    expect(amplificationPair('p', 't', 'composed', 'one')).toMatchObject({ type: 'amplification', better: 'composed', worse: 'one' });
  });
});

describe('agreement per pair type', () => {
  const round: JudgedPair[] = [
    judged(role(1), 'A', 'B'), // right
    judged(role(2), 'A', 'tie'), // right
    judged(role(3), 'A', 'A'), // split: ½
    judged(role(4), 'tie', 'tie'), // dropped
    judged(role(5), 'B', 'A'), // wrong
    judged(amp(1), 'B', 'B'), // split
    judged(amp(2), 'B', 'A'), // wrong
    judged(amp(3), 'tie', 'B'), // right
  ];

  it('counts each outcome and drops ties from the rate', () => {
    expect(reliabilityOf('roleAsymmetry', round)).toMatchObject({ pairs: 5, right: 2, wrong: 1, split: 1, ties: 1, agreement: 0.625 });
    expect(reliabilityOf('amplification', round)).toMatchObject({ pairs: 3, right: 1, wrong: 1, split: 1, ties: 0, agreement: 0.5 });
  });

  it('a judge that always answers "A" sits at chance, though one order alone would call it perfect', () => {
    const slotBiased = Array.from({ length: 10 }, (_, i) => judged(role(i), 'A', 'A'));
    expect(reliabilityOf('roleAsymmetry', slotBiased).agreement).toBe(0.5);
    const oneOrderOnly = Array.from({ length: 10 }, (_, i) => judged(role(i), 'A', 'tie'));
    expect(reliabilityOf('roleAsymmetry', oneOrderOnly).agreement).toBe(1);
  });

  it('carries a Wilson interval over the pairs not dropped, none when every pair tied', () => {
    const perfect = Array.from({ length: 20 }, (_, i) => judged(amp(i), 'A', 'B'));
    const r = reliabilityOf('amplification', perfect);
    expect(r.agreement).toBe(1);
    expect(r.lo).toBeCloseTo(1 / (1 + (Z * Z) / 20), 12);
    expect(r.hi).toBe(1);
    expect(reliabilityOf('amplification', [judged(amp(1), 'tie', 'tie')])).toMatchObject({ pairs: 1, ties: 1, agreement: undefined, lo: 0, hi: 1 });
  });

  it('gives one point per round and type: the two reliability curves', () => {
    const series = reliabilitySeries([
      { round: 1, judged: [judged(role(1), 'A', 'B'), judged(amp(1), 'B', 'A')] },
      { round: 2, judged: [judged(role(2), 'A', 'B'), judged(amp(2), 'A', 'B'), judged(amp(3), 'A', 'A')] },
    ]);
    expect(series.map((p) => [p.round, p.byType.roleAsymmetry.agreement, p.byType.amplification.agreement])).toEqual([
      [1, 1, 0],
      [2, 1, 0.75],
    ]);
  });
});
