import { describe, expect, it } from 'vitest';
import { SETTINGS, describeServerSettings, keysNeedingRestart, readSettings, serverExecArgv, toServerSettings, valid } from '../../../src/extension/settings';
import type { SettingKey } from '../../../src/extension/settings';

/** A settings lookup over a plain object: keys present are "set by the user". */
function lookup(set: Partial<Record<SettingKey, unknown>>) {
  return {
    value: (key: SettingKey) => (key in set ? set[key] : SETTINGS[key].default),
    isSet: (key: SettingKey) => key in set,
  };
}

describe('readSettings', () => {
  it('reads the defaults, and leaves the run-spec settings unset when the user set nothing', () => {
    expect(readSettings(lookup({}))).toEqual({
      provider: 'openai',
      baseUrl: undefined,
      models: {},
      prices: {},
      endpointFree: false,
      gate: undefined,
      alpha: undefined,
      concurrency: undefined,
      callTimeoutSeconds: undefined,
      budgetCalls: undefined,
      budgetCandidates: undefined,
      mode: undefined,
      keepAliveSeconds: 120,
      maxMemoryMb: 0,
      trace: 'off',
    });
  });

  it('reads what the user set', () => {
    const s = readSettings(
      lookup({
        'endpoint.provider': 'vscode-lm',
        'endpoint.baseUrl': ' http://127.0.0.1:11434/v1 ',
        'models.default': ' gpt-4o ',
        'gate.name': 'pace-rf',
        'gate.alpha': 0.1,
        'run.concurrency': 8,
        'run.callTimeoutSeconds': 600,
        'run.budgetCalls': 200,
        'run.mode': 'autopilot',
      }),
    );
    expect(s).toMatchObject({ provider: 'vscode-lm', baseUrl: 'http://127.0.0.1:11434/v1', gate: 'pace-rf', alpha: 0.1, concurrency: 8, callTimeoutSeconds: 600, budgetCalls: 200, mode: 'autopilot' });
    // A slow local model's timeout reaches the runs, over every run spec's.
    expect(toServerSettings(s, { apiKey: undefined, trusted: true }).callTimeoutSeconds).toBe(600);
    expect(s.models.default).toBe('gpt-4o');
  });

  it('reads prices by model, dropping an entry that is not one, and the free-endpoint claim', () => {
    const s = readSettings(
      lookup({
        'models.prices': { 'my-gpt': { input: 2.5, output: 10, note: 'azure' }, local: { input: 0, output: 0, cachedInput: 0 }, bad: { input: -1, output: 1 }, half: { input: 1 } },
        'endpoint.free': true,
      }),
    );
    expect(s.prices).toEqual({ 'my-gpt': { input: 2.5, output: 10 }, local: { input: 0, output: 0, cachedInput: 0 } });
    expect(s.endpointFree).toBe(true);
    expect(readSettings(lookup({ 'models.prices': [1, 2], 'endpoint.free': 'yes' }))).toMatchObject({ prices: {}, endpointFree: false });
  });

  it('reads an empty or blank text box as not set (undefined), not as a value', () => {
    expect(readSettings(lookup({ 'endpoint.baseUrl': '  ', 'models.default': '', 'models.agent': ' ', 'models.validator': ' judge ' }))).toMatchObject({
      baseUrl: undefined,
      models: { validator: 'judge' },
    });
  });

  it('reads a budget of 0 calls as "no limit here"', () => {
    expect(readSettings(lookup({ 'run.budgetCalls': 0 })).budgetCalls).toBeUndefined();
  });
});

