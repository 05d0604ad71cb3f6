// A code search through the language server runs in the workspace's run daemon exactly as a prompt
// run does: its status (counted by the daemon from the search's events) matches its journal, a
// cancel stops it and its evaluator, a server that comes back after a reload takes over its status,
// and a search whose daemon died resumes through the daemon to its end. Races are held open with
// the fake server's `park` fault (a proposal held until the test releases it), or by an evaluator
// that waits until it is killed.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { FakeServer } from '../fixtures/fakeOpenAI/server';
import type { EngineEvent } from '../../src/core/journal/events';
import { foldStatus, formatScore, isOver, isWorkDone, startingStatus } from '../../src/core/journal/runStatus';
import type { LiveRunStatus } from '../../src/core/journal/runStatus';
import { currentOwner, isOwnerAlive } from '../../src/node/process';
import { CancelRunRequest, ListRunsRequest, ResumeRunRequest, StartRunRequest } from '../../src/protocol/lsp';
import type { ServerSettings } from '../../src/protocol/lsp';
import { journal, runIds } from './evolveCli';
import { PROGRAM, searchWorkspace } from './searchWorkspace';
import type { SearchWorkspace } from './searchWorkspace';
import { SERVER, TestClient } from './serverHarness';

beforeAll(() => {
  if (!existsSync(SERVER)) execSync('npm run build', { stdio: 'inherit' });
});

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const alive = (pid: number): boolean => isOwnerAlive({ ...currentOwner(), pid }) === true;

async function setup(o: { prelude?: (dir: string) => string; settings?: Partial<ServerSettings> } = {}) {
  // Each new best program is offered to the editor and, once the search is done, waited for: these tests are about the run, so each is rejected as it comes.
  const ws = searchWorkspace(o.prelude);
  const fake = await startFakeServer({});
  cleanups.push(() => fake.close());
  const open = async () => {
    const c = await TestClient.start({ folders: [ws.dir], settings: { provider: 'openai', trusted: true, baseURL: fake.url, ...o.settings }, answer: 'reject' });
    cleanups.push(() => c.stop());
    return c;
  };
  return { ws, fake, open };
}

/** The run daemon holding the run (its lock.json), killed after the test. */
function ownerPid(ws: SearchWorkspace, runId: string): number {
  const { pid } = JSON.parse(readFileSync(join(ws.dir, '.ratchet', 'runs', runId, 'lock.json'), 'utf8')) as { pid: number };
  cleanups.push(() => {
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  });
  return pid;
}

/**
 * The status a search's journal calls for: its decisions counted, its start and best scores. The
 * best is the program the run named at its end; before that, with one island, the last child the
 * gate committed (the island's incumbent), else the start.
 */
function statusOfJournal(events: EngineEvent[]): Pick<LiveRunStatus, 'tested' | 'commits' | 'line' | 'kind'> {
  const decisions = events.flatMap((e) => (e.type === 'decision' ? [e.record] : []));
  const commits = decisions.filter((d) => d.decision === 'commit').length;
  const score = (id: string | undefined) => events.find((e) => e.type === 'program/evaluated' && e.candidateId === id && e.correct);
  const end = events.find((e) => e.type === 'run/finished');
  const start = score('p0');
  const incumbent = end?.type === 'run/finished' ? end.incumbentId : (decisions.filter((d) => d.decision === 'commit').at(-1)?.candidateId ?? 'p0');
  const best = score(incumbent);
  const at = (e: EngineEvent | undefined) => formatScore((e as { score: number }).score);
  const n = decisions.length;
  return { kind: 'search', tested: n, commits, line: `${n} program${n === 1 ? '' : 's'} tested · ${commits} committed · best ${at(best)} (start ${at(start)})` };
}

const isEnded = (s: LiveRunStatus | undefined) => s !== undefined && isOver(s);
const lastStatus = (c: TestClient, runId: string) => c.statusesOf(runId).at(-1);
const searchProgress = (c: TestClient, title: string) => [...c.progress.values()].find((p) => p.values[0]?.title === title);

/**
 * Holds the search at its second proposal (the first child is decided by then) until the test
 * releases it. The search must run one proposal at a time (`concurrency: 1`): with more in
 * flight, which request reaches the endpoint second is up to the network.
 */
async function heldAtSecondProposal(fake: FakeServer): Promise<void> {
  fake.inject({ kind: 'park', model: 'sim-proposer', skip: 1 });
  await fake.untilParked(1);
}

