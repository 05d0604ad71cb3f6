import { describe, expect, it } from 'vitest';
import { describeEvent } from '../../../src/cli/output';
import type { DecisionRecord } from '../../../src/core/gates/record';

const record = (over: Partial<DecisionRecord>): DecisionRecord => ({
  candidateId: 'p1',
  parentId: 'p0',
  incumbentId: 'p0',
  gate: 'pace+',
  configHash: 'h',
  alpha: 0.05,
  schedule: 'per-candidate',
  ledgerBefore: { tested: 0, commits: 0 },
  threshold: 20,
  orderSeed: 1,
  itemsConsumed: 1,
  wins: 1,
  losses: 0,
  ties: 0,
  logWealth: Math.log(20.5),
  decision: 'commit',
  reason: 'evidence',
  candidateCalls: 1,
  incumbentCalls: 0,
  ...over,
});
const line = (r: DecisionRecord) => describeEvent({ type: 'decision', runId: 'r', at: 0, record: r });

describe('a decision line (runs show, live progress)', () => {
  it('says the wealth against the threshold for a betting gate', () => {
    expect(line(record({}))).toBe('COMMIT p1 (evidence) · pace+ α 0.05 · 1W 0L 0T over 1 items · wealth 20.5 of 20');
  });

  it('says the two scores a greedy decision compared, not a wealth it never bet, closely enough to tell them apart', () => {
    const code = record({ gate: 'greedy', reason: 'greedy', logWealth: 0, statistic: { childMean: 1.9237214, parentMean: 1.9169561, difference: 0.0067653 } });
    expect(line(code)).toBe('COMMIT p1 (greedy) · greedy α 0.05 · 1W 0L 0T over 1 items · score 1.92372 vs 1.91696');
    const prompt = record({ gate: 'greedy-re', reason: 'greedy', decision: 'reject', logWealth: 0, statistic: { candidateScore: 30, incumbentScore: 31, difference: -1 } });
    expect(line(prompt)).toBe('REJECT p1 (greedy) · greedy-re α 0.05 · 1W 0L 0T over 1 items · score 30 vs 31');
  });
});
