/**
 * One more chance for an answer that cannot be read (#25): the model's answer goes back into the
 * same chat as its own turn, followed by the precise problem ("your line says 'maybe', which is not
 * A, B or tie"), and the second answer is read the same way. Still unreadable, the caller records
 * what the model did — an abstention for a judge, a lost iteration for a proposer — and never turns
 * it into a verdict, a tie, a prompt or a score.
 *
 * A cut-off answer (answer.ts: the layer already asked again with more room) is never read: its
 * problem is that it was cut off, and the model is asked to answer again, shorter.
 */
import type { ChatMessage, ChatResponse } from './types';

/** What a reader makes of one answer: its value, or what is wrong with it, said to the model. */
export type Reading<T> = { ok: true; value: T } | { ok: false; problem: string };

/** What a reader needs of a response: its answer, whether it was cut off, its reasoning. */
export type Answered = Pick<ChatResponse, 'text' | 'truncated' | 'filtered' | 'reasoning'>;

export interface AskedAnswer<T, R extends Answered = ChatResponse> {
  /** The value read from the first answer, or from the second; absent when neither could be read. */
  value?: T;
  /** Why the last answer was not read, when no value was. */
  problem?: string;
  /** The answer the value was read from (else the last one). */
  response: R;
  /** Chat calls made: 1, or 2 when the model was asked again. */
  calls: number;
  /** The reasoning of every answer, joined; absent when there was none. */
  reasoning?: string;
}

export const CUT_OFF_PROBLEM = 'Your answer was cut off at the length limit before it ended.';
export const FILTERED_PROBLEM = "Your answer was stopped by the endpoint's content filter before it ended.";

/** Why a cut-off answer is not read, for the model. */
export function cutOffProblem(res: Pick<Answered, 'filtered'>): string {
  return res.filtered ? FILTERED_PROBLEM : CUT_OFF_PROBLEM;
}

/** A reader that refuses a cut-off answer (a length limit, a content filter) before reading it. */
export function readFinal<T, R extends Answered>(res: R, read: (res: R) => Reading<T>): Reading<T> {
  return res.truncated ? { ok: false, problem: cutOffProblem(res) } : read(res);
}

/**
 * Asks with `messages`; an unreadable answer is answered once in the same chat with its problem and
 * `again` (what to do now, e.g. "End your answer with one line …").
 */
export async function askAndRead<T, R extends Answered = ChatResponse>(ask: (messages: ChatMessage[]) => Promise<R>, messages: readonly ChatMessage[], read: (res: R) => Reading<T>, again: string): Promise<AskedAnswer<T, R>> {
  const first = await ask([...messages]);
  const firstRead = readFinal(first, read);
  if (firstRead.ok) return withReasoning({ value: firstRead.value, response: first, calls: 1 }, [first]);
  const retry: ChatMessage[] = [...messages, { role: 'assistant', content: first.text }, { role: 'user', content: `${firstRead.problem} ${again}` }];
  const second = await ask(retry);
  const secondRead = readFinal(second, read);
  if (secondRead.ok) return withReasoning({ value: secondRead.value, response: second, calls: 2 }, [first, second]);
  return withReasoning({ problem: secondRead.problem, response: second, calls: 2 }, [first, second]);
}

function withReasoning<T, R extends Answered>(a: AskedAnswer<T, R>, responses: readonly R[]): AskedAnswer<T, R> {
  const reasoning = responses.map((r) => r.reasoning).filter((r): r is string => r !== undefined && r !== '');
  return reasoning.length > 0 ? { ...a, reasoning: reasoning.join('\n\n') } : a;
}
