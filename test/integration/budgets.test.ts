// Runs you can trust with money, through the built CLI against the fake OpenAI-compatible server:
// every budget is a hard limit counted at the endpoint, a resumed run keeps its meter and never
// fights its own edit, a stale write stops an autopilot run, a dead endpoint leaves it resumable.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { FakeServer } from '../fixtures/fakeOpenAI/server';
import type { EngineEvent } from '../../src/core/journal/events';
import { CLI, decisions, journal, runCli, runIds, startCli } from './evolveCli';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';
import type { Workspace, WorkspaceOptions } from './evolveWorkspace';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

/** $1000 per million tokens in and out: about a tenth of a dollar per call of the fake. */
const PRICED = 'price: { input: 1000, output: 1000 }';

async function withServer<T>(ws: Workspace, seed: number, gainAt: number | undefined, body: (s: FakeServer) => Promise<T>, latencyMs = 0): Promise<T> {
  const server = await startFakeServer({ scenario: scenarioFor(ws, { seed, ...(gainAt ? { gainAt } : {}) }), latencyMs });
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

function onlyRun(ws: Workspace): { id: string; events: EngineEvent[] } {
  const ids = runIds(ws.dir);
  expect(ids).toHaveLength(1);
  return { id: ids[0]!, events: journal(ws.dir, ids[0]!) };
}

function lastCost(events: readonly EngineEvent[]) {
  const c = events.findLast((e) => e.type === 'cost/update');
  if (c?.type !== 'cost/update') return undefined;
  const roles = Object.values(c.cost);
  return {
    calls: c.llmCalls,
    tokens: roles.reduce((s, r) => s + r.promptTokens + r.completionTokens, 0),
    dollars: roles.reduce((s, r) => (s === undefined || r.dollars === undefined ? undefined : s + r.dollars), 0 as number | undefined),
  };
}

const logs = (events: readonly EngineEvent[]) => events.flatMap((e) => (e.type === 'log' ? [e.message] : []));
const chatCalls = (s: FakeServer) => s.calls.filter((c) => c.path === '/v1/chat/completions').length;

describe('budgets are hard limits, counted at the endpoint', () => {
  it('a budget of N calls sends at most N requests; the candidate it cuts off stays undecided', async () => {
    // Three independent runs, each with its own workspace and server: at once.
    await Promise.all(
      [0, 1, 37].map(async (n) => {
        const ws = makeWorkspace({ seed: 2 });
        await withServer(ws, 2, 1, async (server) => {
          const r = await runCli(['evolve', ws.promptPath, '--base-url', server.url, '-w', ws.dir, '--budget-calls', String(n)]);
          const { events } = onlyRun(ws);
          expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
          expect(chatCalls(server)).toBeLessThanOrEqual(n);
          expect(logs(events).some((m) => m.startsWith('Budget reached'))).toBe(true);
          if (n === 37) {
            // 4 feedback evaluations and a proposal, then c1's test needs up to 80: it runs out midway.
            const stopped = events.filter((e) => e.type === 'candidate/stopped');
            expect(stopped.map((e) => e.type === 'candidate/stopped' && e.candidateId)).toEqual(['c1']);
            expect(decisions(events)).toEqual([]);
            expect(lastCost(events)?.calls).toBeLessThanOrEqual(n);
          }
        });
      }),
    );
  }, 120_000);

  it('the test-split report runs only when the budget can pay for all of it, and says so when it cannot', async () => {
    // 1000 test items would need up to 2000 calls; the budget leaves far fewer.
    const ws = makeWorkspace({ seed: 3, items: 1050, candidates: 2 });
    await withServer(ws, 3, 1, async (server) => {
      const r = await runCli(['evolve', ws.promptPath, '--base-url', server.url, '-w', ws.dir, '--budget-calls', '300']);
      const { events } = onlyRun(ws);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      expect(events.some((e) => e.type === 'report/test')).toBe(false);
      expect(logs(events).some((m) => m.startsWith('The test-split report was skipped: it needs up to'))).toBe(true);
      expect(chatCalls(server)).toBeLessThanOrEqual(300);
    });
  }, 120_000);

  it('a wall-time budget ends a run whose calls hang within the budget plus the per-call timeout', async () => {
    // 3 s of wall time, requests abandoned after 2 s, one request in ten never answered.
    const ws = makeWorkspace({ seed: 4, budgetLines: ['wallTimeMinutes: 0.05'], extraTopLines: ['callTimeoutSeconds: 2'], candidates: 50 });
    await withServer(
      ws,
      4,
      undefined,
      async (server) => {
        server.inject({ kind: 'hang', rate: 0.1, times: Infinity, path: '/v1/chat/completions' });
        const started = Date.now();
        const r = await runCli(['evolve', ws.promptPath, '--base-url', server.url, '-w', ws.dir]);
        const seconds = (Date.now() - started) / 1000;
        const { events } = onlyRun(ws);
        expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
        expect(logs(events).some((m) => m.includes('0.05 minutes of wall time'))).toBe(true);
        // 3 s + 2 s, and a generous allowance for starting Node and loading the inputs.
        expect(seconds).toBeLessThan(3 + 2 + 10);
      },
      20,
    );
  }, 60_000);

  it('budget.dollars stops a priced run, and runs show prints its dollars', async () => {
    const ws = makeWorkspace({ seed: 5, modelExtra: PRICED, budgetLines: ['dollars: 4'] });
    await withServer(ws, 5, 1, async (server) => {
      const r = await runCli(['evolve', ws.promptPath, '--base-url', server.url, '-w', ws.dir]);
      const { id, events } = onlyRun(ws);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      const cost = lastCost(events)!;
      // The budget refuses a call whose known input price, with the inputs of the calls still in
      // flight, would pass $4 (src/core/run/budget.ts), so the run may stop just short of $4: by at
      // most that one refused call's input (well under $0.5), however many calls were in flight.
      expect(cost.dollars).toBeGreaterThan(4 - 0.5);
      // In-flight calls finish: at most the concurrency (8) past the budget, each well under $0.5.
      expect(cost.dollars!).toBeLessThan(4 + 8 * 0.5);
      expect(logs(events).some((m) => /Budget reached \(\$\d+\.\d\d of \$4\)/.test(m))).toBe(true);
      const show = await runCli(['runs', 'show', id, '-w', ws.dir]);
      expect(show.stdout).toMatch(/\$\d+\.\d+/);
    });
  }, 60_000);
});

describe('resume keeps the meter, the file and the decisions', () => {
  it('a run killed three times (once between its file write and the journal line) ends as an uninterrupted one did', async () => {
    const seed = 5;
    // Per candidate, by name: this scenario then commits (and writes) several edits to kill between.
    const opts: WorkspaceOptions = { seed, modelExtra: PRICED, gateLines: ['schedule: per-candidate'] };
    const reference = makeWorkspace(opts);
    // The uninterrupted run goes on beside the interrupted one: they share nothing.
    const uninterrupted = withServer(reference, seed, 3, async (server) => {
      await runCli(['evolve', reference.promptPath, '--base-url', server.url, '-w', reference.dir, '--apply']);
    });

    const ws = makeWorkspace(opts);
    await withServer(
      ws,
      seed,
      3,
      async (server) => {
        const evolve = ['evolve', ws.promptPath, '--base-url', server.url, '-w', ws.dir, '--apply'];
        const resume = () => ['runs', 'resume', runIds(ws.dir)[0]!, '-w', ws.dir, '--apply'];
        // 1: killed after the first decision; 2: after the second.
        await killWhen(evolve, ws, (events) => decisions(events).length >= 1);
        await killWhen(resume(), ws, (events) => decisions(events).length >= 2);
        // 3: killed once the commit's edit is written; the journal is cut back to before its
        // `edit/applied` line, which is exactly what a crash between the write and the line leaves.
        await killWhen(resume(), ws, (events) => events.some((e) => e.type === 'edit/applied'));
        await uninterrupted;
        const id = runIds(ws.dir)[0]!;
        const path = `${ws.dir}/.ratchet/runs/${id}/events.jsonl`;
        const lines = readFileSync(path, 'utf8')
          .split('\n')
          .filter((l) => l !== '');
        const applied = lines.findIndex((l) => JSON.parse(l).type === 'edit/applied');
        writeFileSync(
          path,
          lines
            .slice(0, applied)
            .map((l) => `${l}\n`)
            .join(''),
        );
        expect(readFileSync(ws.promptPath, 'utf8')).toBe(readFileSync(reference.promptPath, 'utf8'));

        const last = await runCli(resume());
        expect(last.code, last.stderr).toBe(0);
      },
      10,
    );
    const ref = onlyRun(reference);
    expect(decisions(ref.events).filter((d) => d.decision === 'commit')).toHaveLength(1);
    const run = onlyRun(ws);
    const refEnd = ref.events.at(-1);
    expect(refEnd?.type).toBe('run/finished');
    expect(run.events.at(-1)).toMatchObject({ type: 'run/finished', incumbentId: refEnd?.type === 'run/finished' ? refEnd.incumbentId : 'none' });
    expect(decisions(run.events)).toEqual(decisions(ref.events));
    expect(run.events.filter((e) => e.type === 'edit/applied')).toHaveLength(1);
    expect(readFileSync(ws.promptPath, 'utf8')).toBe(readFileSync(reference.promptPath, 'utf8'));

    // The meter carried across every resume: the same calls, tokens and dollars; it never went back.
    const costs = run.events.flatMap((e) => (e.type === 'cost/update' ? [e.llmCalls] : []));
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
    const mine = lastCost(run.events)!;
    const theirs = lastCost(ref.events)!;
    expect(mine.calls).toBe(theirs.calls);
    expect(mine.tokens).toBe(theirs.tokens);
    expect(mine.dollars).toBeCloseTo(theirs.dollars!, 6);
    // Each resume said how much run time came before it, and that never shrank.
    const resumed = run.events.flatMap((e) => (e.type === 'run/resumed' ? [e.elapsedMs] : []));
    expect(resumed).toHaveLength(3);
    expect(resumed).toEqual([...resumed].sort((a, b) => a - b));
  }, 180_000);
});

describe('an autopilot write that finds the file changed', () => {
  it('stops the run without writing, and the exit code says so', async () => {
    const ws = makeWorkspace({ seed: 6 });
    await withServer(ws, 6, 1, async (server) => {
      // The first proposal is held until the file has changed under the run.
      server.inject({ kind: 'park', model: 'sim-proposer' });
      const { done } = startCli(['evolve', ws.promptPath, '--base-url', server.url, '-w', ws.dir, '--apply']);
      await server.untilParked(1);
      const mine = `${readFileSync(ws.promptPath, 'utf8')}\nMy own line.\n`;
      writeFileSync(ws.promptPath, mine);
      server.releaseParked();
      const r = await done;
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/changed since c1 was computed/);
      const { events } = onlyRun(ws);
      expect(events.at(-1)).toMatchObject({ type: 'run/failed', error: { code: 'fileChanged' } });
      expect(decisions(events).filter((d) => d.decision === 'commit')).toHaveLength(1);
      expect(readFileSync(ws.promptPath, 'utf8')).toBe(mine);
    });
  }, 60_000);
});

