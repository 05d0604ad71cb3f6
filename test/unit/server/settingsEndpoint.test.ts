// What a run started from the editor falls back to where its spec names no endpoint: the settings,
// else the server's environment read as the CLI reads the shell's — and only the variables that
// say so, never a copy of the environment.
import { describe, expect, it } from 'vitest';
import { redact } from '../../../src/core/redact';
import { endpointDefaults } from '../../../src/server/settings';

const env = { OPENAI_BASE_URL: 'http://env/v1', RATCHET_MODEL: 'env-model', OPENAI_API_KEY: 'sk-from-env', JUDGE_KEY: 'sk-judge', HOME: '/home/u', PATH: '/bin' };

describe('endpointDefaults', () => {
  it('ranks the settings above the server’s environment, and takes only the named keys from it', () => {
    expect(endpointDefaults({ provider: 'openai', trusted: true, baseURL: 'http://set/v1', models: { default: 'set-model' }, apiKey: 'sk-from-settings' }, env, ['JUDGE_KEY', 'UNSET'])).toEqual({
      baseURL: 'http://set/v1',
      model: 'set-model',
      apiKey: 'sk-from-settings',
      apiKeys: { JUDGE_KEY: 'sk-judge' },
      baseURLFrom: 'setting ratchet.endpoint.baseUrl',
      apiKeyFrom: 'the key stored with Ratchet: Set API Key',
      modelFrom: 'setting ratchet.models.default',
    });
    expect(endpointDefaults({ provider: 'openai', trusted: true }, env)).toEqual({
      baseURL: 'http://env/v1',
      model: 'env-model',
      apiKey: 'sk-from-env',
      baseURLFrom: "OPENAI_BASE_URL (the editor's environment)",
      apiKeyFrom: "OPENAI_API_KEY (the editor's environment)",
      modelFrom: "RATCHET_MODEL (the editor's environment)",
    });
    // No key anywhere: a 401 says where to set one.
    expect(endpointDefaults({ provider: 'openai', trusted: true }, {})).toEqual({ apiKeyFrom: 'Ratchet: Set API Key' });
  });

  it('sends no key at all when the editor’s language models answer', () => {
    expect(endpointDefaults({ provider: 'vscode-lm', trusted: true, models: { default: 'gpt-4o' } }, env, ['JUDGE_KEY'])).toEqual({ model: 'gpt-4o', modelFrom: 'setting ratchet.models.default' });
  });

  it('is blanked whole wherever it would be written down', () => {
    const written = JSON.stringify(redact({ endpoint: endpointDefaults({ provider: 'openai', trusted: true, apiKey: 'opaque-key' }, env, ['JUDGE_KEY']) }));
    expect(written).not.toContain('opaque-key');
    expect(written).not.toContain('sk-judge');
  });
});
