/**
 * Gate `pairwise`'s validator for one child of a code search: the validator role at temperature
 * 0, seeded by the two programs (a resume asks the LLM cache the same question), shown each
 * program as its diff against the incumbent, its mean score with the evaluator's public metrics,
 * and its feedback.
 */
import { createPatch } from 'diff';
import { fileName } from '../fileName';
import type { MetricValue } from '../journal/payloadTypes';
import type { LlmClient } from '../ports';
import { hashSeed } from '../random';
import type { PairwiseValidator, ProgramRef } from './gate';
import type { ProgramView } from './programJudge';

export interface ValidatorSetting {
  llm: LlmClient;
  runSeed: number;
  programPath: string;
  instances: number;
  range: { lo: number; hi: number };
  /** The evaluator's public metrics and text feedback for a program, over every shard it ran. */
  reportOf(hash: string): { metrics: Record<string, MetricValue>; feedback: string };
}

export function pairwiseValidator(s: ValidatorSetting, child: { hash: string; text: string }, incumbent: { textHash: string; text: string }): PairwiseValidator {
  const seed = hashSeed(s.runSeed, 'pairwise', child.hash, incumbent.textHash);
  const { lo, hi } = s.range;
  return {
    ask: (messages, signal) => s.llm.chat({ role: 'validator', messages, temperature: 0, logprobs: true, seed }, signal),
    // The file's name, not its path: the question (and its cached answer) is the same in a copied or moved workspace.
    task: `Improve the program ${fileName(s.programPath)}; its evaluator scores it on ${s.instances} instance${s.instances === 1 ? '' : 's'}, each in [${lo}, ${hi}], higher is better.`,
    view: (program, scores) => programView(s, program, scores, program.hash === child.hash ? child.text : incumbent.text, incumbent.text),
  };
}

/** A program as the pairwise validator sees it: its diff, its mean score with the evaluator's public metrics, its feedback. */
function programView(s: ValidatorSetting, program: ProgramRef, scores: ReadonlyMap<string, number>, text: string, incumbentText: string): ProgramView {
  const mean = scores.size > 0 ? [...scores.values()].reduce((a, b) => a + b, 0) / scores.size : undefined;
  const { metrics, feedback } = s.reportOf(program.hash);
  const diff = text === incumbentText ? '' : createPatch(fileName(s.programPath), incumbentText, text);
  return { diff, metrics: { ...(mean === undefined ? {} : { score: mean }), ...metrics }, ...(feedback ? { feedback } : {}) };
}