describe('valid: a hand-edited settings.json cannot put a bad value through', () => {
  it.each([
    ['endpoint.provider', 'azure', 'openai'],
    ['endpoint.baseUrl', 'ftp://x', ''],
    ['endpoint.baseUrl', 42, ''],
    ['gate.name', 'pace++', 'pace+'],
    ['gate.alpha', 0, 0.05],
    ['gate.alpha', 0.9, 0.05],
    ['gate.alpha', Number.NaN, 0.05],
    ['run.concurrency', 2.5, 4],
    ['run.concurrency', '8', 4],
    ['run.concurrency', 100, 4],
    ['run.mode', 'yolo', 'suggest'],
  ] as [SettingKey, unknown, unknown][])('%s = %j reads as %j', (key, raw, expected) => {
    expect(valid(key, raw)).toBe(expected);
  });
});

describe('toServerSettings', () => {
  const base = readSettings(lookup({}));

  it('sends only the provider, trust and the keep-alive when nothing is set, so the server falls back to the run spec', () => {
    expect(toServerSettings(base, { apiKey: undefined, trusted: false })).toEqual({ provider: 'openai', trusted: false, keepAliveSeconds: 120 });
  });

  it('sends how long runs outlive their window (not a run spec setting: always sent)', () => {
    expect(toServerSettings(readSettings(lookup({ 'run.keepAliveSeconds': 0 })), { apiKey: undefined, trusted: true }).keepAliveSeconds).toBe(0);
  });

  it('sends what is set, the key included for the openai provider', () => {
    const s = readSettings(lookup({ 'endpoint.baseUrl': 'https://api.example/v1', 'models.proposer': 'big', 'gate.alpha': 0.01, 'run.budgetCalls': 50, 'run.budgetCandidates': 10, 'run.mode': 'autopilot' }));
    expect(toServerSettings(s, { apiKey: 'sk-1', trusted: true })).toEqual({
      provider: 'openai',
      trusted: true,
      baseURL: 'https://api.example/v1',
      models: { proposer: 'big' },
      apiKey: 'sk-1',
      alpha: 0.01,
      budget: { calls: 50, candidates: 10 },
      mode: 'autopilot',
      keepAliveSeconds: 120,
    });
  });

  it('sends prices and the free endpoint only when set, and the free claim only for an openai endpoint', () => {
    const s = readSettings(lookup({ 'models.prices': { m: { input: 1, output: 2 } }, 'endpoint.free': true }));
    expect(toServerSettings(s, { apiKey: undefined, trusted: true })).toEqual({ provider: 'openai', trusted: true, prices: { m: { input: 1, output: 2 } }, free: true, keepAliveSeconds: 120 });
    const lm = readSettings(lookup({ 'endpoint.provider': 'vscode-lm', 'endpoint.free': true }));
    expect(toServerSettings(lm, { apiKey: undefined, trusted: true }).free).toBeUndefined();
  });

  it('never sends the key or a base URL when the calls stay in VS Code (vscode-lm)', () => {
    const s = readSettings(lookup({ 'endpoint.provider': 'vscode-lm', 'endpoint.baseUrl': 'https://api.example/v1', 'models.default': 'gpt-4o' }));
    expect(toServerSettings(s, { apiKey: 'sk-1', trusted: true })).toEqual({ provider: 'vscode-lm', trusted: true, models: { default: 'gpt-4o' }, keepAliveSeconds: 120 });
  });
});

describe('restart-only settings', () => {
  it('lists the server process settings as needing a restart, and nothing else', () => {
    expect(keysNeedingRestart(['gate.alpha', 'server.maxMemoryMb', 'endpoint.baseUrl'])).toEqual(['server.maxMemoryMb']);
  });

  it('turns the memory limit into a Node flag', () => {
    expect(serverExecArgv(readSettings(lookup({ 'server.maxMemoryMb': 4096 })))).toEqual(['--max-old-space-size=4096']);
    expect(serverExecArgv(readSettings(lookup({})))).toEqual([]);
  });
});

describe('describeServerSettings', () => {
  it('says whether a key is set, never which', () => {
    const line = describeServerSettings({ provider: 'openai', trusted: true, apiKey: 'sk-secret', baseURL: 'http://x/v1' });
    expect(line).toBe('{"provider":"openai","trusted":true,"baseURL":"http://x/v1"}, API key set');
  });
});
