// "Ratchet: Test Connection" through the built server: it asks the endpoint a run would use (the
// settings) for its models, over real HTTP; an endpoint that is not there fails with a message
// naming the setting the address came from, which is what the user changes.
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DidChangeConfigurationNotification } from 'vscode-languageserver-protocol';
import { ListModelsRequest } from '../../src/protocol/lsp';
import type { RatchetConfigurationChange, ServerSettings } from '../../src/protocol/lsp';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { SERVER, TestClient } from './serverHarness';

beforeAll(() => {
  if (!existsSync(SERVER)) execSync('npm run build', { stdio: 'inherit' });
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function client(settings: Partial<ServerSettings>) {
  const c = await TestClient.start({ folders: [mkdtempSync(join(tmpdir(), 'ratchet-models-'))], settings: { provider: 'openai', trusted: true, ...settings } });
  cleanups.push(() => c.stop());
  return c;
}

describe('ratchet/listModels', () => {
  it('lists the models the configured endpoint serves, with the current default and where each came from', async () => {
    const fake = await startFakeServer();
    cleanups.push(() => fake.close());
    const c = await client({ baseURL: fake.url, models: { default: 'llama3.1' } });
    const result = await c.conn.sendRequest(ListModelsRequest, {});
    expect(result).toEqual({
      baseURL: fake.url,
      baseURLFrom: 'setting ratchet.endpoint.baseUrl',
      models: ['sim-agent', 'sim-challenger', 'sim-meta', 'sim-proposer', 'sim-validator'],
      current: { model: 'llama3.1', from: 'setting ratchet.models.default' },
    });
    expect(fake.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /v1/models']);
  });

  it('right after the base URL is edited, the test asks the new endpoint: the settings go ahead of the request on the same connection', async () => {
    const old = await startFakeServer();
    const edited = await startFakeServer();
    cleanups.push(
      () => old.close(),
      () => edited.close(),
    );
    const c = await client({ baseURL: old.url });
    // What Test Connection sends (serverHost.sendSettings, then the request), with no wait between.
    const change: RatchetConfigurationChange = { settings: { provider: 'openai', trusted: true, baseURL: edited.url } };
    void c.conn.sendNotification(DidChangeConfigurationNotification.type, change);
    const result = await c.conn.sendRequest(ListModelsRequest, {});
    expect(result.baseURL).toBe(edited.url);
    expect([old.calls.length, edited.calls.map((call) => `${call.method} ${call.path}`)]).toEqual([0, ['GET /v1/models']]);
  });

  it('an endpoint nobody listens on: the error names it and the setting it came from', async () => {
    const gone = await startFakeServer();
    const url = gone.url;
    await gone.close();
    const c = await client({ baseURL: url });
    await expect(c.conn.sendRequest(ListModelsRequest, {})).rejects.toThrow(`Could not reach the endpoint ${url} (ECONNREFUSED), set by setting ratchet.endpoint.baseUrl: check that the server is running and that the base URL is right.`);
  });
});
