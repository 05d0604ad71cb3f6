/**
 * How far the judge can be trusted, measured on pairs whose order is known from how they were
 * made (J-Zero), never from the judge's own scores:
 *
 * - role asymmetry: the Solver's answer ≻ the Challenger's own answer to its task (the Challenger
 *   writes the task to be hard for itself, the Solver is the prompt under evolution);
 * - subtask amplification: the answer composed from the Solver's answers to the task's subtasks ≻
 *   the one-shot answer.
 *
 * Each pair is judged in both presentation orders (better in slot A, then in slot B), as the
 * reward-free gate judges (GATES.md 5). A pair scores the share of its non-tie verdicts that
 * agree with the known order: 1 when both (or the only decisive one) agree, 0 when they disagree,
 * ½ when the two orders split — the judge followed the slot, not the content; a pair with two tie
 * verdicts says nothing and is dropped. So a judge that ignores the content (always "A", or a coin)
 * sits at ½, and the agreement rate reads like an accuracy. The interval is Wilson's over pairs
 * (pairs are independent, the two verdicts of one pair are not): exact for 0/1 scores,
 * conservative with ½'s. Each round gets one value per pair type — the paper's two curves.
 */
import type { JudgeReading } from '../gates/pairwise';
import { meanInterval } from '../evolve/report';
import { PAIR_TYPES } from '../journal/payloadTypes';
import type { PairJudgement, PairType, Reliability } from '../journal/payloadTypes';

export interface KnownOrderPair {
  id: string;
  type: PairType;
  /** The task both responses answer (rendered input). */
  task: string;
  better: string;
  worse: string;
}

export function roleAsymmetryPair(id: string, task: string, solverAnswer: string, challengerAnswer: string): KnownOrderPair {
  return { id, type: 'roleAsymmetry', task, better: solverAnswer, worse: challengerAnswer };
}

export function amplificationPair(id: string, task: string, composedAnswer: string, oneShotAnswer: string): KnownOrderPair {
  return { id, type: 'amplification', task, better: composedAnswer, worse: oneShotAnswer };
}

/** The judge's two verdicts on a pair: with the better response in slot A, then in slot B. */
export interface JudgedPair {
  pair: KnownOrderPair;
  betterFirst: JudgeReading;
  worseFirst: JudgeReading;
}

export function pairJudgement(j: Pick<JudgedPair, 'betterFirst' | 'worseFirst'>): PairJudgement {
  const decisive = (v: JudgeReading, right: 'A' | 'B') => (v === 'A' || v === 'B' ? v === right : undefined);
  const agreements = [decisive(j.betterFirst, 'A'), decisive(j.worseFirst, 'B')].filter((a) => a !== undefined);
  if (agreements.length === 0) return j.betterFirst === 'abstained' || j.worseFirst === 'abstained' ? 'abstained' : 'tie';
  if (agreements.every((a) => a)) return 'right';
  if (agreements.every((a) => !a)) return 'wrong';
  return 'split';
}

const PAIR_SCORE: Record<Exclude<PairJudgement, 'tie' | 'abstained'>, number> = { right: 1, wrong: 0, split: 0.5 };

/** The agreement of the judge with the known orders of one type of pair. */
export function reliabilityOf(type: PairType, judged: readonly JudgedPair[]): Reliability {
  const counts = { right: 0, wrong: 0, split: 0, tie: 0, abstained: 0 };
  const scores: number[] = [];
  for (const j of judged) {
    if (j.pair.type !== type) continue;
    const verdict = pairJudgement(j);
    counts[verdict]++;
    if (verdict !== 'tie' && verdict !== 'abstained') scores.push(PAIR_SCORE[verdict]);
  }
  const pairs = counts.right + counts.wrong + counts.split + counts.tie + counts.abstained;
  const interval = meanInterval(scores);
  return {
    type,
    pairs,
    right: counts.right,
    wrong: counts.wrong,
    split: counts.split,
    ties: counts.tie,
    ...(counts.abstained > 0 ? { abstained: counts.abstained } : {}),
    agreement: scores.length === 0 ? undefined : interval.mean,
    lo: interval.lo,
    hi: interval.hi,
  };
}

export interface RoundReliability {
  round: number;
  byType: Record<PairType, Reliability>;
}

/** One point per round and pair type: the reliability curves of the Zero-data tab. */
export function reliabilitySeries(rounds: readonly { round: number; judged: readonly JudgedPair[] }[]): RoundReliability[] {
  return rounds.map(({ round, judged }) => ({
    round,
    byType: Object.fromEntries(PAIR_TYPES.map((t) => [t, reliabilityOf(t, judged)])) as Record<PairType, Reliability>,
  }));
}
