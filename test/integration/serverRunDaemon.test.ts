// Runs live in the workspace's run daemon, not in the language server: a server that dies (what a
// Reload Window does to it) leaves its runs going, and the next server takes them over — their
// events, their pending suggestions. A daemon that dies leaves its runs resumable, and so does one
// whose runs waited longer than the keep-alive for a window to come back.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { isTerminal } from '../../src/core/journal/eventClasses';
import { readJournal } from '../../src/core/journal/replay';
import { runPaths } from '../../src/core/journal/journal';
import { RunStore } from '../../src/extension/runs/runStore';
import { RunFeed } from '../../src/extension/runs/runFeed';
import { NodeFiles } from '../../src/node/files';
import { AcceptSuggestionRequest, CancelRunRequest, ListRunsRequest, ListSuggestionsRequest, ResumeRunRequest, StartRunRequest } from '../../src/protocol/lsp';
import type { ServerSettings } from '../../src/protocol/lsp';
import { currentOwner, isOwnerAlive } from '../../src/node/process';
import { daemonAddress } from '../../src/node/daemonAddress';
import { version } from '../../package.json';
import { journal } from './evolveCli';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';
import type { WorkspaceOptions } from './evolveWorkspace';
import { SERVER, TestClient } from './serverHarness';

beforeAll(() => {
  if (!existsSync(SERVER)) execSync('npm run build', { stdio: 'inherit' });
});

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(o: { seed: number; latencyMs: number; gainAt?: number; workspace?: WorkspaceOptions; settings?: Partial<ServerSettings> }) {
  const w = makeWorkspace({ seed: o.seed, candidates: 8, ...o.workspace });
  const fake = await startFakeServer({ scenario: scenarioFor(w, { seed: o.seed, ...(o.gainAt ? { gainAt: o.gainAt } : {}) }), latencyMs: o.latencyMs });
  cleanups.push(() => fake.close());
  const settings: ServerSettings = { provider: 'openai', trusted: true, baseURL: fake.url, ...o.settings };
  const open = async () => {
    const c = await TestClient.start({ folders: [w.dir], settings });
    cleanups.push(() => c.stop());
    return c;
  };
  return { w, fake, open };
}

/** The process that holds the run (its lock.json): the run daemon. Killed after the test. */
function ownerPid(workspace: string, runId: string): number {
  const { pid } = JSON.parse(readFileSync(join(workspace, '.ratchet', 'runs', runId, 'lock.json'), 'utf8')) as { pid: number };
  cleanups.push(() => {
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  });
  return pid;
}

/** Whether the process runs (a killed one nobody reaped yet counts as gone). */
const alive = (pid: number): boolean => isOwnerAlive({ ...currentOwner(), pid }) === true;

async function killServer(c: TestClient): Promise<void> {
  c.child.kill('SIGKILL');
  await new Promise((r) => c.child.once('exit', r));
}

const terminal = (c: TestClient, runId: string) => c.runEvents(runId).find(isTerminal);
/**
 * Waits for the run's terminal event through `c`, with a deadline generous for a loaded machine (a
 * run here takes a second or two idle). A run that never ends is reported with what would say why:
 * its last statuses, its journal's last events, the server's log and the daemon's.
 */
async function runEnd(c: TestClient, workspace: string, runId: string, what: string) {
  try {
    return await c.waitFor(() => terminal(c, runId), what, 60_000);
  } catch (err) {
    const statuses = c.statusesOf(runId).slice(-3);
    const events = existsSync(runPaths(new NodeFiles(), workspace, runId).events)
      ? journal(workspace, runId)
          .slice(-5)
          .map((e) => e.type)
      : [];
    const log = daemonAddress([workspace], version).log;
    const daemonLog = existsSync(log) ? readFileSync(log, 'utf8').slice(-3000) : '(none)';
    throw new Error([(err as Error).message, `Last statuses: ${JSON.stringify(statuses)}`, `Journal ends: ${events.join(', ')}`, `Server log:\n${c.logs.slice(-20).join('\n')}`, `Daemon log:\n${daemonLog}`].join('\n'), { cause: err });
  }
}
/** The decisions the run's journal holds. */
const journaledDecisions = (workspace: string, runId: string) => journal(workspace, runId).filter((e) => e.type === 'decision').length;
const decisions = (c: TestClient, runId: string) => c.runEvents(runId).filter((e) => e.type === 'decision').length;

