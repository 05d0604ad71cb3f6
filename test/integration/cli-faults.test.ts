// `ratchet evolve` through the built CLI against a fake endpoint that misbehaves: a storm of rate
// limits changes nothing but the wait (the same decisions as a clean run, each wait shown), and a
// dead endpoint stops the run with a reason that names it and what it answered.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/core/journal/events';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { FaultSpec } from '../fixtures/fakeOpenAI/faults';
import { CLI, decisions, journal, runCli, runIds } from './evolveCli';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

const SEED = 4;

interface Outcome {
  code: number | null;
  stderr: string;
  events: EngineEvent[];
}

/** A small run (three candidates, one of them a real gain) against the fake server with `faults`. */
async function evolve(faults: FaultSpec[], extra: string[] = [], baseURL?: string): Promise<Outcome> {
  const w = makeWorkspace({ seed: SEED, items: 50, candidates: 3, split: { feedback: 10, dev: 30, test: 10 } });
  const server = await startFakeServer({ scenario: scenarioFor(w, { seed: SEED, gainAt: 2 }) });
  for (const f of faults) server.inject(f);
  try {
    const r = await runCli(['evolve', w.promptPath, '--base-url', baseURL ?? server.url, '-w', w.dir, ...extra]);
    const [id] = runIds(w.dir);
    return { code: r.code, stderr: r.stderr, events: id ? journal(w.dir, id) : [] };
  } finally {
    await server.close();
  }
}

const waits = (o: Outcome) => o.events.filter((e): e is Extract<EngineEvent, { type: 'llm/waiting' }> => e.type === 'llm/waiting');
const failure = (o: Outcome) => {
  const last = o.events.at(-1);
  return last?.type === 'run/failed' ? last.error : undefined;
};

describe('a storm of rate limits', () => {
  it('half the requests answered 429: the same decisions as a clean run, every wait journaled and shown on stderr', async () => {
    const [clean, storm] = await Promise.all([evolve([]), evolve([{ kind: 'status', status: 429, retryAfterMs: 5, rate: 0.5, times: Infinity, seed: SEED }])]);
    expect(clean.events.at(-1)?.type, clean.stderr).toBe('run/finished');
    expect(storm.events.at(-1)?.type, storm.stderr).toBe('run/finished');
    expect(decisions(clean.events).length).toBeGreaterThan(0);
    expect(decisions(storm.events)).toEqual(decisions(clean.events));
    expect(waits(clean)).toEqual([]);

    const seen = waits(storm);
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.every((w) => w.why === 'rate-limited' && w.status === 429 && w.waitMs === 5)).toBe(true);
    // stderr is a pipe here, not a terminal: one line per wait all the same.
    const lines = storm.stderr.split('\n').filter((l) => /^rate limited \(\w+\), waiting 5 ms: The endpoint http:\/\/127\.0\.0\.1:\d+\/v1 answered 429/.test(l));
    expect(lines).toHaveLength(seen.length);

    // Counted apart from retries: no call failed, every wait is in the cost report.
    const cost = storm.events.filter((e) => e.type === 'cost/update').at(-1);
    if (cost?.type !== 'cost/update') throw new Error('no cost/update in the journal');
    const roles = Object.values(cost.cost);
    expect(roles.reduce((n, r) => n + r.retries, 0)).toBe(0);
    expect(roles.reduce((n, r) => n + (r.rateLimited ?? 0), 0)).toBe(seen.length);
  }, 60_000);
});

describe('a dead endpoint', () => {
  it('every request answered 500: the run fails after --max-failures attempts, naming the endpoint and the status', async () => {
    const o = await evolve([{ kind: 'status', status: 500, times: Infinity }], ['--max-failures', '3']);
    expect(o.code).toBe(2);
    const error = failure(o);
    expect(error?.code, o.stderr).toBe('llmHttp');
    expect(error?.message).toMatch(/^After 3 attempts: The endpoint http:\/\/127\.0\.0\.1:\d+\/v1 answered 500 Internal Server Error/);
    expect(o.stderr).toContain(`run/failed: llmHttp: ${error!.message}`);
    expect(waits(o).every((w) => w.why === 'retry' && w.status === 500)).toBe(true);
    expect(o.stderr).toMatch(/^retrying \(\w+\), waiting \d+ m?s: The endpoint .* answered 500/m);
  }, 60_000);

  it('nobody listening on the port: the run fails saying it could not reach the endpoint', async () => {
    const gone = await startFakeServer();
    const url = gone.url;
    await gone.close();
    const o = await evolve([], ['--max-failures', '2'], url);
    const error = failure(o);
    expect(error?.code, o.stderr).toBe('llmNetwork');
    expect(error?.message).toBe(`After 2 attempts: Could not reach the endpoint ${url} (ECONNREFUSED), set by --base-url: check that the server is running and that the base URL is right.`);
  }, 60_000);
});
