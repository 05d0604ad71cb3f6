import { rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createJournal } from '../../../src/core/journal/journal';
import { listRuns, summarizeRun, totalCost } from '../../../src/core/journal/listRuns';
import { zeroRound } from '../webview/zeroRound';
import type { RunSummary } from '../../../src/core/journal/listRuns';
import type { ListedRunStatus, LiveRunState } from '../../../src/core/journal/runStates';
import { CryptoEntropy } from '../../../src/node/entropy';
import { NodeFiles } from '../../../src/node/files';
import { FIXTURE_RUNS, ManualClock, NEW_RUN, fixtureWorkspace, tempWorkspace } from './journalHelpers';

const files = new NodeFiles();
let dispose: (() => Promise<void>) | undefined;
afterEach(async () => dispose?.());

describe('listRuns', () => {
  it('says a status in the live status words, plus corrupt (checked by the type checker)', () => {
    expectTypeOf<Exclude<ListedRunStatus, 'corrupt'>>().toExtend<LiveRunState>();
    expectTypeOf<RunSummary['status']>().toEqualTypeOf<'running' | 'finished' | 'failed' | 'cancelled' | 'interrupted' | 'corrupt'>();
  });

  it('lists every run newest first, reporting a corrupt one without failing the others', async () => {
    const ws = await fixtureWorkspace();
    dispose = ws.dispose;
    await writeFile(path.join(ws.root, '.ratchet', 'runs', '.DS_Store'), 'not a run');
    const runs = await listRuns(files, ws.root);
    expect(runs.map((r) => [r.runId, r.status])).toEqual([
      [FIXTURE_RUNS.failed, 'failed'],
      [FIXTURE_RUNS.corrupt, 'corrupt'],
      [FIXTURE_RUNS.torn, 'interrupted'],
      [FIXTURE_RUNS.finished, 'finished'],
    ]);
    const byId = Object.fromEntries(runs.map((r) => [r.runId, r])) as Record<string, RunSummary>;
    const corruptFile = path.join(ws.root, '.ratchet', 'runs', FIXTURE_RUNS.corrupt, 'events.jsonl');
    expect(byId[FIXTURE_RUNS.corrupt]!.reason!.startsWith(`${corruptFile} line 5 is not valid JSON: `)).toBe(true);
    expect(byId[FIXTURE_RUNS.corrupt]!.reason!.endsWith('; the run cannot be replayed past it.')).toBe(true);
    expect(byId[FIXTURE_RUNS.corrupt]).toMatchObject({ kind: 'evolve', target: 'math/word-problems.prompt.md', started: Date.UTC(2026, 10, 3, 11) });
    expect(byId[FIXTURE_RUNS.failed]!.reason).toMatch(/answered 429 five times/);
    // The endpoint failed, not the run: it goes on from its journal once the endpoint answers.
    expect(byId[FIXTURE_RUNS.failed]!.resumable).toBe(true);
    expect(byId[FIXTURE_RUNS.torn]!.resumable).toBe(true);
    expect(byId[FIXTURE_RUNS.torn]).toMatchObject({ tornTail: true, events: 12, candidates: 1, commits: 0, cost: undefined });
    expect(byId[FIXTURE_RUNS.finished]).toEqual({
      runId: FIXTURE_RUNS.finished,
      kind: 'evolve',
      target: 'math/word-problems.prompt.md',
      status: 'finished',
      started: Date.UTC(2026, 10, 1, 9),
      lastEventAt: expect.any(Number),
      events: 109,
      candidates: 2,
      commits: 1,
      cost: { dollars: expect.closeTo(0.0221, 4), tokens: expect.any(Number), llmCalls: expect.any(Number) },
      gate: 'pace+',
      alpha: 0.05,
      tornTail: false,
      resumable: false,
    });
  });

  it('returns [] for a workspace without runs', async () => {
    const ws = await tempWorkspace();
    dispose = ws.dispose;
    expect(await listRuns(files, ws.root)).toEqual([]);
  });

  it('reports a run folder without run.json as corrupt', async () => {
    const ws = await fixtureWorkspace();
    dispose = ws.dispose;
    await rm(path.join(ws.root, '.ratchet', 'runs', FIXTURE_RUNS.finished, 'run.json'));
    const run = (await listRuns(files, ws.root)).find((r) => r.runId === FIXTURE_RUNS.finished);
    expect(run).toMatchObject({ status: 'corrupt', reason: expect.stringContaining('it has no run.json') });
  });

  it('tells a running run from an interrupted one by its owner, else by how recently it journaled', async () => {
    const ws = await tempWorkspace();
    dispose = ws.dispose;
    const clock = new ManualClock();
    const owned = await createJournal({ files, clock, entropy: new CryptoEntropy() }, ws.root, NEW_RUN, { pid: 4242, host: 'box', since: 'now' });
    await owned.append({ runId: owned.runId, at: clock.now(), type: 'log', level: 'info', message: 'working' });
    const statusWith = async (opts: Parameters<typeof listRuns>[2]) => (await listRuns(files, ws.root, opts))[0]!.status;

    expect(await statusWith({ isOwnerAlive: (o) => o.pid === 4242 })).toBe('running');
    expect(await statusWith({ isOwnerAlive: () => false, now: clock.now() })).toBe('interrupted');
    // Owner on another machine: fall back to the last event's age.
    expect(await statusWith({ isOwnerAlive: () => undefined, now: clock.now() + 60_000 })).toBe('running');
    expect(await statusWith({ isOwnerAlive: () => undefined, now: clock.now() + 60 * 60_000 })).toBe('interrupted');
    expect(await statusWith({})).toBe('interrupted');
  });
});

