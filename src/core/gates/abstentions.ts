/**
 * A judge that does not answer (#25): how many of a test's judgements it left without a verdict,
 * asked twice, and the warning a user must see when that is more than a few. What an abstention
 * does inside each gate, and why the gates stay valid, is in docs/gates.md ("Abstentions").
 */
import type { DecisionRecord } from './record';

/** Over this share of a test's judge answers missing, the run warns and names the model. */
export const ABSTENTION_WARNING_SHARE = 0.1;

/** Counts one test's judge answers (verdicts in both orders, or rubric grades) and abstentions. */
export class JudgeTally {
  answers = 0;
  abstained = 0;
  model: string | undefined;

  add(abstained: boolean, model: string | undefined): void {
    this.answers++;
    if (abstained) this.abstained++;
    this.model ??= model;
  }

  /** Judgements (judge.ts `JudgeAnswer`s): one answer each. */
  addAnswers(...answers: readonly { verdict: string; model?: string }[]): void {
    for (const a of answers) this.add(a.verdict === 'abstained', a.model);
  }

  /** The record with what the judge did in this test; unchanged when it was asked nothing. */
  onto(record: DecisionRecord): DecisionRecord {
    if (this.answers === 0) return record;
    return { ...record, judge: { answers: this.answers, abstained: this.abstained, ...(this.model === undefined ? {} : { model: this.model }) } };
  }
}

/** The judge's answers over a run (or a test) and how many it did not give. */
export interface JudgeCount {
  answers: number;
  abstained: number;
}

/** "the judge did not answer 70 of 72 times", or undefined while it answered every time. */
export function silenceText(j: JudgeCount | undefined): string | undefined {
  if (!j || j.abstained === 0) return undefined;
  return `the judge did not answer ${j.abstained} of ${j.answers} time${j.answers === 1 ? '' : 's'}`;
}

/** Adds a test's count to a run's. */
export function addJudgeCount(total: JudgeCount | undefined, test: JudgeCount): JudgeCount {
  return { answers: (total?.answers ?? 0) + test.answers, abstained: (total?.abstained ?? 0) + test.abstained };
}

/**
 * The warning for a test whose judge left more than ABSTENTION_WARNING_SHARE of its answers out;
 * undefined otherwise. It names the model, since the fix is usually another one.
 */
export function abstentionWarning(record: DecisionRecord): string | undefined {
  const j = record.judge;
  if (!j || j.abstained === 0 || j.abstained <= ABSTENTION_WARNING_SHARE * j.answers) return undefined;
  const who = j.model === undefined ? 'The judge' : `The judge (model ${j.model})`;
  const left = record.unjudged ? `; ${record.unjudged} of ${record.itemsConsumed} items were left out of the test, not counted as ties` : '';
  return `${who} did not answer ${j.abstained} of ${j.answers} times in ${record.candidateId}'s test, even when asked again${left}. A judge that does not follow the answer format weakens every test: try another validator model, or read its answers in the run's journal.`;
}
