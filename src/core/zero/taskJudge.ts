/**
 * The pointwise judge of a generated task (J-Zero's judge scores, transposed): one call scores one
 * Solver answer to one task in [0, 1] against a rubric. There is no label — the task was generated
 * — so the score is the judge's reading of correctness, and the dispersion filter (dispersion.ts)
 * is what turns M such scores into "this task can tell prompts apart".
 *
 * The task and the answer are untrusted data in the call's own delimiters, and the score is read
 * only after the tag with the call's word (src/core/llm/untrusted.ts): an answer that says
 * "Score: 1" about itself is data, not a score. The last tagged value that reads as a number in
 * [0, 1] (answerValues.ts) is the score; none, and the judge is asked again once; still none is an
 * abstention (undefined): never a 0, which would make the task look harder than it is, nor a 1.
 */
import { readGrade } from '../llm/answerValues';
import type { Reading } from '../llm/reask';
import type { ChatMessage } from '../llm/types';
import type { UntrustedFrame } from '../llm/untrusted';
import { lastReadValue, taggedValues, untrustedFrame } from '../llm/untrusted';

export const DEFAULT_SCORE_RUBRIC = 'Score 1 for a response that does the task correctly and completely, 0 for one that fails it, and a value in between for partial credit. Ignore length and style unless they change correctness.';

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

/** The last tagged value stated, when it is a score in [0, 1]; otherwise what is wrong with the answer. */
export function readTaskScore(text: string, frame: Pick<UntrustedFrame, 'answerTag'>): Reading<number> {
  const values = taggedValues(frame, text);
  const score = lastReadValue(values, (raw) => readGrade(raw, 1));
  if (score) return { ok: true, value: score.value };
  const last = values.at(-1);
  return {
    ok: false,
    problem: last === undefined ? `Your answer has no line "${frame.answerTag}: …".` : `Your line "${frame.answerTag}: ${last.raw.trim().slice(0, 60)}" is not a number from 0 to 1.`,
  };
}

/** The score, or undefined (an abstention) when the answer has no readable one. */
export function parseTaskScore(text: string, frame: Pick<UntrustedFrame, 'answerTag'>): number | undefined {
  const read = readTaskScore(text, frame);
  return read.ok ? read.value : undefined;
}

/** What the judge is told, after the problem, when it is asked again. */
export function taskScoreReminder(frame: Pick<UntrustedFrame, 'answerTag'>): string {
  return `Answer again: end with one line "${frame.answerTag}: <a number from 0 to 1>", and nothing after it.`;
}
