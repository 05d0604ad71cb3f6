import { describe, expect, it } from 'vitest';
import { languageModelError, modelOptions, pickModel, toChatTurns } from '../../../src/extension/lm/chat';

const models = [
  { id: 'copilot-gpt-4o', family: 'gpt-4o', vendor: 'copilot', name: 'GPT-4o' },
  { id: 'copilot-claude', family: 'claude-sonnet', vendor: 'copilot', name: 'Claude' },
];

describe('pickModel', () => {
  it('prefers the family, then the id, then any model', () => {
    expect(pickModel(models, { family: 'claude-sonnet' })?.id).toBe('copilot-claude');
    expect(pickModel(models, { id: 'copilot-claude' })?.id).toBe('copilot-claude');
    expect(pickModel(models, { id: 'gpt-4o' })?.id).toBe('copilot-gpt-4o');
    expect(pickModel(models, { family: 'nope', id: 'nope' })?.id).toBe('copilot-gpt-4o');
    expect(pickModel(models, {})?.id).toBe('copilot-gpt-4o');
    expect(pickModel([], {})).toBeUndefined();
  });
});

describe('toChatTurns', () => {
  it('puts system text first in the opening user turn and merges same-role neighbours', () => {
    expect(
      toChatTurns([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Q1' },
        { role: 'user', content: 'Q2' },
        { role: 'assistant', content: 'A' },
      ]),
    ).toEqual([
      { role: 'user', content: 'Instructions:\nBe brief.\n\nQ1\n\nQ2' },
      { role: 'assistant', content: 'A' },
    ]);
  });

  it('opens with a user turn when the conversation starts with the assistant', () => {
    expect(
      toChatTurns([
        { role: 'system', content: 'S' },
        { role: 'assistant', content: 'A' },
      ]),
    ).toEqual([
      { role: 'user', content: 'Instructions:\nS' },
      { role: 'assistant', content: 'A' },
    ]);
  });
});

describe('modelOptions and languageModelError', () => {
  it('passes only the options that are set, in OpenAI names', () => {
    expect(modelOptions({ temperature: 0, maxTokens: 100, stop: [] })).toEqual({ temperature: 0, max_tokens: 100 });
  });

  it('maps LanguageModelError codes onto engine errors: a refusal is bad input, anything else transient', () => {
    const errors = ['NoPermissions', 'Blocked', 'NotFound', 'Other', undefined].map((code) => languageModelError(code, 'Copilot: no'));
    expect(errors.map((e) => [e.code, e.details])).toEqual([
      ['badInput', {}],
      ['badInput', {}],
      ['badInput', {}],
      ['llmHttp', { status: 500 }],
      ['llmHttp', { status: 500 }],
    ]);
    expect(errors.every((e) => e.message.includes('Copilot: no'))).toBe(true);
  });
});
