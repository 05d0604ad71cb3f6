// Nothing paid twice (issue #27): a run killed with -9 at any moment and resumed pays again for at
// most the calls it had in flight — one per concurrency slot, since the LLM client frees a slot only
// once the answer is durable in the response cache — for every run kind that calls a model: evolve
// and code search here, gen-data and zero-data evolve in cli-genData.test.ts. The kill is placed
// deterministically: the fake endpoint answers the first half of an uninterrupted run's requests,
// then holds every later one (parked) until the process is gone. Requests are counted at the
// endpoint, by body. The kill comes from this process, a few milliseconds after the park, so on a
// fast disk a client that freed the slot before the write would often pass as well: the unit test
// 'LlmLayer: durability' (test/unit/llm/client.test.ts) holds the writes and shows the slot waits.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { FakeServer } from '../fixtures/fakeOpenAI/server';
import { CLI, journal, journalSoFar, runCli, runIds, startCli } from './evolveCli';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';
import { searchWorkspace } from './searchWorkspace';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

const key = (body: unknown): string => JSON.stringify(body);

/**
 * Runs `start(dir)` uninterrupted in `reference`, then again in `killed`, killed with -9 while the
 * endpoint holds its requests past the reference's half; resumes it. What the resume paid again.
 */
async function killAndResume(server: FakeServer, reference: string, killed: string, start: (dir: string) => string[]) {
  const done = await runCli(start(reference));
  expect(done.code, done.stderr).toBe(0);
  const total = server.calls.length;
  server.resetStats();

  server.inject({ kind: 'park', skip: Math.floor(total / 2), times: Infinity });
  const { child, done: gone } = startCli(start(killed));
  await server.untilParked(1);
  child.kill('SIGKILL');
  await gone;
  server.clearFaults();
  server.releaseParked();
  const first = new Set(server.calls.map((c) => key(c.body)));
  const firstCount = server.calls.length;
  server.resetStats();
  const [id] = runIds(killed);
  expect(journalSoFar(killed, id!).some((e) => e.type === 'run/finished')).toBe(false);

  const resumed = await runCli(['runs', 'resume', id!, '--base-url', server.url, '-w', killed]);
  expect(journal(killed, id!).at(-1)?.type, resumed.stderr).toBe('run/finished');
  return { total, firstCount, paidTwice: server.calls.filter((c) => first.has(key(c.body))).length };
}

describe('a run killed with -9 and resumed pays again only for the calls in flight', () => {
  it('evolve', async () => {
    const concurrency = 8;
    const options = { seed: 3, candidates: 6 };
    const reference = makeWorkspace(options);
    const killed = makeWorkspace(options);
    expect(readFileSync(join(reference.dir, 'task.ratchet.yaml'), 'utf8')).toContain(`concurrency: ${concurrency}\n`);
    const server = await startFakeServer({ scenario: scenarioFor(reference, { seed: 3, gainAt: 2 }) });
    try {
      const start = (dir: string) => ['evolve', join(dir, 'task.prompt.md'), '--base-url', server.url, '-w', dir];
      const { total, firstCount, paidTwice } = await killAndResume(server, reference.dir, killed.dir, start);
      expect(firstCount).toBeGreaterThan(total / 2);
      expect(paidTwice).toBeLessThanOrEqual(concurrency);
    } finally {
      await server.close();
    }
  }, 240_000);

  it('code search', async () => {
    const concurrency = 2;
    const reference = searchWorkspace();
    const killed = searchWorkspace();
    expect(readFileSync(join(reference.dir, 'step.mjs.ratchet.yaml'), 'utf8')).toContain(`concurrency: ${concurrency}\n`);
    const server = await startFakeServer({});
    try {
      const start = (dir: string) => ['search', join(dir, 'step.mjs'), '--base-url', server.url, '--proposals', '10', '-w', dir];
      const { total, firstCount, paidTwice } = await killAndResume(server, reference.dir, killed.dir, start);
      expect(firstCount).toBeGreaterThan(total / 2);
      expect(paidTwice).toBeLessThanOrEqual(concurrency);
    } finally {
      await server.close();
    }
  }, 240_000);
});