describe('a code search in the run daemon', () => {
  it('runs to its end with a status whose counts and scores are its journal’s, and leaves the file as it was', async () => {
    const { ws, open } = await setup();
    const client = await open();
    const { runId } = await client.conn.sendRequest(StartRunRequest, { kind: 'search', uri: client.uriOf(ws.program), overrides: { proposals: 6 } });
    expect(ownerPid(ws, runId)).not.toBe(client.child.pid);
    const end = await client.waitFor(() => isEnded(lastStatus(client, runId)) && lastStatus(client, runId), 'the search to end', 120_000);
    const events = journal(ws.dir, runId);
    expect(end, end.error).toMatchObject({ state: 'finished', kind: 'search', ...statusOfJournal(events) });
    expect(events.at(-1)).toMatchObject({ type: 'run/finished', candidates: end.tested, commits: end.commits });
    // A nudge toward 0.5 is better on every instance by a margin the gate sees: the best is not the start.
    expect(end.commits).toBeGreaterThan(0);
    expect(end.search!.best!.score).toBeGreaterThan(end.search!.start!);
    // Its work-done progress showed each status's line until its work was done (over, or waiting
    // only for the answer to its best: no spinner while the run waits for the user), and ended then.
    const progress = searchProgress(client, 'Ratchet: Searching step.mjs');
    expect(progress?.values[0]).toMatchObject({ kind: 'begin', cancellable: true });
    await client.waitFor(() => progress?.values.at(-1)?.kind === 'end', 'the progress to end');
    const statuses = client.statusesOf(runId);
    expect(progress!.values.slice(1, -1).map((v) => v.message)).toEqual(statuses.slice(1, statuses.findIndex(isWorkDone)).map((s) => s.line));
    // The events came relayed for the program's URI; the file was not written.
    expect(client.events.filter((e) => e.runId === runId).every((e) => e.uri === client.uriOf(ws.program))).toBe(true);
    expect(readFileSync(ws.program, 'utf8')).toBe(PROGRAM);
    expect((await client.conn.sendRequest(ListRunsRequest, {})).runs).toEqual([expect.objectContaining({ runId, kind: 'search', status: 'finished', resumable: false })]);
  }, 180_000);

  it('is refused in an untrusted workspace before a run folder exists or a call is made', async () => {
    const { ws, fake, open } = await setup({ settings: { trusted: false } });
    const client = await open();
    await expect(client.conn.sendRequest(StartRunRequest, { kind: 'search', uri: client.uriOf(ws.program) })).rejects.toThrow(/trust the workspace/);
    expect(runIds(ws.dir)).toEqual([]);
    expect(fake.calls).toEqual([]);
  });

  it("is refused with VS Code's language models (its row allows no editor models), before a run folder exists", async () => {
    const { ws, fake, open } = await setup({ settings: { provider: 'vscode-lm' } });
    const client = await open();
    await expect(client.conn.sendRequest(StartRunRequest, { kind: 'search', uri: client.uriOf(ws.program) })).rejects.toThrow(/cannot use VS Code's language models yet/);
    expect(runIds(ws.dir)).toEqual([]);
    expect(fake.calls).toEqual([]);
  });

  it('is cancelled from its progress: the status says cancelled, and the evaluator it was running is gone', async () => {
    // A child's evaluation notes its pid, then waits until it is killed; the seed's runs as usual.
    const held = (dir: string) => join(dir, 'held.pid');
    const { ws, open } = await setup({
      prelude: (dir) =>
        `import { readFileSync as readHeld, writeFileSync as writeHeld } from 'node:fs';\n` +
        `if (!readHeld(process.argv[2], 'utf8').includes('0.300;')) { writeHeld(${JSON.stringify(held(dir))}, String(process.pid)); await new Promise(() => setInterval(() => undefined, 60_000)); }`,
    });
    // The evaluator writes its pid into the workspace, which a jail hides from it: no isolation for this one.
    const spec = join(ws.dir, 'step.mjs.ratchet.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('  timeoutSeconds: 60\n', '  timeoutSeconds: 60\n  isolation: off\n'));
    const client = await open();
    const { runId } = await client.conn.sendRequest(StartRunRequest, { kind: 'search', uri: client.uriOf(ws.program), overrides: { proposals: 3 } });
    ownerPid(ws, runId);
    const pid = await client.waitFor(() => existsSync(held(ws.dir)) && Number(readFileSync(held(ws.dir), 'utf8')), 'a child’s evaluation to start', 60_000);
    expect(alive(pid)).toBe(true);
    const progress = await client.waitFor(() => searchProgress(client, 'Ratchet: Searching step.mjs'), 'the search’s progress');
    await client.cancelProgress(progress.token);
    const end = await client.waitFor(() => isEnded(lastStatus(client, runId)) && lastStatus(client, runId), 'the search to stop');
    expect(end.state).toBe('cancelled');
    expect(journal(ws.dir, runId).at(-1)?.type).toBe('run/cancelled');
    expect(alive(pid)).toBe(false);
    expect(await client.conn.sendRequest(CancelRunRequest, { runId })).toEqual({ cancelled: false });
  }, 120_000);

  it('a server that comes back after a reload takes over the running search’s status, and streams it to its end', async () => {
    const { ws, fake, open } = await setup({ settings: { concurrency: 1 } });
    const first = await open();
    const { runId } = await first.conn.sendRequest(StartRunRequest, { kind: 'search', uri: first.uriOf(ws.program), overrides: { proposals: 3 } });
    await heldAtSecondProposal(fake);
    ownerPid(ws, runId);
    // Held there, the journal has all the search did so far; its status is what the journal folds to
    // (its line may be the offer of a new best, which the counts line of statusOfJournal does not say).
    const folded = journal(ws.dir, runId).reduce(foldStatus, startingStatus(runId));
    const held = { kind: folded.kind, tested: folded.tested, commits: folded.commits, line: folded.line };
    expect(held.tested).toBeGreaterThan(0);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await open();
    // The attach answer brings the status as the daemon holds it: the search's, counts and line.
    const adopted = await second.waitFor(() => second.statusesOf(runId)[0], 'the adopted status');
    expect(adopted).toMatchObject({ ...held, state: 'running' });
    const progress = await second.waitFor(() => searchProgress(second, 'Ratchet: Searching step.mjs'), 'the adopted search’s progress');
    expect(progress.values[0]?.message).toBe(held.line);
    expect((await second.conn.sendRequest(ListRunsRequest, {})).runs).toEqual([expect.objectContaining({ runId, kind: 'search', status: 'running', hosted: true })]);
    fake.releaseParked();
    const end = await second.waitFor(() => isEnded(lastStatus(second, runId)) && lastStatus(second, runId), 'the search to end', 120_000);
    expect(end).toMatchObject({ state: 'finished', ...statusOfJournal(journal(ws.dir, runId)) });
  }, 180_000);

  it('a search whose daemon died is listed resumable, and resumes through a new daemon to its end', async () => {
    const { ws, fake, open } = await setup({ settings: { concurrency: 1 } });
    const client = await open();
    const { runId } = await client.conn.sendRequest(StartRunRequest, { kind: 'search', uri: client.uriOf(ws.program), overrides: { proposals: 3 } });
    await heldAtSecondProposal(fake);
    const held = statusOfJournal(journal(ws.dir, runId));
    expect(held.tested).toBeGreaterThan(0);
    process.kill(ownerPid(ws, runId), 'SIGKILL');
    await client.waitFor(() => client.statuses.find((s) => s.health === 'warning' && s.resumable !== undefined), 'the lost-run status');
    fake.releaseParked();
    expect((await client.conn.sendRequest(ListRunsRequest, {})).runs).toEqual([expect.objectContaining({ runId, kind: 'search', status: 'interrupted', resumable: true, hosted: false })]);

    const heard = client.statusesOf(runId).length;
    expect(await client.conn.sendRequest(ResumeRunRequest, { runId })).toEqual({ runId });
    ownerPid(ws, runId);
    // It goes on from the journal's counts and scores, as a search.
    expect(client.statusesOf(runId)[heard]).toMatchObject({ ...held, state: 'running' });
    await client.waitFor(() => searchProgress(client, 'Ratchet: Resuming step.mjs'), 'the resumed search’s progress');
    const end = await client.waitFor(() => isEnded(lastStatus(client, runId)) && lastStatus(client, runId), 'the resumed search to end', 120_000);
    const events = journal(ws.dir, runId);
    expect(end, end.error).toMatchObject({ state: 'finished', ...statusOfJournal(events) });
    expect(events.filter((e) => e.type === 'run/resumed')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'run/started')).toHaveLength(1);
    expect(events.map((e) => (e as { seq?: number }).seq)).toEqual(events.map((_, i) => i + 1));
    // Each best was offered, and answered, once: the resume gave the journal's answers again.
    const offers = events.flatMap((e) => (e.type === 'suggestion' || e.type === 'edit/rejected' ? [`${e.type} ${e.candidateId}`] : []));
    expect(offers.length).toBeGreaterThan(0);
    expect(new Set(offers).size).toBe(offers.length);
    expect([...new Set(client.suggestions.filter((s) => s.status === 'rejected').map((s) => s.candidateId))]).toEqual(events.flatMap((e) => (e.type === 'edit/rejected' && e.by === 'user' ? [e.candidateId] : [])));
  }, 180_000);
});
