// Where each role's calls go: the face's override, the run spec, the editor's per-role settings,
// the face's defaults (the CLI's environment, the editor's settings), then OpenAI — and the key
// comes only from the face's defaults: the one a role's apiKeyEnv names, else the default key.
import { describe, expect, it } from 'vitest';
import { describeRoles } from '../../../src/core/llm/roles';
import { roleConfig } from '../../../src/node/evolveRun';
import { endpointDefaultsFromEnv } from '../../../src/core/run/endpointDefaults';
import type { RunSpec } from '../../../src/core/run/specTypes';

const spec = (models: Partial<Record<string, { model?: string; baseURL?: string; apiKeyEnv?: string }>>) =>
  ({ models: { agent: {}, proposer: {}, validator: {}, meta: {}, challenger: {}, ...models } }) as unknown as RunSpec;

describe('roleConfig', () => {
  it('ranks the spec above per-role settings, those above the default model and RATCHET_MODEL', () => {
    const roles = roleConfig(spec({ agent: { model: 'from-spec' } }), { roleModels: { agent: 'x', validator: 'judge-from-settings' }, model: 'default-from-settings' }, { model: 'env-model' });
    expect(roles.agent?.model).toBe('from-spec');
    expect(roles.validator?.model).toBe('judge-from-settings');
    expect(roles.proposer?.model).toBe('default-from-settings');
  });

  it('falls back to OpenAI and OPENAI_API_KEY, and says what to set when no model is named', () => {
    const roles = roleConfig(spec({}), {}, { model: 'm', apiKey: 'sk-test' });
    expect(roles.meta).toEqual({ baseURL: 'https://api.openai.com/v1', model: 'm', apiKey: 'sk-test' });
    expect(() => roleConfig(spec({}), {}, {})).toThrow(/No model for the agent role: pass --model, set RATCHET_MODEL/);
  });

  it('lets --base-url override every role', () => {
    const roles = roleConfig(spec({ agent: { model: 'a', baseURL: 'http://spec/v1' } }), { baseURL: 'http://cli/v1', model: 'b' }, {});
    expect(roles.agent?.baseURL).toBe('http://cli/v1');
  });

  it('takes a role’s key by the name its apiKeyEnv gives, else the default key', () => {
    const roles = roleConfig(spec({ validator: { apiKeyEnv: 'JUDGE_KEY' }, meta: { apiKeyEnv: 'UNSET_KEY' } }), { model: 'm' }, { apiKey: 'sk-default', apiKeys: { JUDGE_KEY: 'sk-judge' } });
    expect([roles.agent?.apiKey, roles.validator?.apiKey, roles.meta?.apiKey]).toEqual(['sk-default', 'sk-judge', 'sk-default']);
  });

  it('reads the CLI’s defaults from its environment, an empty variable as unset', () => {
    expect(endpointDefaultsFromEnv({ OPENAI_BASE_URL: 'http://local/v1', RATCHET_MODEL: '', OPENAI_API_KEY: 'sk-x', JUDGE_KEY: 'sk-j', GONE: undefined })).toEqual({
      baseURL: 'http://local/v1',
      apiKey: 'sk-x',
      apiKeys: { OPENAI_BASE_URL: 'http://local/v1', OPENAI_API_KEY: 'sk-x', JUDGE_KEY: 'sk-j' },
    });
  });

  it('sends every role to the editor’s language models when they answer, with no base URL and no key, leaving an unset model to the editor', () => {
    const roles = roleConfig(spec({ agent: { model: 'from-spec', baseURL: 'http://spec/v1' } }), { roleModels: { validator: 'judge' } }, { apiKey: 'sk-x' }, true);
    // The meta role names no model: it stays undefined rather than taking the agent's.
    expect(describeRoles(roles)).toEqual({ agent: { model: 'from-spec' }, proposer: {}, validator: { model: 'judge' }, meta: {}, challenger: {} });
  });
});
