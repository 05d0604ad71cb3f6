import { describe, expect, it } from 'vitest';
import { PRICES_AS_OF, listedPrice } from '../../../src/core/llm/prices';

describe('listedPrice', () => {
  it('finds a model by its exact id, with the cached-input rate where the provider has one', () => {
    expect(listedPrice('gpt-4o-mini')).toEqual({ inputPerMTok: 0.15, outputPerMTok: 0.6, cachedInputPerMTok: 0.075 });
    expect(listedPrice('gpt-3.5-turbo')).toEqual({ inputPerMTok: 0.5, outputPerMTok: 1.5 });
    expect(listedPrice('claude-sonnet-4-5')).toEqual({ inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3 });
  });

  it('reads dated snapshots and -latest aliases as their model, unless the snapshot has its own price', () => {
    expect(listedPrice('gpt-4o-mini-2024-07-18')).toEqual(listedPrice('gpt-4o-mini'));
    expect(listedPrice('claude-sonnet-4-5-20250929')).toEqual(listedPrice('claude-sonnet-4-5'));
    expect(listedPrice('claude-3-7-sonnet-latest')).toEqual(listedPrice('claude-3-7-sonnet'));
    expect(listedPrice('gpt-4o-2024-08-06')).toEqual({ inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 });
    expect(listedPrice('gpt-4o-2024-05-13')).toEqual({ inputPerMTok: 5, outputPerMTok: 15 });
  });

  it('strips provider prefixes and reads dotted versions (OpenRouter, Gemini model paths), case-insensitively', () => {
    expect(listedPrice('openai/gpt-4o')).toEqual(listedPrice('gpt-4o'));
    expect(listedPrice('models/gemini-2.5-flash')).toEqual({ inputPerMTok: 0.3, outputPerMTok: 2.5, cachedInputPerMTok: 0.03 });
    expect(listedPrice('anthropic/claude-sonnet-4.5')).toEqual(listedPrice('claude-sonnet-4-5'));
    expect(listedPrice(' GPT-4.1-Mini ')).toEqual({ inputPerMTok: 0.4, outputPerMTok: 1.6, cachedInputPerMTok: 0.1 });
  });

  it('prices nothing it does not list: local models, fine-tunes, look-alikes', () => {
    for (const model of ['llama3.1:8b', 'sim-agent', 'ft:gpt-4o-mini:acme::abc123', 'gpt-4o-mini-2024', 'my-gpt-4o', 'constructor', 'toString']) {
      expect(listedPrice(model), model).toBeUndefined();
    }
  });

  it('is dated', () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