describe('totalCost', () => {
  const role = (calls: number, dollars: number | undefined) => ({ calls, cachedCalls: 0, retries: 0, promptTokens: 100 * calls, completionTokens: 10 * calls, dollars });

  it('sums dollars over roles when every role that made calls had a price', () => {
    expect(totalCost({ agent: role(3, 0.25), proposer: role(1, 0.5), meta: role(0, undefined) }, 4)).toEqual({ dollars: 0.75, tokens: 440, llmCalls: 4 });
  });

  it('falls back to tokens only when a role used an unpriced model', () => {
    expect(totalCost({ agent: role(3, undefined), proposer: role(1, 0.5) }, 4)).toEqual({ dollars: undefined, tokens: 440, llmCalls: 4 });
  });
});

describe('summarizeRun of a dev-set generation', () => {
  it('counts the tasks its rounds wrote, a round journaled twice (replayed on resume) once', () => {
    const events = [zeroRound(1, { kept: 3, heldOut: 2 }), zeroRound(2, { kept: 4, heldOut: 1 }), zeroRound(2, { kept: 4, heldOut: 1 })].map((e, i) => ({ ...e, seq: i + 1 }));
    expect(summarizeRun('run-1', undefined, { events, tornTail: false, validLength: 0 }).generated).toEqual({ rounds: 2, dev: 7, test: 3 });
    expect(summarizeRun('run-2', undefined, { events: [], tornTail: false, validLength: 0 }).generated).toBeUndefined();
  });
});

describe('summarizeRun of an editor Evaluate', () => {
  it('names the kind its start says (evaluate), not the prompt run its run.json records (evolve)', () => {
    const record = { format: 1, runId: 'run-e', createdAt: '2026-11-29T10:00:00.000Z', ...NEW_RUN, kind: 'evolve' as const };
    const start = { type: 'run/started' as const, runId: 'run-e', at: 1, seq: 1, info: { kind: 'evaluate' as const, target: NEW_RUN.target, gate: 'pace+' as const, alpha: 0.05, mode: 'suggest' as const, seed: 7 } };
    expect(summarizeRun('run-e', record, { events: [start], tornTail: false, validLength: 0 }).kind).toBe('evaluate');
    // Before its first event the record's word is all there is.
    expect(summarizeRun('run-e', record, { events: [], tornTail: false, validLength: 0 }).kind).toBe('evolve');
  });
});
