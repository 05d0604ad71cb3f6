// The fake endpoint's generalist model plays the agent and the proposer by what each request asks,
// as one real model does for a user who set only ratchet.models.default.
import { describe, expect, it } from 'vitest';
import { modelIds, normalizeScenario, roleOfModel } from '../../fixtures/fakeOpenAI/scenario';

describe('fake endpoint: a generalist model', () => {
  const s = normalizeScenario({ generalists: ['llama3.1'] });
  it('is listed, and plays the proposer for the proposer’s instructions and the agent otherwise', () => {
    expect(modelIds(s)).toContain('llama3.1');
    expect(roleOfModel(s, 'llama3.1', [{ role: 'system', content: 'You improve prompts for a language model.' }, { role: 'user', content: '…' }])).toBe('proposer');
    expect(roleOfModel(s, 'llama3.1', [{ role: 'user', content: 'Problem: 3 + 4?' }])).toBe('agent');
    expect(roleOfModel(s, 'gpt-4o-mini', [])).toBeUndefined();
  });
});