describe('a dead endpoint', () => {
  it('stops the run with the reason, resumable; once the endpoint is back the resume ends as an uninterrupted run did', async () => {
    const seed = 7;
    const reference = makeWorkspace({ seed });
    // The uninterrupted run goes on beside the failing one: they share nothing.
    const uninterrupted = withServer(reference, seed, 2, async (server) => {
      await runCli(['evolve', reference.promptPath, '--base-url', server.url, '-w', reference.dir]);
    });
    const ws = makeWorkspace({ seed });
    await withServer(
      ws,
      seed,
      2,
      async (server) => {
        const { child, done } = startCli(['evolve', ws.promptPath, '--base-url', server.url, '-w', ws.dir, '--max-failures', '2']);
        await until(() => decisions(safeJournal(ws)).length >= 2, child);
        server.inject({ kind: 'status', status: 500, times: Infinity, message: 'The server is down.' });
        const r = await done;
        expect(r.code).toBe(2);
        const { id, events } = onlyRun(ws);
        expect(events.at(-1)).toMatchObject({ type: 'run/failed', error: { code: 'llmHttp' } });
        expect(r.stderr).toMatch(/500/);
        const list = await runCli(['runs', 'list', ws.dir, '--json']);
        expect(JSON.parse(list.stdout.trim().split('\n')[0]!)).toMatchObject({ runId: id, status: 'failed', resumable: true });

        // Resumed while the endpoint is still down, giving up at the first failure: failed again, still resumable.
        const again = await runCli(['runs', 'resume', id, '-w', ws.dir, '--max-failures', '1', '--call-timeout', '30']);
        expect(again.code).toBe(2);
        expect(again.stderr).not.toMatch(/After \d+ attempts/);
        expect(journal(ws.dir, id).at(-1)).toMatchObject({ type: 'run/failed', error: { code: 'llmHttp' } });

        server.clearFaults();
        const resumed = await runCli(['runs', 'resume', id, '-w', ws.dir]);
        expect(resumed.stderr).toContain('finished');
        await uninterrupted;
        expect(decisions(journal(ws.dir, id))).toEqual(decisions(onlyRun(reference).events));
      },
      10,
    );
  }, 120_000);
});

/** Starts the CLI and SIGKILLs it as soon as its run's journal satisfies `when`. */
async function killWhen(args: string[], ws: Workspace, when: (events: EngineEvent[]) => boolean): Promise<void> {
  const { child, done } = startCli(args);
  await until(() => when(safeJournal(ws)), child);
  child.kill('SIGKILL');
  await done;
}

/** Polls `ready` until it holds; fails if the process ends first (the run was too quick to catch). */
function until(ready: () => boolean, child: { once(e: 'exit', f: () => void): unknown }): Promise<void> {
  return new Promise((resolve, reject) => {
    let over = false;
    child.once('exit', () => {
      over = true;
    });
    const timer = setInterval(() => {
      if (ready()) {
        clearInterval(timer);
        resolve();
      } else if (over) {
        clearInterval(timer);
        reject(new Error('the run ended before the moment the test waited for'));
      }
    }, 10);
  });
}

function safeJournal(ws: Workspace): EngineEvent[] {
  const [id] = runIds(ws.dir);
  if (!id) return [];
  try {
    return journal(ws.dir, id);
  } catch {
    return [];
  }
}
