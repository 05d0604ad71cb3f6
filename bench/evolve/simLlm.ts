/**
 * The LLM port of the product's evolve loop in a simulated world (world.ts), in-process: no HTTP,
 * no cache, no retries — the loop's own evaluator, scorer (numeric, on GSM8K's answers), gate and
 * proposer messages run unchanged around it.
 *
 * - agent: reads which sentences the prompt holds (each carries its proposal's number, `[#17]`) and
 *   which GSM8K problem it is asked, and answers right with the world's probability.
 * - proposer: takes the current prompt out of its message and adds the run's next proposal as a
 *   line before the question.
 * - The agent-call budget is a hard limit, as the product's: the call past it is refused with
 *   `budgetExhausted` and the loop ends the run there.
 */
import { RatchetError } from '../../src/core/errors';
import type { ChatRequest, ChatResponse } from '../../src/core/llm/types';
import type { LlmClient } from '../../src/core/ports';
import type { Sentence, World } from './world';
import { evaluationDraw, promptKey, proposalKind, successProbability } from './world';

export const PROMPT_HEAD = 'Solve the grade-school math problem step by step.';
const QUESTION = 'Question: ';
const TAIL = '\nEnd with "The answer is N".';

/** The starting prompt's body (the template the loop renders with {{question}}). */
export const START_BODY = `${PROMPT_HEAD}\n${QUESTION}{{question}}${TAIL}\n`;

const PHRASES: Record<Sentence['kind'], readonly string[]> = {
  real: ['Write down every intermediate quantity with its unit before combining two of them.', 'Before answering, check the result against each condition of the problem.'],
  neutral: ['Be careful.', 'Read the problem twice.', 'Use plain words.', 'Think about the question.', 'Keep the reasoning tidy.', 'Stay focused on the task.'],
  harmful: ['Answer as briefly as possible and skip the working.', 'Round every intermediate number to the nearest ten.'],
};

/** The sentences a prompt (or a rendered prompt) holds, in order. */
export function sentencesOf(w: World, text: string): Sentence[] {
  return [...text.matchAll(/\[#(\d+)\]/g)].map((m) => {
    const id = Number(m[1]);
    return { id, kind: proposalKind(w, id) };
  });
}

export interface SimLlmHooks {
  /** Called before each agent call is answered, with the count including it. */
  onAgentCall(n: number): void;
}

export class SimLlm implements LlmClient {
  agentCalls = 0;
  proposals = 0;
  private readonly byQuestion = new Map<string, number>();
  private readonly draws = new Map<string, number>();

  constructor(
    private readonly w: World,
    private readonly maxAgentCalls: number,
    private readonly hooks: SimLlmHooks,
  ) {
    for (const it of w.items) this.byQuestion.set(it.question, it.index);
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    if (req.role === 'agent') return this.agent(req);
    if (req.role === 'proposer') return answer(this.propose(req));
    throw new RatchetError('internal', `The simulated world has no ${req.role} role.`);
  }

  async embed(): Promise<never> {
    throw new RatchetError('internal', 'The simulated world does not embed.');
  }

  private agent(req: ChatRequest): ChatResponse {
    if (this.agentCalls >= this.maxAgentCalls) {
      throw new RatchetError('budgetExhausted', `The run's budget is spent (${this.maxAgentCalls} agent calls).`, { budget: `${this.maxAgentCalls} agent calls` });
    }
    this.hooks.onAgentCall(++this.agentCalls);
    const text = req.messages.map((m) => m.content).join('\n');
    const from = text.indexOf(QUESTION);
    const question = text.slice(from + QUESTION.length, text.indexOf(TAIL, from));
    const index = this.byQuestion.get(question);
    if (index === undefined) throw new RatchetError('internal', `The simulated agent was asked something that is not a GSM8K problem: ${question.slice(0, 80)}`);
    const sentences = sentencesOf(this.w, text);
    const key = promptKey(sentences);
    const drawKey = `${key}:${index}`;
    const nth = this.draws.get(drawKey) ?? 0;
    this.draws.set(drawKey, nth + 1);
    const right = evaluationDraw(this.w, key, index, nth) < successProbability(this.w, sentences, index);
    const item = this.w.items[index]!;
    return answer(`Working it out. The answer is ${right ? item.answer : item.answer + 1 + (index % 7)}`);
  }

  private propose(req: ChatRequest): string {
    const message = req.messages.map((m) => m.content).join('\n');
    const parent = /```prompt\n([\s\S]*?)\n```/.exec(message)?.[1];
    if (parent === undefined) throw new RatchetError('internal', 'The simulated proposer found no current prompt in its message.');
    const id = ++this.proposals;
    const kind = proposalKind(this.w, id);
    const phrases = PHRASES[kind];
    const line = `${phrases[id % phrases.length]} [#${id}]`;
    const at = parent.indexOf(QUESTION);
    const child = `${parent.slice(0, at)}${line}\n${parent.slice(at)}`;
    return `Reasoning: add one rule (${kind === 'real' ? 'a check' : 'a reminder'}).\n\n\`\`\`prompt\n${child}\n\`\`\`\n`;
  }
}

function answer(text: string): ChatResponse {
  return { text, finishReason: 'stop', logprobs: undefined, usage: { promptTokens: 100, completionTokens: 20 }, model: 'sim' };
}
