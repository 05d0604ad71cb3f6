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
});
