/**
 * Gate G, the greedy baseline (GATES.md 2): commit iff the candidate's dev score is strictly above
 * the incumbent's. G-cached compares with the score measured when the incumbent was committed;
 * G-re re-measures the incumbent for every candidate. Both use this rule; they differ only in
 * where `incumbentScore` comes from. No error control — a baseline for the benchmark and the CLI.
 */
import type { Decision } from './record';

export type GreedyVariant = 'cached' | 're';

export interface GreedyResult {
  decision: Decision;
  reason: 'greedy';
  statistic: { candidateScore: number; incumbentScore: number; difference: number };
}

/** score(C) > scoreI, strict: ties reject (GATES.md 2). */
export function greedyGate(candidateScore: number, incumbentScore: number): GreedyResult {
  return {
    decision: candidateScore > incumbentScore ? 'commit' : 'reject',
    reason: 'greedy',
    statistic: { candidateScore, incumbentScore, difference: candidateScore - incumbentScore },
  };
}

/** The greedy decision from per-item outcomes of both versions on the same n items. */
export function greedyOnOutcomes(outcomes: readonly { incumbent: number; candidate: number }[]): GreedyResult {
  let c = 0;
  let i = 0;
  for (const o of outcomes) {
    c += o.candidate;
    i += o.incumbent;
  }
  return greedyGate(c, i);
}
