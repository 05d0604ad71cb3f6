// Where each role's calls go: the face's override, the run spec, the editor's per-role settings,
// the environment, then OpenAI — and the key never comes from anywhere but the environment.
import { describe, expect, it } from 'vitest';
import { roleConfig } from '../../../src/node/evolveRun';
import type { RunSpec } from '../../../src/core/run/specTypes';

const spec = (models: Partial<Record<string, { model?: string; baseURL?: string }>>) =>
  ({ models: { agent: {}, proposer: {}, validator: {}, meta: {}, challenger: {}, ...models } }) as unknown as RunSpec;

describe('roleConfig', () => {
  it('ranks the spec above per-role settings, those above the default model and RATCHET_MODEL', () => {
    const roles = roleConfig(spec({ agent: { model: 'from-spec' } }), { roleModels: { agent: 'x', validator: 'judge-from-settings' }, model: 'default-from-settings' }, { RATCHET_MODEL: 'env-model' });
    expect(roles.agent?.model).toBe('from-spec');
    expect(roles.validator?.model).toBe('judge-from-settings');
    expect(roles.proposer?.model).toBe('default-from-settings');
  });

  it('falls back to OpenAI and OPENAI_API_KEY, and says what to set when no model is named', () => {
    const roles = roleConfig(spec({}), {}, { RATCHET_MODEL: 'm', OPENAI_API_KEY: 'sk-test' });
    expect(roles.meta).toEqual({ baseURL: 'https://api.openai.com/v1', model: 'm', apiKey: 'sk-test' });
    expect(() => roleConfig(spec({}), {}, {})).toThrow(/No model for the agent role: pass --model, set RATCHET_MODEL/);
  });

  it('lets --base-url override every role', () => {
    const roles = roleConfig(spec({ agent: { model: 'a', baseURL: 'http://spec/v1' } }), { baseURL: 'http://cli/v1', model: 'b' }, {});
    expect(roles.agent?.baseURL).toBe('http://cli/v1');
  });
});