describe('a run outlives its language server', () => {
  it('goes on while no server is attached, and the next server streams it to the end', async () => {
    const { w, fake, open } = await setup({ seed: 5, gainAt: 6, latencyMs: 15 });
    // The fake holds every request until the test lets it go: the run moves only as the test steps
    // it, so it is still running, whatever the machine's speed, when the next server attaches. (It
    // parked from the 11th request after two decisions once, and a loaded machine's run had fewer
    // left by the time the test saw the second decision: nothing ever parked.)
    fake.inject({ kind: 'park', times: Infinity });
    const step = async () => {
      await fake.untilParked(1);
      fake.releaseParked();
    };
    const first = await open();
    const { runId } = await first.conn.sendRequest(StartRunRequest, { uri: first.uriOf(w.promptPath), kind: 'evolve' });
    while (decisions(first, runId) < 2) await step();
    const daemon = ownerPid(w.dir, runId);
    expect(daemon).not.toBe(first.child.pid);
    await killServer(first);
    // Ten more steps with no server attached, then the run waits at its next request.
    for (let i = 0; i < 10; i++) await step();
    await fake.untilParked(1);

    const second = await open();
    const { runs } = await second.conn.sendRequest(ListRunsRequest, {});
    expect(runs).toEqual([expect.objectContaining({ runId, status: 'running', hosted: true, resumable: false })]);
    fake.clearFaults();
    fake.releaseParked();
    // Nothing to resume: the new server says so rather than offering it.
    expect(await second.waitFor(() => second.statuses.find((s) => s.resumable !== undefined), 'serverStatus')).toMatchObject({ health: 'ok', resumable: 0 });
    const end = await runEnd(second, w.dir, runId, 'run/finished through the second server');
    expect(end.type).toBe('run/finished');
    expect(second.runEvents(runId).some((e) => e.type === 'run/started')).toBe(false);
    // Its status was taken over from the attach answer, counts included, and each change relayed
    // as it came: as the status, and as the progress (begun with the status it attached to).
    const statuses = await second.waitFor(() => second.statusesOf(runId).at(-1)?.state === 'finished' && second.statusesOf(runId), 'the finished status');
    expect(statuses[0]).toMatchObject({ runId, state: 'running' });
    expect(statuses[0]!.tested).toBeGreaterThanOrEqual(2);
    expect(statuses.at(-1)).toMatchObject({ state: 'finished', line: `${statuses.at(-1)!.tested} tested · ${statuses.at(-1)!.commits} committed` });
    expect(statuses.at(-1)!.tested).toBe(journaledDecisions(w.dir, runId));
    const progress = [...second.progress.values()].find((p) => p.values[0]?.title === 'Ratchet: Evolving task.prompt.md');
    expect(progress?.values[0]?.message).toBe(statuses[0]!.line);
    await second.waitFor(() => progress?.values.at(-1)?.kind === 'end', 'the progress to end');
    expect(progress!.values.slice(1, -1).map((v) => v.message)).toEqual(statuses.slice(1, -1).map((s) => s.line));

    // One uninterrupted run in the journal: one start, every candidate once, and its end.
    const events = journal(w.dir, runId);
    expect(events.filter((e) => e.type === 'run/started')).toHaveLength(1);
    const proposed = events.filter((e) => e.type === 'candidate/proposed').map((e) => (e.type === 'candidate/proposed' ? e.candidateId : ''));
    expect(new Set(proposed).size).toBe(proposed.length);
    expect(events.at(-1)).toMatchObject({ type: 'run/finished', candidates: 8 });

    // Numbered 1…N without a gap, and each server passed the numbers on as journaled: the first
    // from the start, the second from wherever the run was when it attached.
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual(events.map((_, i) => i + 1));
    const firstSeqs = first.runEvents(runId).map((e) => e.seq);
    const secondSeqs = second.runEvents(runId).map((e) => e.seq);
    expect(firstSeqs).toEqual(seqs.slice(0, firstSeqs.length));
    expect(secondSeqs).toEqual(seqs.slice(-secondSeqs.length));
    expect(secondSeqs[0]).toBeGreaterThan(firstSeqs.at(-1)! + 1);
    // The editor's side: a feed that heard both servers fills what neither notified (the run went
    // on with no server) from the journal, and folds the run the journal holds.
    const files = new NodeFiles();
    const store = new RunStore();
    const warnings: string[] = [];
    const feed = new RunFeed(store, { exists: () => Promise.resolve(true), read: (ws, id) => readJournal(files, runPaths(files, ws, id).events) }, { warn: (m) => warnings.push(m) });
    for (const p of [...first.events, ...second.events]) if (p.runId === runId) feed.onRunEvent(p);
    await second.waitFor(() => store.lastSeq(runId) === events.length || undefined, 'the feed to fill the gap');
    const whole = new RunStore();
    whole.appendAll((await readJournal(files, runPaths(files, w.dir, runId).events)).events);
    expect([store.snapshot(runId), store.hasGap(runId), warnings]).toEqual([whole.snapshot(runId), false, []]);
  });

  it('the next server can cancel a run it took over, from the request or its progress', async () => {
    const { w, open } = await setup({ seed: 5, gainAt: 6, latencyMs: 30 });
    const first = await open();
    const { runId } = await first.conn.sendRequest(StartRunRequest, { uri: first.uriOf(w.promptPath), kind: 'evolve' });
    await first.waitFor(() => decisions(first, runId) >= 1, 'a decision');
    ownerPid(w.dir, runId);
    await killServer(first);

    const second = await open();
    const progress = await second.waitFor(() => [...second.progress.values()].find((p) => p.values[0]?.title === 'Ratchet: Evolving task.prompt.md'), 'the adopted run’s progress');
    await second.cancelProgress(progress.token);
    const end = await runEnd(second, w.dir, runId, 'run/cancelled through the second server');
    expect(end.type).toBe('run/cancelled');
    expect(journal(w.dir, runId).at(-1)?.type).toBe('run/cancelled');
    expect(await second.conn.sendRequest(CancelRunRequest, { runId })).toEqual({ cancelled: false });
  });

  it('asks the next server for the Accept a suggestion was waiting for when its server died', async () => {
    const { w, open } = await setup({ seed: 3, gainAt: 1, latencyMs: 0, workspace: { mode: 'suggest', candidates: 3 } });
    const first = await open();
    const uri = await first.open(w.promptPath);
    const { runId } = await first.conn.sendRequest(StartRunRequest, { uri, kind: 'evolve' });
    const pending = await first.waitFor(() => first.suggestions.find((s) => s.status === 'pending'), 'a pending suggestion');
    ownerPid(w.dir, runId);
    await killServer(first);

    const second = await open();
    // Its first list, asked at once, already holds it: the server answers a list once what the
    // daemon's runs were waiting to ask is in. The editor draws the last session's suggestions until
    // that list comes, and would take away one the list left out.
    const { suggestions } = await second.conn.sendRequest(ListSuggestionsRequest, {});
    expect(suggestions).toEqual([expect.objectContaining({ runId, candidateId: pending.candidateId, status: 'pending', newText: pending.newText })]);
    await second.open(w.promptPath);
    const again = await second.waitFor(() => second.suggestions.find((s) => s.status === 'pending'), 'the suggestion, offered again');
    expect(again).toMatchObject({ runId, candidateId: pending.candidateId, newText: pending.newText });
    expect(await second.conn.sendRequest(AcceptSuggestionRequest, { runId, candidateId: again.candidateId })).toEqual({ outcome: 'applied' });
    expect(second.text(uri)).toBe(pending.newText);
    await runEnd(second, w.dir, runId, 'the run to end');
    expect(journal(w.dir, runId).some((e) => e.type === 'edit/applied' && e.candidateId === 'c1' && e.by === 'user')).toBe(true);
  });
});

