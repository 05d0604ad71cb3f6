// The server checks the editor's settings against the one schema of ServerSettings
// (src/protocol/serverSettings.ts): each field's problem message is the schema's own words, the
// client's value lists are the schema's, and what the client sends passes it untouched.
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { SETTINGS, readSettings as readClientSettings, toServerSettings } from '../../../src/extension/settings';
import type { SettingKey } from '../../../src/extension/settings';
import { GATE_NAMES, MODEL_ROLES, PROVIDERS, RUN_MODES, SERVER_SETTINGS_SCHEMA } from '../../../src/protocol/serverSettings';
import { DEFAULT_SETTINGS, readSettings } from '../../../src/server/settings';

describe('server settings: the shared schema', () => {
  it('is a valid draft-07 schema under strict Ajv (the server compiles it without checking it again)', () => {
    const ajv = new Ajv({ strict: true });
    ajv.addVocabulary(['x-expected']);
    expect(ajv.validateSchema(SERVER_SETTINGS_SCHEMA)).toBe(true);
    expect(ajv.errors ?? []).toEqual([]);
    expect(() => ajv.compile(SERVER_SETTINGS_SCHEMA)).not.toThrow();
  });

  it.each(Object.entries(SERVER_SETTINGS_SCHEMA.properties))('drops a bad %s with the schema’s words', (field, schema) => {
    const bad = schema.type === 'object' ? 3 : schema.type === 'string' ? 42 : 'x';
    const { settings, problems } = readSettings({ [field]: bad });
    expect(problems).toEqual([`ratchet settings: ${field} must be ${schema['x-expected']}; ignored`]);
    expect(settings).toEqual(DEFAULT_SETTINGS);
  });

  it('drops one bad entry of a map and keeps the rest; unknown keys go silently', () => {
    const { settings, problems } = readSettings({
      provider: 'vscode-lm',
      trusted: true,
      models: { default: 'm', judge: 'x', agent: '' },
      budget: { calls: 10, candidates: -1, later: 1 },
      prices: { m: { input: 1, output: 2, note: 'azure' } },
      fromANewerClient: true,
    });
    expect(settings).toEqual({ provider: 'vscode-lm', trusted: true, models: { default: 'm' }, budget: { calls: 10 }, prices: { m: { input: 1, output: 2 } } });
    expect(problems).toEqual([
      `ratchet settings: models.judge must be a model id for one of ${MODEL_ROLES.join(', ')}; ignored`,
      `ratchet settings: models.agent must be a model id for one of ${MODEL_ROLES.join(', ')}; ignored`,
      'ratchet settings: budget.candidates must be a whole number; ignored',
    ]);
  });

  it('says so when the settings are not an object at all', () => {
    expect(readSettings([1])).toEqual({ settings: DEFAULT_SETTINGS, problems: ['settings: expected an object'] });
    expect(readSettings(undefined)).toEqual({ settings: DEFAULT_SETTINGS, problems: [] });
  });

  it('offers in the editor the values the server accepts', () => {
    expect(SETTINGS['gate.name'].enum).toBe(GATE_NAMES);
    expect(SETTINGS['endpoint.provider'].enum).toBe(PROVIDERS);
    expect(SETTINGS['run.mode'].enum).toBe(RUN_MODES);
  });

  it('accepts everything the client sends, unchanged', () => {
    const set: Partial<Record<SettingKey, unknown>> = {
      'endpoint.baseUrl': 'http://127.0.0.1:11434/v1',
      'endpoint.free': true,
      'models.default': 'm',
      'models.validator': 'judge',
      'models.prices': { m: { input: 1, output: 2, cachedInput: 0.5 } },
      'gate.name': 'pace',
      'gate.alpha': 0.1,
      'run.concurrency': 8,
      'run.callTimeoutSeconds': 600,
      'run.budgetCalls': 200,
      'run.budgetCandidates': 5,
      'run.mode': 'autopilot',
    };
    const client = readClientSettings({ value: (key) => (key in set ? set[key] : SETTINGS[key].default), isSet: (key) => key in set });
    const sent = toServerSettings(client, { apiKey: 'sk-secret', trusted: true });
    expect(readSettings(sent)).toEqual({ settings: sent, problems: [] });
  });
});
