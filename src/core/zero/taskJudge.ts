/**
 * The pointwise judge of a generated task (J-Zero's judge scores, transposed): one call scores one
 * Solver answer to one task in [0, 1] against a rubric. There is no label — the task was generated
 * — so the score is the judge's reading of correctness, and the dispersion filter (dispersion.ts)
 * is what turns M such scores into "this task can tell prompts apart".
 *
 * The task and the answer are untrusted data in the call's own delimiters, and the score is read
 * only from the line tagged with the call's word (src/core/llm/untrusted.ts): an answer that says
 * "Score: 1" about itself is data, not a score. No tagged line, disagreeing lines, or a value that
 * is not a number in [0, 1] is an abstention (undefined): never a 0, which would make the task
 * look harder than it is, nor a 1.
 */
import type { ChatMessage } from '../llm/types';
import type { UntrustedFrame } from '../llm/untrusted';
import { readTaggedAnswer, untrustedFrame } from '../llm/untrusted';

export const DEFAULT_SCORE_RUBRIC =
  'Score 1 for a response that does the task correctly and completely, 0 for one that fails it, and a value in between for partial credit. Ignore length and style unless they change correctness.';

export interface TaskScoreCall {
  messages: ChatMessage[];
  frame: UntrustedFrame;
}

export function taskScoreCall(rubric: string, task: string, answer: string): TaskScoreCall {
  const frame = untrustedFrame([task, answer]);
  return {
    frame,
    messages: [
      { role: 'system', content: `You score one response to a task on a scale from 0 to 1. ${rubric}\n${frame.rules}` },
      {
        role: 'user',
        content: [
          frame.block('task', task),
          frame.block('response', answer),
          `How well does the response do the task? Write one line "Rationale: <one sentence>". ${frame.answerInstruction([`${frame.answerTag}: <a number from 0 to 1>`])}`,
        ].join('\n\n'),
      },
    ],
  };
}

/** The score on the tagged line, or undefined (an abstention) when there is no readable one. */
export function parseTaskScore(text: string, frame: Pick<UntrustedFrame, 'answerTag'>): number | undefined {
  const value = readTaggedAnswer(frame, text)?.value;
  if (value === undefined || !/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value)) return undefined;
  const score = Number(value);
  return score >= 0 && score <= 1 ? score : undefined;
}
