import { describe, expect, it } from 'vitest';
import { readUsage } from '../../../src/node/openaiTransport';

describe('readUsage', () => {
  it('keeps the cached prompt tokens an endpoint reports, and only then', () => {
    expect(readUsage({ prompt_tokens: 1200, completion_tokens: 40, prompt_tokens_details: { cached_tokens: 1024 } })).toEqual({
      promptTokens: 1200,
      completionTokens: 40,
      cachedPromptTokens: 1024,
    });
    expect(readUsage({ prompt_tokens: 1200, completion_tokens: 40, prompt_tokens_details: { cached_tokens: 0 } })).toEqual({ promptTokens: 1200, completionTokens: 40 });
    expect(readUsage({ prompt_tokens: 12, completion_tokens: 4 })).toEqual({ promptTokens: 12, completionTokens: 4 });
  });

  it('never counts more cached tokens than prompt tokens, and reads a missing usage as zero', () => {
    expect(readUsage({ prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 50 } }).cachedPromptTokens).toBe(10);
    expect(readUsage(undefined)).toEqual({ promptTokens: 0, completionTokens: 0 });
  });

  it('bills reasoning tokens as output whether the endpoint counts them in completion_tokens or beside them', () => {
    // OpenAI: reasoning is part of completion_tokens.
    expect(readUsage({ prompt_tokens: 20, completion_tokens: 533, total_tokens: 553, completion_tokens_details: { reasoning_tokens: 382 } })).toEqual({
      promptTokens: 20,
      completionTokens: 533,
      reasoningTokens: 382,
    });
    // A Gemini gateway: completion_tokens without the thoughts, total_tokens with them.
    expect(readUsage({ prompt_tokens: 20, completion_tokens: 151, total_tokens: 553, completion_tokens_details: { reasoning_tokens: 382 } })).toEqual({
      promptTokens: 20,
      completionTokens: 533,
      reasoningTokens: 382,
    });
    // No total, and the reasoning alone is more than the completion: it was left out of it.
    expect(readUsage({ prompt_tokens: 21, completion_tokens: 0, completion_tokens_details: { reasoning_tokens: 60 } })).toEqual({
      promptTokens: 21,
      completionTokens: 60,
      reasoningTokens: 60,
    });
  });
});
