// Difficulty, dispersion and top-K selection of generated tasks on a constructed round (#17).
import { describe, expect, it } from 'vitest';
import { histogram, selectByDispersion, taskSpread } from '../../../src/core/zero/dispersion';

describe('one task', () => {
  it('difficulty is 1 − mean, dispersion the population standard deviation', () => {
    const s = taskSpread({ task: 'q', scores: [1, 0, 1, 0] });
    expect(s).toEqual({ task: 'q', difficulty: 0.5, dispersion: 0.5, band: 'mixed' });
    // Population (÷ M): [1, 1, 0] has mean ⅔ and variance ((⅓)²·2 + (⅔)²)/3 = 2/9.
    expect(taskSpread({ task: 'q', scores: [1, 1, 0] }).dispersion).toBeCloseTo(Math.sqrt(2) / 3, 15);
  });

  it('classifies all top-scored as too easy, all failed as too hard, with settable bars', () => {
    expect(taskSpread({ task: 'q', scores: [1, 1, 1] }).band).toBe('tooEasy');
    expect(taskSpread({ task: 'q', scores: [0, 0, 0] }).band).toBe('tooHard');
    expect(taskSpread({ task: 'q', scores: [0.9, 1, 0.95] }).band).toBe('mixed');
    expect(taskSpread({ task: 'q', scores: [0.9, 1, 0.95] }, { easyAt: 0.9 }).band).toBe('tooEasy');
    expect(taskSpread({ task: 'q', scores: [0.1, 0.1, 0.1] }).dispersion).toBe(0);
  });

  it('refuses a score outside [0, 1] or no scores', () => {
    expect(() => taskSpread({ task: 'q', scores: [1.2] })).toThrow(/\[0, 1\]/);
    expect(() => taskSpread({ task: 'q', scores: [] })).toThrow(/at least one/);
  });
});

describe('a constructed round', () => {
  // M = 4 answers per task; dispersion in brackets.
  const round = [
    { task: 'easy', scores: [1, 1, 1, 1] }, // 0, too easy
    { task: 'split', scores: [1, 0, 1, 0] }, // 0.5
    { task: 'hard', scores: [0, 0, 0, 0] }, // 0, too hard
    { task: 'mostly', scores: [1, 1, 1, 0] }, // √3/4 ≈ 0.433
    { task: 'split2', scores: [0, 1, 0, 1] }, // 0.5, ties with split: later position
    { task: 'graded', scores: [0.5, 0.7, 0.6, 0.6] }, // ≈ 0.071
  ];

  it('keeps the top K by dispersion, ties by position, never a zero-dispersion task', () => {
    const sel = selectByDispersion(round, { keep: 3 });
    expect(sel.kept.map((s) => s.task)).toEqual(['split', 'split2', 'mostly']);
    expect(sel.notInTopK.map((s) => s.task)).toEqual(['graded']);
    expect(sel.lowDispersion.map((s) => s.task)).toEqual(['easy', 'hard']);
    expect(sel.tooEasy.map((s) => s.task)).toEqual(['easy']);
    expect(sel.tooHard.map((s) => s.task)).toEqual(['hard']);
    expect(selectByDispersion(round, { keep: 10 }).kept).toHaveLength(4);
    expect(selectByDispersion([...round].reverse(), { keep: 1 }).kept.map((s) => s.task)).toEqual(['split2']);
  });

  it('summarises difficulty over [0, 1] and dispersion over [0, ½] as histograms of every task', () => {
    const sel = selectByDispersion(round, { keep: 3, bins: 2 });
    // Difficulties: 0, 0.5, 1, 0.25, 0.5, 0.4.
    expect(sel.difficultyHistogram).toEqual([
      { lo: 0, hi: 0.5, count: 3 },
      { lo: 0.5, hi: 1, count: 3 },
    ]);
    // Dispersions: 0, 0.5, 0, 0.433, 0.5, 0.071.
    expect(sel.dispersionHistogram).toEqual([
      { lo: 0, hi: 0.25, count: 3 },
      { lo: 0.25, hi: 0.5, count: 3 },
    ]);
  });

  it('puts a value on a bin boundary in the upper bin, despite rounding', () => {
    expect(histogram([0.3, 0.7, 1], 10, 0, 1).map((b) => b.count)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 1]);
  });
});
