// The sampling transport: the engine's chat request as MCP's sampling/createMessage, and back.
import { describe, expect, it } from 'vitest';
import { SAMPLING_MAX_TOKENS, SamplingTransport } from '../../../src/mcp/sampling';
import type { SamplingServer } from '../../../src/mcp/sampling';
import { RatchetError } from '../../../src/core/errors';

type Params = Parameters<SamplingServer['createMessage']>[0];

function server(answer: (p: Params) => unknown): { sent: Params[]; server: SamplingServer } {
  const sent: Params[] = [];
  return {
    sent,
    server: {
      createMessage: (async (p: Params) => {
        sent.push(p);
        return answer(p);
      }) as SamplingServer['createMessage'],
    },
  };
}

const signal = new AbortController().signal;

describe('SamplingTransport', () => {
  it('sends system text as the system prompt, turns as they are, the role’s model as a hint; reads the text back', async () => {
    const s = server(() => ({ role: 'assistant', model: 'claude-x', content: { type: 'text', text: 'The answer is 4' }, stopReason: 'endTurn' }));
    const res = await new SamplingTransport(s.server).chat(
      {
        role: 'agent',
        model: 'sim-agent',
        temperature: 0,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'What is 2 + 2?' },
          { role: 'assistant', content: 'Thinking.' },
          { role: 'user', content: 'Answer.' },
        ],
      },
      signal,
    );
    expect(s.sent[0]).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: 'What is 2 + 2?' } },
        { role: 'assistant', content: { type: 'text', text: 'Thinking.' } },
        { role: 'user', content: { type: 'text', text: 'Answer.' } },
      ],
      systemPrompt: 'Be brief.',
      maxTokens: SAMPLING_MAX_TOKENS,
      temperature: 0,
      modelPreferences: { hints: [{ name: 'sim-agent' }] },
      includeContext: 'none',
    });
    expect(res).toMatchObject({ text: 'The answer is 4', model: 'claude-x', finishReason: 'stop', logprobs: undefined });
    expect(res.usage.completionTokens).toBeGreaterThan(0);
  });

  it('a cut-off answer says so; text blocks of a list are joined; an answer with no text is malformed', async () => {
    const cut = server(() => ({
      role: 'assistant',
      model: 'm',
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
      stopReason: 'maxTokens',
    }));
    expect(await new SamplingTransport(cut.server).chat({ role: 'agent', maxTokens: 5, messages: [{ role: 'user', content: 'x' }] }, signal)).toMatchObject({ text: 'ab', finishReason: 'length' });
    expect(cut.sent[0]!.maxTokens).toBe(5);
    const image = server(() => ({ role: 'assistant', model: 'm', content: { type: 'image', data: '', mimeType: 'image/png' } }));
    await expect(new SamplingTransport(image.server).chat({ role: 'validator', messages: [{ role: 'user', content: 'x' }] }, signal)).rejects.toMatchObject({ code: 'llmMalformed' });
  });

  it('a refusal is the user’s to fix (no retry); a lost answer is transient', async () => {
    const declined = server(() => {
      throw Object.assign(new Error('User rejected sampling request'), { code: -1 });
    });
    const err = await new SamplingTransport(declined.server).chat({ role: 'agent', messages: [{ role: 'user', content: 'x' }] }, signal).catch((e: unknown) => e);
    expect(RatchetError.is(err, 'badInput')).toBe(true);
    expect((err as Error).message).toMatch(/The MCP client refused to sample for the agent role \(User rejected sampling request\); allow sampling for Ratchet/);
    const lost = server(() => {
      throw Object.assign(new Error('Connection closed'), { code: -32000 });
    });
    await expect(new SamplingTransport(lost.server).chat({ role: 'agent', messages: [{ role: 'user', content: 'x' }] }, signal)).rejects.toMatchObject({ code: 'llmHttp', details: { status: 500 } });
  });
});
