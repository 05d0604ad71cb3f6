/**
 * The decision record every gate returns and the journal keeps (GATES.md 4.7): enough to audit a
 * decision later without re-running anything.
 */
import type { GateName } from './gateTable';
import type { Schedule } from './schedules';
import type { ScreenSummary } from './screen';

export type { GateName, Schedule, ScreenSummary };
/**
 * The null a sequential gate tests (GATES.md 1.2): 'infinite' = the population null E[Δ] ≤ 0 over
 * items from P; 'finite' = Σ Δ_i ≤ 0 over this dev set's n items (the finite-population variant).
 */
export type Population = 'infinite' | 'finite';
export type Decision = 'commit' | 'reject';
export type DecisionReason =
  | 'evidence' // wealth reached the threshold
  | 'futile' // even all remaining items won could not reach it
  | 'floor' // the wealth fell below the schedule's floor (docs/gates.md): stopped early, rejected
  | 'screened' // dropped by the run-level schedule's screen on feedback items, before any dev item
  | 'budget' // the dev items ran out
  | 'infeasible' // could not commit before the first item (dev set too small)
  | 'duplicate' // same content as an already-rejected candidate (A5)
  | 'greedy' // greedy decisions: score comparison
  | 'p-value' // fixed-n sign test: p ≤ level or not (GATES.md 6.1)
  | 'validator' // pairwise / elo verdicts
  | 'abstained' // pairwise / elo: the judge gave no verdict in one order or both, asked twice
  | 'incorrect'; // code search: the evaluator found the child program incorrect

export interface DecisionRecord {
  candidateId: string;
  parentId: string | undefined;
  incumbentId: string | undefined;
  gate: GateName;
  configHash: string;
  alpha: number;
  schedule: Schedule;
  ledgerBefore: { tested: number; commits: number };
  threshold: number;
  orderSeed: number;
  itemsConsumed: number;
  wins: number;
  losses: number;
  ties: number;
  /**
   * Items (or comparisons) the test could not use because the judge — pairwise validator or
   * rubric grader — did not answer, asked twice: neither wins, losses nor ties (docs/gates.md).
   * Absent when there were none.
   */
  unjudged?: number;
  /**
   * The judge's answers this test asked for (one per order, or one grade per output) and how many
   * of them it did not give; absent when the test asked the judge nothing.
   */
  judge?: { answers: number; abstained: number; model?: string };
  /** Natural log of the final wealth; 0 for gates without an e-process. */
  logWealth: number;
  decision: Decision;
  reason: DecisionReason;
  candidateCalls: number;
  incumbentCalls: number;
  /** Gate-specific statistic shown to the user (p-value, score difference, Elo change, …). */
  statistic?: Record<string, number>;
  /** Binary (0/1) outcomes or continuous scores in [0, 1] (GATES.md 4.4); sequential gates only. */
  scores?: 'binary' | 'continuous';
  /** The betting strategy of the e-process (GATES.md 4.1); sequential gates only. */
  bettor?: 'fixed' | 'mixture' | 'agrapa' | 'ons' | 'beta';
  /** Which null was tested (GATES.md 1.2); sequential gates only. */
  population?: Population;
  rubricVersion?: number;
  /** The screen on feedback items before the dev-set test, under a screened schedule (docs/gates.md). */
  screen?: ScreenSummary;
}
