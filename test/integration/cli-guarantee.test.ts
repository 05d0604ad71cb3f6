// What a run guarantees, said in words before its first call and in `runs show`: the whole run
// under the default schedule, each candidate under per-candidate (issue #28).
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { FakeServer } from '../fixtures/fakeOpenAI/server';
import { EXIT_ERROR } from '../../src/cli/exitCodes';
import { CLI, journal, runCli, runIds } from './evolveCli';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';

const SEED = 3;
let server: FakeServer;

beforeAll(async () => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
  server = await startFakeServer({ scenario: scenarioFor(makeWorkspace({ seed: SEED }), { seed: SEED, gainAt: 2 }) });
});
afterAll(async () => server.close());

/** The run's stderr lines before its first decision, and its `runs show` head. */
async function evolve(gateLines: string[], candidates: number) {
  const w = makeWorkspace({ seed: SEED, candidates, gateLines });
  const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir], { RATCHET_MODEL: 'sim-agent' });
  expect(r.code, r.stderr).not.toBe(EXIT_ERROR);
  const lines = r.stderr.split('\n');
  const firstDecision = lines.findIndex((l) => l.startsWith('decision:'));
  const runId = runIds(w.dir)[0]!;
  const show = await runCli(['runs', 'show', runId, '-w', w.dir]);
  expect(show.code, show.stderr).toBe(0);
  return { before: lines.slice(0, firstDecision < 0 ? lines.length : firstDecision), head: show.stdout.split('\n\n')[0]!.split('\n'), started: journal(w.dir, runId)[0] };
}

describe('ratchet evolve: the guarantee sentence', () => {
  it('the default schedule bounds the whole run, said before the first decision and by runs show', async () => {
    const { before, head, started } = await evolve([], 4);
    expect(before).toContain('guarantee: this run: P(any false commit) ≤ 0.05');
    expect(head).toContain('guarantee: this run: P(any false commit) ≤ 0.05');
    expect(started?.type === 'run/started' && started.info.schedule).toBe('fwer-screened');
  }, 90_000);

  it('per-candidate, by name: each candidate, and what that adds up to over the run', async () => {
    const { before, head } = await evolve(['schedule: per-candidate'], 10);
    const sentence = 'guarantee: each candidate: P(false commit) ≤ 0.05; over 10 candidates up to 0.4 if independent';
    expect(before).toContain(sentence);
    expect(head).toContain(sentence);
  }, 90_000);
});
