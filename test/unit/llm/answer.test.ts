import { describe, expect, it } from 'vitest';
import { finalAnswer, isTruncatedFinish, splitReasoning } from '../../../src/core/llm/answer';
import { createLlmClient, moreRoom } from '../../../src/core/llm/client';
import { FILTERED_PROBLEM, readFinal } from '../../../src/core/llm/reask';
import { DEFAULT_RETRY } from '../../../src/core/llm/retry';
import type { ChatResponse } from '../../../src/core/llm/types';
import { MemoryLog, VirtualClock, constantRandom } from '../../fixtures/llmPorts';
import { FakeTransport } from './fakeTransport';
import type { Behaviour } from './fakeTransport';

const raw = (text: string, extra: Partial<ChatResponse> = {}): ChatResponse => ({
  text,
  finishReason: 'stop',
  logprobs: undefined,
  usage: { promptTokens: 10, completionTokens: 5 },
  model: 'm',
  ...extra,
});

describe('splitReasoning: every shape of reasoning a model or server sends', () => {
  it.each([
    ['a <think> section', '<think>\nA is right? No, B.\n</think>\nANSWER-x: B', 'ANSWER-x: B', 'A is right? No, B.'],
    ['a <thinking> section, any case', '<THINKING>draft</THINKING>\n\nFinal.', 'Final.', 'draft'],
    ['two sections', '<think>one</think>middle\n<think>two</think> end', 'middle\n end', 'one\n\ntwo'],
    ['a tag named in prose with words inside it', 'Tell the model: reason inside <think>your step-by-step work</think>, then answer.', 'Tell the model: reason inside <think>your step-by-step work</think>, then answer.', undefined],
    [
      'a format example inside the block the call asked for',
      'Reasoning: show the format.\n<<<PROMPT-0a1b2c3d4e5f>>>\nReply in this format:\n<think>\nyour reasoning\n</think>\nAnswer: <number>\n<<<END PROMPT-0a1b2c3d4e5f>>>',
      'Reasoning: show the format.\n<<<PROMPT-0a1b2c3d4e5f>>>\nReply in this format:\n<think>\nyour reasoning\n</think>\nAnswer: <number>\n<<<END PROMPT-0a1b2c3d4e5f>>>',
      undefined,
    ],
    ['a reasoning section before the block is still one', '<think>\nDraft it.\n</think>\n<<<PROMPT-0a1b2c3d4e5f>>>\nP\n<<<END PROMPT-0a1b2c3d4e5f>>>', '<<<PROMPT-0a1b2c3d4e5f>>>\nP\n<<<END PROMPT-0a1b2c3d4e5f>>>', 'Draft it.'],
    ['a lone </think>: the template opened it', 'Let me see… maybe A.\n</think>\n\nANSWER-x: B', 'ANSWER-x: B', 'Let me see… maybe A.'],
    ['an unterminated <think>: never answered', 'Sure.\n<think>\nStill thinking about A and B', 'Sure.', 'Still thinking about A and B'],
    ['[THINK]…[/THINK] (Magistral)', '[THINK]compare both[/THINK]The answer is 4', 'The answer is 4', 'compare both'],
    ['harmony channels', '<|channel|>analysis<|message|>We compare.<|end|><|start|>assistant<|channel|>final<|message|>ANSWER-x: A<|return|>', 'ANSWER-x: A', 'We compare.'],
    ['harmony flattened by a server without its tokens', 'analysisWe compare A and B.assistantfinalANSWER-x: A', 'ANSWER-x: A', 'We compare A and B.'],
    ['no reasoning at all', '  Just the answer.\n', 'Just the answer.', undefined],
    ['prose that merely says "analysis"', 'analysis of both: A wins', 'analysis of both: A wins', undefined],
    ['harmony flattened, never reaching the final channel', 'analysisWe compare A and B.', '', 'We compare A and B.'],
    ['harmony with <|constrain|>json', '<|channel|>analysis<|message|>x<|end|><|start|>assistant<|channel|>final <|constrain|>json<|message|>{"v": 1}<|return|>', '{"v": 1}', 'x'],
    ['◁think▷…◁/think▷ (Kimi)', '◁think▷compare both◁/think▷B', 'B', 'compare both'],
    ['an empty <think> pair first (Qwen3, thinking off)', '<think>\n\n</think>\n\nB', 'B', undefined],
    ['<think> tags named in prose', 'Think inside <think></think> or <think>...</think> tags.', 'Think inside <think></think> or <think>...</think> tags.', undefined],
    ['an unclosed <think> named in prose', 'Wrap it in a <think> tag.', 'Wrap it in a <think> tag.', undefined],
    ['end-of-turn tokens left as text', 'B<|im_end|>\n<|endoftext|>\n', 'B', undefined],
  ])('%s', (_name, content, answer, reasoning) => {
    const split = splitReasoning(content);
    expect(split.answer).toBe(answer);
    expect(split.reasoning).toBe(reasoning);
  });

  it('says where a contiguous answer lies in the content, so its tokens keep their logprobs', () => {
    const content = '<think>hmm</think>\n ANSWER-x: A';
    const split = splitReasoning(content);
    expect(content.slice(split.span!.start, split.span!.end)).toBe('ANSWER-x: A');
    const tokens = ['<think>', 'hmm', '</think>', '\n ANSWER', '-x', ':', ' A'].map((token, i) => ({ token, logprob: -i }));
    const res = finalAnswer(raw(content, { logprobs: tokens }));
    expect(res.logprobs!.map((t) => t.token).join('')).toBe('ANSWER-x: A');
    expect(res.logprobs!.at(-1)).toEqual({ token: ' A', logprob: -6 });
    // Reasoning in the middle of the answer leaves no single span: no logprobs rather than wrong offsets.
    expect(finalAnswer(raw('a\n<think>b</think>c', { logprobs: [{ token: 'a\n<think>b</think>c', logprob: 0 }] })).logprobs).toBeUndefined();
  });
});

