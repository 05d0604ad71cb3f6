// `ratchet evolve` says which model each role will call, and who chose it, before its first call;
// and a model the endpoint does not serve stops the run with a message that names the place that
// chose it — the spec line, or the variable — which is where the user goes to fix it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { FakeServer } from '../fixtures/fakeOpenAI/server';
import { EXIT_ERROR } from '../../src/cli/exitCodes';
import { CLI, journal, runCli, runIds } from './evolveCli';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';
import type { Workspace } from './evolveWorkspace';

const SEED = 4;
let server: FakeServer;

beforeAll(async () => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
  server = await startFakeServer({ scenario: scenarioFor(makeWorkspace({ seed: SEED, items: 50 }), { seed: SEED }) });
});
afterAll(async () => server.close());

/** A workspace whose spec line 6 (the agent's entry) is `agent`. */
function workspace(agent: string): Workspace {
  const w = makeWorkspace({ seed: SEED, items: 50, candidates: 2, split: { feedback: 10, dev: 30, test: 10 } });
  const specPath = join(w.dir, 'task.ratchet.yaml');
  const lines = readFileSync(specPath, 'utf8').split('\n');
  expect(lines[5]).toMatch(/^ {2}agent:/);
  lines[5] = `  agent: ${agent}`;
  writeFileSync(specPath, lines.join('\n'));
  return w;
}

describe('ratchet evolve: where each model came from', () => {
  it('says each called role’s model and its origin on its first line', async () => {
    const w = workspace('{ temperature: 0 }');
    const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir], { RATCHET_MODEL: 'sim-agent' });
    expect(r.code, r.stderr).not.toBe(EXIT_ERROR);
    expect(r.stderr.split('\n')[0]).toBe('models: agent: sim-agent (RATCHET_MODEL) · proposer: sim-proposer (task.ratchet.yaml:7)');
    // The journal says the same, for the panel and `runs show`.
    const started = journal(w.dir, runIds(w.dir)[0]!)[0];
    expect(started?.type === 'run/started' && started.info.models).toEqual([
      { role: 'agent', model: 'sim-agent', from: 'RATCHET_MODEL' },
      { role: 'proposer', model: 'sim-proposer', from: 'task.ratchet.yaml:7' },
    ]);
  }, 60_000);

  it('an unknown model named in the spec: the error names the spec line that wins over the settings', async () => {
    const w = workspace('{ model: gpt-4o-mini, temperature: 0 }');
    const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir, '--max-failures', '1'], { RATCHET_MODEL: 'sim-agent' });
    expect(r.code).toBe(EXIT_ERROR);
    expect(r.stderr.split('\n')[0]).toBe('models: agent: gpt-4o-mini (task.ratchet.yaml:6) · proposer: sim-proposer (task.ratchet.yaml:7)');
    const failed = journal(w.dir, runIds(w.dir)[0]!).at(-1);
    expect(failed?.type).toBe('run/failed');
    const message = failed?.type === 'run/failed' ? failed.error.message : '';
    expect(message).toContain(`The endpoint ${server.url} answered 404 Not Found`);
    expect(message).toContain('the model "gpt-4o-mini" is named at task.ratchet.yaml:6, which wins over ratchet.models.default');
    expect(message).toContain('; also check that the base URL (--base-url) ends in /v1');
  }, 60_000);

  it('an unknown model from RATCHET_MODEL: the error names the variable', async () => {
    const w = workspace('{ temperature: 0 }');
    const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir, '--max-failures', '1'], { RATCHET_MODEL: 'llama3.1' });
    expect(r.code).toBe(EXIT_ERROR);
    const failed = journal(w.dir, runIds(w.dir)[0]!).at(-1);
    expect(failed?.type === 'run/failed' && failed.error.message).toContain('the model "llama3.1" comes from RATCHET_MODEL; set it to a model the endpoint serves (Ratchet: Test Connection lists the models the endpoint serves)');
  }, 60_000);
});
