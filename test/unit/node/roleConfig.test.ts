// Where each role's calls go: the face's override, the run spec, the editor's per-role settings,
// the face's defaults (the CLI's environment, the editor's settings), then OpenAI — and the key
// comes only from the face's defaults: the one a role's apiKeyEnv names, else the default key.
import { describe, expect, it } from 'vitest';
import { describeRoles } from '../../../src/core/llm/roles';
import { endpointDefaultsFromEnv } from '../../../src/core/run/endpointDefaults';
import type { RunSpec } from '../../../src/core/run/specTypes';
import { roleConfig } from '../../../src/node/runs/roles';

const spec = (models: Partial<Record<string, { model?: string; baseURL?: string; apiKeyEnv?: string }>>) => ({ models: { agent: {}, proposer: {}, validator: {}, meta: {}, challenger: {}, ...models }, origin: {} }) as unknown as RunSpec;

describe('roleConfig', () => {
  it('ranks the spec above per-role settings, those above the default model and RATCHET_MODEL', () => {
    const roles = roleConfig(spec({ agent: { model: 'from-spec' } }), { roleModels: { agent: 'x', validator: 'judge-from-settings' }, model: 'default-from-settings' }, { model: 'env-model' });
    expect(roles.agent?.model).toBe('from-spec');
    expect(roles.validator?.model).toBe('judge-from-settings');
    expect(roles.proposer?.model).toBe('default-from-settings');
  });

  it('falls back to OpenAI and OPENAI_API_KEY, and says what to set when no model is named', () => {
    const roles = roleConfig(spec({}), {}, { model: 'm', apiKey: 'sk-test' });
    expect(roles.meta).toEqual({
      baseURL: 'https://api.openai.com/v1',
      baseURLFrom: 'the default, OpenAI',
      model: 'm',
      modelFrom: 'RATCHET_MODEL',
      apiKey: 'sk-test',
      apiKeyFrom: 'OPENAI_API_KEY',
    });
    expect(() => roleConfig(spec({}), {}, {})).toThrow(/No model for the agent role: .*, or pass --model, set RATCHET_MODEL, or set ratchet\.models\.default in the editor\.$/);
  });

  it('says, for a run spec that names no model (an empty sidecar), which file to add the model to and what to write', () => {
    const sidecar = { ...spec({}), sources: [{ file: '/w/a.ratchet.yaml', kind: 'sidecar' as const }] };
    expect(() => roleConfig(sidecar, {}, {})).toThrow(
      'No model for the agent role: its run spec /w/a.ratchet.yaml names none; add to it "models: { default: { model: <model id> } }" (or models.agent.model for this role alone), or pass --model',
    );
    const none = { ...spec({}), sources: [] };
    expect(() => roleConfig(none, {}, {})).toThrow('No model for the agent role: the prompt has no run spec; create <prompt name>.ratchet.yaml beside it with "models: { default: { model: <model id> } }"');
  });

  it('lets --base-url override every role', () => {
    const roles = roleConfig(spec({ agent: { model: 'a', baseURL: 'http://spec/v1' } }), { baseURL: 'http://cli/v1', model: 'b' }, {});
    expect(roles.agent?.baseURL).toBe('http://cli/v1');
  });

  it('takes a role’s key by the name its apiKeyEnv gives, else the default key', () => {
    const roles = roleConfig(spec({ validator: { apiKeyEnv: 'JUDGE_KEY' }, meta: { apiKeyEnv: 'UNSET_KEY' } }), { model: 'm' }, { apiKey: 'sk-default', apiKeys: { JUDGE_KEY: 'sk-judge' } });
    expect([roles.agent?.apiKey, roles.validator?.apiKey, roles.meta?.apiKey]).toEqual(['sk-default', 'sk-judge', 'sk-default']);
  });

  it('remembers where each role’s key came from, so a 401 names the place to fix', () => {
    const models = { validator: { apiKeyEnv: 'JUDGE_KEY' }, meta: { apiKeyEnv: 'UNSET_KEY' } };
    const keyed = roleConfig(spec(models), { model: 'm' }, { apiKey: 'sk-default', apiKeys: { JUDGE_KEY: 'sk-judge' }, apiKeyFrom: 'OPENAI_API_KEY' });
    expect([keyed.agent?.apiKeyFrom, keyed.validator?.apiKeyFrom, keyed.meta?.apiKeyFrom]).toEqual(['OPENAI_API_KEY', 'JUDGE_KEY (models.validator.apiKeyEnv)', 'OPENAI_API_KEY, as UNSET_KEY (models.meta.apiKeyEnv) is not set']);
    // No key at all: where one would be set.
    const keyless = roleConfig(spec(models), { model: 'm' }, { apiKeyFrom: 'Ratchet: Set API Key' });
    expect([keyless.agent?.apiKeyFrom, keyless.meta?.apiKeyFrom, keyless.meta?.apiKey]).toEqual(['Ratchet: Set API Key', 'UNSET_KEY (models.meta.apiKeyEnv)', undefined]);
  });

  it('refuses a base URL with a user name and password, naming where it came from, the password blanked', () => {
    const run =
      (o: object, models = {}, defaults = {}) =>
      () =>
        roleConfig(spec(models), { model: 'm', ...o }, defaults);
    expect(run({ baseURL: 'http://bob:hunter22@proxy/v1' })).toThrow(
      'The base URL from --base-url, "http://[redacted]@proxy/v1", has a user name or password in it, which the OpenAI client cannot send (fetch refuses such URLs): remove it from the URL and give the key as the API key instead (OPENAI_API_KEY or models.agent.apiKeyEnv).',
    );
    expect(run({}, { agent: { baseURL: 'https://bob:pw@h/v1' } })).toThrow(/^The base URL from the run spec's models\.agent\.baseURL, "https:\/\/\[redacted\]@h\/v1"/);
    expect(run({}, {}, { baseURL: 'https://bob@h/v1', baseURLFrom: 'setting ratchet.endpoint.baseUrl' })).toThrow(/^The base URL from setting ratchet\.endpoint\.baseUrl, "https:\/\/\[redacted\]@h\/v1"/);
    // A key in the query (Azure style) is sent as given.
    expect(run({ baseURL: 'https://x.azure.com/openai/v1?api-key=SECRET' })().agent?.baseURL).toBe('https://x.azure.com/openai/v1?api-key=SECRET');
  });

  it('refuses a base URL whose credentials were blanked when the run was written down, asking for the full URL', () => {
    expect(() => roleConfig(spec({}), { model: 'm', baseURL: 'https://x.azure.com/v1?api-key=[redacted]' }, {})).toThrow(
      'The base URL from --base-url, "https://x.azure.com/v1?api-key=[redacted]", had credentials that Ratchet does not write down: pass the full URL again with --base-url.',
    );
  });

  it('reads the CLI’s defaults from its environment, an empty variable as unset', () => {
    expect(endpointDefaultsFromEnv({ OPENAI_BASE_URL: 'http://local/v1', RATCHET_MODEL: '', OPENAI_API_KEY: 'sk-x', JUDGE_KEY: 'sk-j', GONE: undefined })).toEqual({
      baseURL: 'http://local/v1',
      apiKey: 'sk-x',
      apiKeys: { OPENAI_BASE_URL: 'http://local/v1', OPENAI_API_KEY: 'sk-x', JUDGE_KEY: 'sk-j' },
      baseURLFrom: 'OPENAI_BASE_URL',
      apiKeyFrom: 'OPENAI_API_KEY',
      modelFrom: 'RATCHET_MODEL',
    });
  });

  it('sends every role to the editor’s language models when they answer, with no base URL and no key, leaving an unset model to the editor', () => {
    const roles = roleConfig(spec({ agent: { model: 'from-spec', baseURL: 'http://spec/v1' } }), { roleModels: { validator: 'judge' } }, { apiKey: 'sk-x' }, true);
    // The meta role names no model: it stays undefined rather than taking the agent's.
    expect(describeRoles(roles)).toEqual({ agent: { model: 'from-spec' }, proposer: {}, validator: { model: 'judge' }, meta: {}, challenger: {} });
  });
});
