// How a version meets the agent on one item, for each kind of file: the messages the agent model
// gets, and a skill's trigger check decided before any scorer. Only the LLM port is faked.
import { describe, expect, it } from 'vitest';
import type { DataItem } from '../../../src/core/data/item';
import { checkItemMessages, itemMessage } from '../../../src/core/data/itemMessage';
import { agentCallsPerEvaluation, chatHarness } from '../../../src/core/evolve/harness';
import type { EvaluatedAs } from '../../../src/core/files/fileKinds';
import type { ChatRequest, ChatResponse } from '../../../src/core/llm/types';
import type { LlmClient } from '../../../src/core/ports';
import { evolvableText } from '../../../src/core/prompt/evolvable';
import { parsePromptFile } from '../../../src/core/prompt/promptFile';
import { templateOf } from '../../../src/core/prompt/template';

/** An agent model that answers from a script: the chooser's line, then the answer. */
function scriptedAgent(chooserAnswer: string): LlmClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    chat: (req: ChatRequest) => {
      requests.push(req);
      const chooser = req.messages[0]?.content.startsWith('You are an agent with skills') === true;
      return Promise.resolve({ text: chooser ? chooserAnswer : 'The answer is 4', usage: { inputTokens: 1, outputTokens: 1 } } as unknown as ChatResponse);
    },
    embed: () => Promise.reject(new Error('no embeddings here')),
  };
}

const item = (vars: Record<string, unknown>, id = 'q1'): DataItem => ({ id, vars, source: { file: 'data.jsonl', line: 1 } });
const SKILL = '---\nname: arithmetic\ndescription: Solve arithmetic questions. Use for sums.\n---\nShow the sum, then "The answer is N".\n';

function harnessFor(path: string, text: string, how: EvaluatedAs, llm: LlmClient, message?: string) {
  const file = parsePromptFile(path, text);
  return { file, harness: chatHarness({ llm, template: templateOf(file), agent: {}, logprobs: false, evaluatedAs: how, message, skillName: 'arithmetic' }) };
}

describe('the chat harness', () => {
  const signal = new AbortController().signal;

  it('sends a prompt file, its variables filled, as the user message', async () => {
    const llm = scriptedAgent('none');
    const { file, harness } = harnessFor('a.prompt.md', '---\ndescription: x\n---\nSolve ${input:question}\n', 'user-message', llm);
    const a = await harness.answer(evolvableText(file), item({ question: '2 + 2?' }), signal);
    expect(llm.requests.map((r) => r.messages)).toEqual([[{ role: 'user', content: 'Solve 2 + 2?\n' }]]);
    expect(a).toEqual({ input: 'Solve 2 + 2?\n', output: 'The answer is 4' });
  });

  it('sends instructions as the system message and the item’s message as the user message', async () => {
    const llm = scriptedAgent('none');
    const { file, harness } = harnessFor('.github/instructions/m.instructions.md', '---\napplyTo: "**"\n---\nBe brief.\n', 'system-message', llm);
    await harness.answer(evolvableText(file), item({ question: '2 + 2?' }), signal);
    expect(llm.requests[0]!.messages).toEqual([
      { role: 'system', content: 'Be brief.\n' },
      { role: 'user', content: '2 + 2?' },
    ]);
  });

  it.each([
    // [trigger, what the chooser answers, the score decided before any scorer (undefined: the answer is scored), agent calls]
    [true, 'It fits.\narithmetic', undefined, 2],
    [true, 'No skill fits.\nnone', 0, 1],
    [false, 'none', 1, 1],
    [false, 'arithmetic', 0, 1],
    [true, 'Hmm, I am not sure.', 0, 1],
    [undefined, '(never asked)', undefined, 1],
  ])('a skill with trigger %s, chooser answering %j: decided %s, %i agent calls', async (trigger, chooser, decided, calls) => {
    const llm = scriptedAgent(chooser);
    const { file, harness } = harnessFor('.github/skills/arithmetic/SKILL.md', SKILL, 'skill', llm);
    const a = await harness.answer(evolvableText(file), item({ question: 'What is 2 + 2?', ...(trigger === undefined ? {} : { trigger }) }), signal);
    expect(a.decided?.score).toBe(decided);
    expect(llm.requests).toHaveLength(calls);
    if (calls === 2 || trigger === undefined) {
      // Loaded: the body (not the description) is the system message of the answer.
      expect(llm.requests.at(-1)!.messages).toEqual([
        { role: 'system', content: 'Show the sum, then "The answer is N".\n' },
        { role: 'user', content: 'What is 2 + 2?' },
      ]);
    }
    if (trigger !== undefined) {
      // The chooser sees this version's description, under the skill's name, and the request.
      expect(llm.requests[0]!.messages[0]!.content).toContain('- arithmetic: Solve arithmetic questions. Use for sums.');
      expect(llm.requests[0]!.messages[1]).toEqual({ role: 'user', content: 'What is 2 + 2?' });
    }
  });

  it('says plainly when the model named neither the skill nor none', async () => {
    const { file, harness } = harnessFor('s/SKILL.md', SKILL, 'skill', scriptedAgent('Maybe.'));
    const a = await harness.answer(evolvableText(file), item({ question: 'What is 2 + 2?', trigger: 'yes' }), signal);
    expect(a).toEqual({
      input: 'What is 2 + 2?',
      output: '(skill check: the model named neither the skill nor none, so no skill loaded)',
      decided: { score: 0, reason: 'the skill should load for this request, and the model named neither the skill nor none, so no skill loaded' },
    });
  });

  it('counts the agent’s calls per evaluation for the estimate', () => {
    expect([agentCallsPerEvaluation({ type: 'chat' }, 'user-message'), agentCallsPerEvaluation({ type: 'chat' }, 'skill')]).toEqual([1, 2]);
    expect(agentCallsPerEvaluation({ type: 'command', command: 'x', timeoutSeconds: 1, env: [], network: 'on', supportFiles: [] }, 'skill')).toBe(0);
  });
});

describe('an item as a message', () => {
  it('is harness.message filled in, else the only variable, else `input`; a trigger label is not a message', () => {
    expect(itemMessage(item({ question: 'Q?', trigger: true }), undefined)).toBe('Q?');
    expect(itemMessage(item({ input: 'I', context: 'C' }), undefined)).toBe('I');
    expect(itemMessage(item({ q: 'Q', c: 'C' }), 'Context: {{c}}\n${input:q}')).toBe('Context: C\nQ');
    // No message to send is an error naming the item, never an empty question.
    expect(() => itemMessage(item({ q: 'Q', c: 'C' }), undefined)).toThrow(/^data\.jsonl:1:1: item has the variables "q", "c"; which one is the user's message\?/);
  });

  it('reports, before any call, an item with no message and a trigger that is neither yes nor no', () => {
    const items = [item({ q: 'Q', c: 'C' }, 'a'), item({ input: 'x', trigger: 'maybe' }, 'b'), item({ input: 'x', trigger: 'no' }, 'c')];
    expect(checkItemMessages(items, { message: undefined, skill: true }).map((d) => d.message)).toEqual([
      'item has the variables "q", "c"; which one is the user\'s message? Name it "input", or set harness.message in the run spec, e.g. message: "{{q}}"',
      '"trigger" is "maybe"; write true when the skill should load for this request, false when it should not',
    ]);
    expect(checkItemMessages(items.slice(0, 1), { message: '{{q}} {{missing}}', skill: false }).map((d) => d.message)).toEqual(['item has no "missing" variable, which harness.message uses']);
  });
});