describe('finalAnswer', () => {
  it('joins a reasoning field with the sections taken out of the content, and marks a length stop truncated', () => {
    const res = finalAnswer(raw('<think>second</think>Done.', { reasoning: 'first', finishReason: 'length' }));
    expect(res).toEqual({ ...raw('Done.'), reasoning: 'first\n\nsecond', finishReason: 'length', truncated: true });
  });

  it('knows the finish reasons that mean a length limit', () => {
    for (const r of ['length', 'max_tokens', 'MAX_TOKENS', 'max_output_tokens', 'model_length']) expect(isTruncatedFinish(r)).toBe(true);
    for (const r of ['stop', 'end_turn', 'tool_calls', undefined]) expect(isTruncatedFinish(r)).toBe(false);
  });

  it('marks an answer a content filter stopped as cut off, and as filtered', () => {
    for (const r of ['content_filter', 'SAFETY', 'recitation']) expect(finalAnswer(raw('ANSWER-0a1b2c3d4e5f: A\nWait, actually', { finishReason: r }))).toMatchObject({ truncated: true, filtered: true });
    expect(finalAnswer(raw('Done.', { finishReason: 'stop' })).truncated).toBeUndefined();
  });
});

describe('LlmLayer: a cut-off answer', () => {
  function layer(script: Behaviour[]) {
    const transport = new FakeTransport(script);
    const llm = createLlmClient({
      transport,
      roles: { default: { baseURL: 'http://fake/v1', model: 'm' } },
      concurrency: 2,
      timeoutMs: 0,
      retry: DEFAULT_RETRY,
      clock: new VirtualClock(),
      random: constantRandom(0.5),
      log: new MemoryLog(),
    });
    return { llm, transport };
  }
  const cut =
    (text: string, completionTokens: number): Behaviour =>
    async () =>
      raw(text, { finishReason: 'length', usage: { promptTokens: 10, completionTokens } });
  const whole =
    (text: string): Behaviour =>
    async () =>
      raw(text);

  it('is asked for again once with twice the room, and the second answer is read', async () => {
    const { llm, transport } = layer([cut('<think>long reasoning', 300), whole('<think>long reasoning</think>ANSWER-x: A')]);
    const res = await llm.chat({ role: 'validator', messages: [{ role: 'user', content: 'q' }] });
    expect(res.text).toBe('ANSWER-x: A');
    expect(res.truncated).toBeUndefined();
    expect(transport.requests.map((r) => r.maxTokens)).toEqual([undefined, 2048]);
    expect(llm.cost().validator).toMatchObject({ calls: 2 });
    expect(llm.cost().validator.truncated).toBeUndefined();
  });

  it('comes back marked truncated, and counted, when the second answer is cut off too', async () => {
    const { llm, transport } = layer([cut('The answer is 1', 50), cut('The answer is 12', 200)]);
    const res = await llm.chat({ role: 'proposer', messages: [{ role: 'user', content: 'q' }], maxTokens: 100 });
    expect(res).toMatchObject({ text: 'The answer is 12', truncated: true });
    expect(transport.requests.map((r) => r.maxTokens)).toEqual([100, 200]);
    expect(llm.cost().proposer.truncated).toBe(1);
  });

  it("is kept as it is when the limit is part of what is evaluated (the agent's maxTokens)", async () => {
    const { llm, transport } = layer([cut('The answer is 1', 50)]);
    const res = await llm.chat({ role: 'agent', messages: [{ role: 'user', content: 'q' }], maxTokens: 50, onTruncated: 'keep' });
    expect(res.truncated).toBe(true);
    expect(transport.calls).toBe(1);
    expect(transport.requests[0]).not.toHaveProperty('onTruncated');
    expect(llm.cost().agent.truncated).toBe(1);
  });

  it('is not asked for again with more room when a content filter stopped it, and no judge reads it', async () => {
    const { llm, transport } = layer([async () => raw('ANSWER-x: A\nWait, actually', { finishReason: 'content_filter', usage: { promptTokens: 10, completionTokens: 7 } })]);
    const res = await llm.chat({ role: 'validator', messages: [{ role: 'user', content: 'q' }] });
    expect(res).toMatchObject({ truncated: true, filtered: true });
    expect(transport.calls).toBe(1);
    expect(llm.cost().validator.truncated).toBe(1);
    expect(readFinal(res, () => ({ ok: true, value: 'A' }))).toEqual({ ok: false, problem: FILTERED_PROBLEM });
  });

  it('asks for twice the limit it hit, or twice what the endpoint wrote under its own default', () => {
    expect(moreRoom(256, 256)).toBe(512);
    expect(moreRoom(undefined, 4096)).toBe(8192);
    expect(moreRoom(undefined, 0)).toBe(2048);
    expect(moreRoom(undefined, 300)).toBe(2048);
  });
});
