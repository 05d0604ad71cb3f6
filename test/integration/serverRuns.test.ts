// Runs hosted by the built language server over IPC, against the fake OpenAI-compatible server:
// events streamed as ratchet/runEvent, cancel (request and progress), evaluate, input errors as
// request errors, and LLM calls routed back to the client (vscode-lm). A server's death and the
// run daemon's: serverRunDaemon.test.ts.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { isTerminal } from '../../src/core/journal/eventClasses';
import { CancelRunRequest, ListRunsRequest, StartRunRequest } from '../../src/protocol/lsp';
import type { RatchetErrorData } from '../../src/protocol/errors';
import type { ServerSettings } from '../../src/protocol/lsp';
import { journal } from './evolveCli';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';
import { SERVER, TestClient, statusChanges } from './serverHarness';

beforeAll(() => {
  if (!existsSync(SERVER)) execSync('npm run build', { stdio: 'inherit' });
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(o: { seed: number; candidates?: number; gainAt?: number; latencyMs?: number; settings?: Partial<ServerSettings>; apiKey?: string }) {
  const w = makeWorkspace({ seed: o.seed, candidates: o.candidates ?? 10 });
  const fake = await startFakeServer({
    scenario: scenarioFor(w, { seed: o.seed, ...(o.gainAt ? { gainAt: o.gainAt } : {}) }),
    latencyMs: o.latencyMs ?? 0,
    ...(o.apiKey ? { apiKey: o.apiKey } : {}),
  });
  cleanups.push(() => fake.close());
  const client = await start(w.dir, { provider: 'openai', trusted: true, baseURL: fake.url, ...o.settings });
  return { w, fake, client, uri: client.uriOf(w.promptPath) };
}

async function start(folder: string, settings: ServerSettings) {
  const client = await TestClient.start({ folders: [folder], settings });
  cleanups.push(() => client.stop());
  return client;
}

const terminal = (c: TestClient, runId: string) => c.runEvents(runId).find(isTerminal);

describe('runs over LSP', () => {
  it('a started run streams every journaled event as ratchet/runEvent, ending with run/finished', async () => {
    // The endpoint refuses calls without this key: the one from the settings (SecretStorage) reaches it.
    const apiKey = 'sk-from-secret-storage-4242';
    const { w, client, uri } = await setup({ seed: 3, candidates: 3, apiKey, settings: { apiKey } });
    console.log(`server ready (spawn → initialize result): ${client.readyMs.toFixed(0)} ms`);
    const { runId } = await client.conn.sendRequest(StartRunRequest, { uri, kind: 'evolve' });
    const end = await client.waitFor(() => terminal(client, runId), 'run/finished');
    expect(end.type).toBe('run/finished');
    // …and is written nowhere: not in the journal, not in run.json, not in a notification.
    const runDir = join(w.dir, '.ratchet', 'runs', runId);
    for (const f of readdirSync(runDir)) expect(readFileSync(join(runDir, f), 'utf8')).not.toContain(apiKey);
    expect(JSON.stringify(client.events)).not.toContain(apiKey);
    const streamed = client.runEvents(runId);
    expect(streamed[0]?.type).toBe('run/started');
    // The same events, in the same order, as the journal holds.
    expect(streamed).toEqual(journal(w.dir, runId));
    expect(client.events.every((e) => e.uri === uri)).toBe(true);
    // One work-done progress for the run, begun cancellable and ended.
    const kinds = () => [...client.progress.values()].flatMap((p) => p.values.map((v) => v.kind));
    await client.waitFor(() => kinds().at(-1) === 'end', 'progress end');
    expect(kinds()[0]).toBe('begin');
    expect(kinds().filter((k) => k === 'report').length).toBeGreaterThan(0);
    const begin = [...client.progress.values()][0]!.values[0]!;
    expect(begin).toMatchObject({ title: 'Ratchet: Evolving task.prompt.md', cancellable: true });
    // The daemon's statuses, relayed in order: each change of the journal's fold, ending finished;
    // the progress shows each line, from the first status to the last one before the end.
    const statuses = await client.waitFor(() => client.statusesOf(runId).at(-1)?.state === 'finished' && client.statusesOf(runId), 'the finished status');
    expect(statuses).toEqual(statusChanges(runId, journal(w.dir, runId)));
    expect(client.runStatuses.every((p) => p.uri === uri && p.workspace === w.dir)).toBe(true);
    const lines = [...client.progress.values()][0]!.values.map((v) => v.message);
    expect(lines).toEqual([...statuses.slice(0, -1).map((s) => s.line), undefined]);
  });

  it('cancelRun stops a run promptly with run/cancelled', async () => {
    const { w, client, uri } = await setup({ seed: 4, latencyMs: 20 });
    const { runId } = await client.conn.sendRequest(StartRunRequest, { uri, kind: 'evolve' });
    // One run per file at a time.
    await expect(client.conn.sendRequest(StartRunRequest, { uri, kind: 'evolve' })).rejects.toThrow('already being evolved');
    await client.waitFor(() => client.runEvents(runId).some((e) => e.type === 'candidate/proposed' && e.candidateId === 'c1'), 'c1 proposed');
    expect(await client.conn.sendRequest(CancelRunRequest, { runId })).toEqual({ cancelled: true });
    const end = await client.waitFor(() => terminal(client, runId), 'run/cancelled', 5_000);
    expect(end.type).toBe('run/cancelled');
    expect(journal(w.dir, runId).at(-1)?.type).toBe('run/cancelled');
  });

  it("cancelling the run's work-done progress cancels the run", async () => {
    const { client, uri } = await setup({ seed: 4, latencyMs: 20 });
    const { runId } = await client.conn.sendRequest(StartRunRequest, { uri, kind: 'evolve' });
    const token = await client.waitFor(() => [...client.progress.values()].find((p) => p.values.some((v) => v.kind === 'begin'))?.token, 'progress begin');
    await client.cancelProgress(token);
    expect((await client.waitFor(() => terminal(client, runId), 'run/cancelled', 5_000)).type).toBe('run/cancelled');
  });

  it('evaluate scores the starting prompt on the test split and proposes nothing', async () => {
    const { w, client, uri } = await setup({ seed: 3 });
    const { runId } = await client.conn.sendRequest(StartRunRequest, { uri, kind: 'evaluate' });
    await client.waitFor(() => terminal(client, runId), 'run/finished');
    const events = client.runEvents(runId);
    expect(events.filter((e) => e.type === 'candidate/proposed').map((e) => (e.type === 'candidate/proposed' ? e.candidateId : ''))).toEqual(['v0']);
    expect(events.some((e) => e.type === 'decision')).toBe(false);
    const report = events.find((e) => e.type === 'report/test');
    expect(report?.type === 'report/test' && report.n).toBe(w.items.length - 50);
    expect(events.at(-1)).toMatchObject({ type: 'run/finished', candidates: 0, commits: 0 });
    // It says it is an Evaluate, and journals each test item's score and output (the Results view's rows).
    expect(events.find((e) => e.type === 'run/started')).toMatchObject({ info: { kind: 'evaluate' } });
    const testIds = new Set(events.flatMap((e) => (e.type === 'dataset/loaded' ? e.items.filter((i) => i.split === 'test').map((i) => i.itemId) : [])));
    const scored = journal(w.dir, runId).flatMap((e) => (e.type === 'item/evaluated' ? [e] : []));
    expect(new Set(scored.map((e) => e.itemId))).toEqual(testIds);
    expect(scored.every((e) => e.candidateId === 'v0' && typeof e.output === 'string' && e.output.length > 0)).toBe(true);
    // The Runs view lists it as an evaluation (never "0/0 committed"); an evaluation is never offered a resume (RUN_KINDS).
    const { runs } = await client.conn.sendRequest(ListRunsRequest, {});
    expect(runs.find((r) => r.runId === runId)).toMatchObject({ kind: 'evaluate', status: 'finished' });
  });

  it('a run whose inputs are broken is refused with the located problem', async () => {
    const { w, client, uri } = await setup({ seed: 3 });
    writeFileSync(join(w.dir, 'task.ratchet.yaml'), 'dataset: data/missing.jsonl\nscorer: { type: numeric }\nmodels: { default: { model: sim-agent } }\n');
    const err = await client.conn.sendRequest(StartRunRequest, { uri, kind: 'evolve' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ResponseError);
    const data = (err as ResponseError<RatchetErrorData>).data;
    expect(data?.code).toBe('badInput');
    expect((data?.details.diagnostics as unknown[] | undefined)?.[0]).toMatchObject({ file: join(w.dir, 'task.ratchet.yaml'), line: 1 });
    expect((err as Error).message).toContain('missing.jsonl');
  });
});

describe('LLM calls through the editor (provider vscode-lm)', () => {
  it('every chat request goes to the client as ratchet/languageModel and the run finishes', async () => {
    const w = makeWorkspace({ seed: 3, candidates: 2 });
    const fake = await startFakeServer({ scenario: scenarioFor(w, { seed: 3 }) });
    cleanups.push(() => fake.close());
    let asked = 0;
    // The "editor" answers with its own model: here, the fake server's simulated roles.
    const client = await TestClient.start({
      folders: [w.dir],
      settings: { provider: 'vscode-lm', trusted: true },
      languageModel: async (p) => {
        asked++;
        const res = await fetch(`${fake.url}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: p.model.family, messages: p.messages, ...(p.options.temperature === undefined ? {} : { temperature: p.options.temperature }) }),
        });
        const body = (await res.json()) as { model: string; choices: { message: { content: string } }[] };
        return { text: body.choices[0]!.message.content, model: body.model };
      },
    });
    cleanups.push(() => client.stop());
    const { runId } = await client.conn.sendRequest(StartRunRequest, { uri: client.uriOf(w.promptPath), kind: 'evolve' });
    const end = await client.waitFor(() => terminal(client, runId), 'run/finished');
    expect(end.type).toBe('run/finished');
    expect(asked).toBeGreaterThan(0);
    expect(fake.calls.length).toBe(asked);
  });
});