describe('a run whose daemon is gone can be resumed', () => {
  it('the daemon killed mid-run: the server says the run stopped, and it resumes to the end', async () => {
    const { w, fake, open } = await setup({ seed: 5, gainAt: 6, latencyMs: 15 });
    const client = await open();
    const { runId } = await client.conn.sendRequest(StartRunRequest, { uri: client.uriOf(w.promptPath), kind: 'evolve' });
    await client.waitFor(() => decisions(client, runId) >= 2, 'two decisions');
    process.kill(ownerPid(w.dir, runId), 'SIGKILL');
    const status = await client.waitFor(() => client.statuses.find((s) => s.health === 'warning' && s.resumable !== undefined), 'the lost-run status');
    expect(status).toMatchObject({ resumable: 1 });
    expect(status.message).toMatch(/1 run stopped \(the run process stopped unexpectedly\)/);

    const { runs } = await client.conn.sendRequest(ListRunsRequest, {});
    expect(runs).toEqual([expect.objectContaining({ runId, status: 'interrupted', resumable: true, hosted: false, workspace: w.dir })]);
    const statusesBefore = client.statusesOf(runId).length;
    const decidedBefore = journaledDecisions(w.dir, runId);
    expect(await client.conn.sendRequest(ResumeRunRequest, { runId })).toEqual({ runId });
    // The resumed run's status goes on from the journal's counts, and its progress begins with it.
    const resumed = client.statusesOf(runId)[statusesBefore];
    expect(resumed).toEqual({ runId, state: 'running', kind: 'evolve', tested: decidedBefore, commits: expect.any(Number), line: `${decidedBefore} tested · ${resumed?.commits} committed` });
    // The warning was about that run: once it goes on, the server is reported healthy again.
    expect(client.statuses.at(-1)).toMatchObject({ health: 'ok', message: 'Ready.' });
    // The server hosts it again (it had counted the run as over when its daemon died): listed as
    // its own, with a progress whose Cancel reaches it.
    expect((await client.conn.sendRequest(ListRunsRequest, {})).runs).toEqual([expect.objectContaining({ runId, hosted: true })]);
    const resumedProgress = await client.waitFor(() => [...client.progress.values()].find((p) => p.values[0]?.title === 'Ratchet: Resuming task.prompt.md'), 'the resumed run’s progress');
    expect(resumedProgress.values[0]?.message).toBe(resumed?.line);
    fake.setLatency(0);
    expect((await runEnd(client, w.dir, runId, 'run/finished after resume')).type).toBe('run/finished');
    const events = journal(w.dir, runId);
    // Every event once: the resumed run appended where the killed one stopped.
    const proposed = events.filter((e) => e.type === 'candidate/proposed').map((e) => (e.type === 'candidate/proposed' ? e.candidateId : ''));
    expect(new Set(proposed).size).toBe(proposed.length);
    expect(events.at(-1)?.type).toBe('run/finished');
    // Numbered 1…N across the kill, and every event the client heard is the journal's at its seq.
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const heard = client.runEvents(runId);
    expect(heard).toEqual(heard.map((e) => events[e.seq - 1]));
    expect(heard.map((e) => e.seq)).toEqual([...new Set(heard.map((e) => e.seq))].sort((a, b) => a - b));
    expect(heard.find((e) => e.type === 'run/resumed')).toBeDefined();
    // The daemon started for the resume appended to the log: the killed one's lines are still there.
    const log = readFileSync(daemonAddress([w.dir], version).log, 'utf8');
    expect(log.match(/listening on .* \(pid \d+\)/g)).toHaveLength(2);
  });

  it('no window came back within the keep-alive: the daemon stops the run, and the next server offers it', async () => {
    const { w, open } = await setup({ seed: 5, gainAt: 6, latencyMs: 30, settings: { keepAliveSeconds: 1 } });
    const first = await open();
    const { runId } = await first.conn.sendRequest(StartRunRequest, { uri: first.uriOf(w.promptPath), kind: 'evolve' });
    await first.waitFor(() => decisions(first, runId) >= 1, 'a decision');
    const daemon = ownerPid(w.dir, runId);
    await killServer(first);
    await first.waitFor(() => !alive(daemon), 'the daemon to stop after its keep-alive', 10_000);

    const second = await open();
    expect(await second.waitFor(() => second.statuses.find((s) => s.resumable !== undefined), 'serverStatus')).toMatchObject({ health: 'ok', resumable: 1 });
    expect(journal(w.dir, runId).some(isTerminal)).toBe(false);
  });
});

