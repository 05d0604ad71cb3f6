// A code search started from the editor calls and prices its roles as a prompt run does (issues #27,
// #29 item 4): ratchet.models.<role> chooses the proposer's and the meta notes' models, the
// validator (the novelty judge) goes where the proposer goes, ratchet.models.prices prices them, and
// ratchet.endpoint.free makes the editor's endpoint cost nothing.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { EventOf } from '../../src/core/journal/events';
import { StartRunRequest } from '../../src/protocol/lsp';
import type { ServerSettings } from '../../src/protocol/lsp';
import { journal } from './evolveCli';
import { searchWorkspace } from './searchWorkspace';
import { SERVER, TestClient } from './serverHarness';

beforeAll(() => {
  if (!existsSync(SERVER)) execSync('npm run build', { stdio: 'inherit' });
});

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A search whose spec names no model (the settings choose), writing meta notes every two children; run to its end from the editor. */
async function searchWith(settings: Partial<ServerSettings>) {
  const ws = searchWorkspace();
  const spec = join(ws.dir, 'step.mjs.ratchet.yaml');
  writeFileSync(spec, readFileSync(spec, 'utf8').replace('models:\n  proposer: { model: sim-proposer }\n', 'search: { metaEvery: 2 }\n'));
  const fake = await startFakeServer({});
  cleanups.push(() => fake.close());
  const client = await TestClient.start({ folders: [ws.dir], settings: { provider: 'openai', trusted: true, baseURL: fake.url, ...settings }, answer: 'reject' });
  cleanups.push(() => client.stop());
  const { runId } = await client.conn.sendRequest(StartRunRequest, { kind: 'search', uri: client.uriOf(ws.program), overrides: { proposals: 5, concurrency: 1 } });
  const end = await client.waitFor(
    () => {
      const s = client.statusesOf(runId).at(-1);
      return s !== undefined && ['finished', 'failed', 'cancelled', 'interrupted'].includes(s.state) && s;
    },
    'the search to end',
    150_000,
  );
  expect(end.state, end.error).toBe('finished');
  const events = journal(ws.dir, runId);
  const started = events[0] as EventOf<'run/started'>;
  const cost = events.filter((e): e is EventOf<'cost/update'> => e.type === 'cost/update').at(-1)!.cost;
  return { fake, started, cost };
}

describe('a code search from the editor: one role table and one price table with prompt runs', () => {
  it('ratchet.models.<role> chooses each role’s model, and ratchet.models.prices prices them', async () => {
    const { fake, started, cost } = await searchWith({
      models: { default: 'sim-agent', proposer: 'sim-proposer', meta: 'sim-meta' },
      prices: { 'sim-proposer': { input: 2, output: 4 }, 'sim-meta': { input: 1, output: 1 } },
    });
    expect(started.info.models).toEqual(
      expect.arrayContaining([
        { role: 'proposer', model: 'sim-proposer', from: 'setting ratchet.models.proposer' },
        { role: 'meta', model: 'sim-meta', from: 'setting ratchet.models.meta' },
      ]),
    );
    // The validator (the novelty judge) follows the proposer, not ratchet.models.default, and says so.
    expect(started.info.models?.find((m) => m.role === 'validator')).toEqual({ role: 'validator', model: 'sim-proposer', from: 'as the proposer: setting ratchet.models.proposer' });
    // Every call went to the model the settings chose, and none to the default's.
    const models = new Set(fake.calls.map((c) => c.model));
    expect(models.has('sim-proposer')).toBe(true);
    expect(models.has('sim-meta')).toBe(true);
    expect(models.has('sim-agent')).toBe(false);
    // The meter priced each role at the settings' price; the estimate had dollars too.
    expect(cost.proposer.calls).toBeGreaterThan(0);
    expect(cost.proposer.dollars).toBeCloseTo((cost.proposer.promptTokens * 2 + cost.proposer.completionTokens * 4) / 1e6, 12);
    expect(cost.meta.calls).toBeGreaterThan(0);
    expect(cost.meta.dollars).toBeCloseTo((cost.meta.promptTokens + cost.meta.completionTokens) / 1e6, 12);
    expect(started.info.estimate?.dollars).toEqual(expect.any(Number));
  }, 240_000);

  it('ratchet.endpoint.free: the editor’s endpoint costs nothing, so an unlisted model is counted at $0', async () => {
    const { started, cost } = await searchWith({ models: { default: 'sim-proposer' }, free: true });
    expect(cost.proposer.calls).toBeGreaterThan(0);
    expect(cost.proposer.dollars).toBe(0);
    expect(started.info.estimate?.dollars).toBe(0);
  }, 240_000);
});
