/**
 * Subtask amplification (J-Zero): the Challenger splits a task into subtasks, the Solver answers
 * each one in the task's context, and the Challenger composes the parts into one answer. The
 * composed answer ≻ the Solver's one-shot answer is a pair whose order comes from how it was made
 * (more work, each part checked on its own), which is what lets reliability.ts test the judge
 * without a label. These are the three calls' messages and the parse of the split; the loop owns
 * the calls, their cache keys and which pairs are held out.
 *
 * The task, the subtasks and the answers reach the Challenger as untrusted data. The Solver is the
 * user's prompt and gets no rules added: its messages for the task are kept as they are and the
 * subtask follows as one more user turn, exactly as the task itself reached it.
 */
import type { ChatMessage } from '../llm/types';
import { untrustedFrame } from '../llm/untrusted';
import { tagBlocks } from './challengerFormat';
import { materialRules } from './challengerPrompt';

/** Most subtasks kept from a split when the caller sets none. */
export const DEFAULT_MAX_SUBTASKS = 4;

export function decomposeMessages(task: string, maxSubtasks = DEFAULT_MAX_SUBTASKS): ChatMessage[] {
  const frame = untrustedFrame([task]);
  return [
    { role: 'system', content: `You split a task into smaller subtasks whose answers, put together, answer the whole task. ${materialRules(frame)}` },
    {
      role: 'user',
      content: [
        frame.block('task', task),
        `Split this task into 2 to ${maxSubtasks} subtasks, in the order they should be done, each answerable on its own given the task. ` + 'Write each between a line <subtask> and a line </subtask>, and nothing else inside the tags.',
      ].join('\n\n'),
    },
  ];
}

/**
 * The subtasks of a split, in order: closed, non-empty blocks, at most `maxSubtasks`. Fewer than
 * two is no split at all (the task was not decomposed), so the answer is [] and the task makes no
 * amplification pair — a one-part "composition" would be the one-shot answer again.
 */
export function parseSubtasks(answer: string, maxSubtasks = DEFAULT_MAX_SUBTASKS): string[] {
  const subtasks = tagBlocks(answer, 'subtask')
    .blocks.map((b) => b.content?.trim())
    .filter((c): c is string => c !== undefined && c !== '')
    .slice(0, maxSubtasks);
  return subtasks.length >= 2 ? subtasks : [];
}

/** The Solver's messages for one subtask: its own messages for the whole task, then the subtask. */
export function subtaskMessages(solverTaskMessages: readonly ChatMessage[], subtask: string): ChatMessage[] {
  return [...solverTaskMessages, { role: 'user', content: `Do only this part of the task now:\n\n${subtask}` }];
}

export interface AnsweredSubtask {
  subtask: string;
  answer: string;
}

/** The Challenger's messages to compose one answer from the parts; its whole reply is the composed answer. */
export function composeMessages(task: string, parts: readonly AnsweredSubtask[]): ChatMessage[] {
  const frame = untrustedFrame([task, ...parts.flatMap((p) => [p.subtask, p.answer])]);
  return [
    { role: 'system', content: `You compose one complete answer to a task from answers to its parts. ${materialRules(frame)}` },
    {
      role: 'user',
      content: [
        frame.block('task', task),
        ...parts.flatMap((p, i) => [frame.block(`part ${i + 1}`, p.subtask), frame.block(`answer to part ${i + 1}`, p.answer)]),
        'Write the complete answer to the task, using the answers to the parts where they are right and correcting them where they are not. Write only the answer, as the task asks for it.',
      ].join('\n\n'),
    },
  ];
}