describe('the API key reaches the run daemon in the run request only', () => {
  // Not shaped like an `sk-` key, so a leak would show as itself rather than be caught by redaction.
  const KEY = 'opaque-secret-7f3a9c2e51';

  /** Every file under `dir`, with its text. */
  const filesUnder = (dir: string): [string, string][] =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => join(d.parentPath, d.name))
      .map((path) => [path, readFileSync(path, 'utf8')]);

  it('calls the endpoint with the key, which is in no environment, journal or log', async () => {
    const w = makeWorkspace({ seed: 5, candidates: 3 });
    const fake = await startFakeServer({ scenario: scenarioFor(w, { seed: 5 }), latencyMs: 5, apiKey: KEY });
    cleanups.push(() => fake.close());
    // The server itself was started with OPENAI_API_KEY in its environment (serverHarness): the settings' key wins, and neither reaches the daemon's environment.
    const client = await TestClient.start({ folders: [w.dir], settings: { provider: 'openai', trusted: true, baseURL: fake.url, apiKey: KEY } });
    cleanups.push(() => client.stop());
    const { runId } = await client.conn.sendRequest(StartRunRequest, { uri: client.uriOf(w.promptPath), kind: 'evolve' });
    await client.waitFor(() => decisions(client, runId) >= 1, 'a decision');
    const daemon = ownerPid(w.dir, runId);
    if (process.platform === 'linux') {
      const environ = readFileSync(`/proc/${daemon}/environ`, 'utf8').split('\0');
      expect(environ.filter((v) => v.startsWith('OPENAI_API_KEY='))).toEqual([]);
      expect(environ.filter((v) => v.includes(KEY) || v.includes('test-key'))).toEqual([]);
      expect(environ.some((v) => v.startsWith('PATH='))).toBe(true);
    }
    expect((await runEnd(client, w.dir, runId, 'the run’s end')).type).toBe('run/finished');
    // Every call was authorized: a missing key would have been a 401.
    expect(fake.calls.length).toBeGreaterThan(0);
    expect(fake.calls.every((c) => c.status === 200)).toBe(true);

    const written: [string, string][] = [...filesUnder(join(w.dir, '.ratchet')), ['daemon log', readFileSync(daemonAddress([w.dir], version).log, 'utf8')], ['server log', client.logs.join('\n')], ['server stderr', client.serverStderr]];
    expect(written.length).toBeGreaterThan(3);
    expect(written.filter(([, text]) => text.includes(KEY)).map(([path]) => path)).toEqual([]);
  });
});
