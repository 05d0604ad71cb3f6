// Generate Dev Set through the built language server and its run daemon, against the fake
// OpenAI-compatible server (its challenger writes <question> blocks, its judge scores and orders):
// the lens on a prompt without a dataset, the files the run will write, a run that streams each
// round as a zero/round event and writes the dev set and the held-out split; an existing file
// refused before any call unless replaced; Cancel, after which no call is made and nothing is
// written; an untrusted workspace (a generation runs no workspace code); an input error located in its file.
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node';
import { parseDataset } from '../../src/core/data/dataset';
import { isTerminal } from '../../src/core/journal/eventClasses';
import type { EventOf } from '../../src/core/journal/events';
import type { RatchetErrorData } from '../../src/protocol/errors';
import { CancelRunRequest, DevSetPathsRequest, RatchetCommands, StartRunRequest } from '../../src/protocol/lsp';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { journal } from './evolveCli';
import { SERVER, TestClient, statusChanges } from './serverHarness';

beforeAll(() => {
  if (!existsSync(SERVER)) execSync('npm run build', { stdio: 'inherit' });
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const SPEC = ['models:', '  agent: { model: sim-agent }', '  validator: { model: sim-validator }', '  challenger: { model: sim-challenger }', 'seed: 5', 'concurrency: 4', ''].join('\n');

async function setup(o: { trusted?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-server-gendata-'));
  const prompt = join(dir, 'sums.prompt.md');
  writeFileSync(prompt, '---\ndescription: arithmetic word problems\n---\nYou solve arithmetic problems.\n\nQuestion: {{question}}\n\nEnd with "The answer is N".\n');
  writeFileSync(join(dir, 'sums.ratchet.yaml'), SPEC);
  const fake = await startFakeServer({ scenario: { seed: 3, agent: { baseAccuracy: 0.5, noise: 1 }, validator: { accuracy: 0.85, positionBias: 0.3, tieRate: 1 } }, latencyMs: 0 });
  cleanups.push(() => fake.close());
  const client = await TestClient.start({ folders: [dir], settings: { provider: 'openai', trusted: o.trusted ?? true, baseURL: fake.url } });
  cleanups.push(() => client.stop());
  return { dir, prompt, fake, client, uri: client.uriOf(prompt) };
}

const terminal = (c: TestClient, runId: string) => c.runEvents(runId).find(isTerminal);
const lensCommands = async (c: TestClient, uri: string) => ((await c.codeLenses(uri)) ?? []).map((l) => l.command?.command);

describe('Generate Dev Set over LSP', () => {
  it('is offered on a prompt without a dataset, runs in the daemon round by round, and writes the dev set and the held-out split', async () => {
    const { dir, fake, client, uri } = await setup();
    await client.open(join(dir, 'sums.prompt.md'));
    expect(await lensCommands(client, uri)).toEqual([RatchetCommands.evolve, RatchetCommands.evaluate, RatchetCommands.generateDevSet]);
    const lens = ((await client.codeLenses(uri)) ?? []).find((l) => l.command?.command === RatchetCommands.generateDevSet);
    expect(lens?.command?.tooltip).toMatch(/Writes sums\.dev\.jsonl and a held-out sums\.test\.jsonl\.$/);
    // Its sidecar offers it too (for its prompt).
    const sidecar = await client.open(join(dir, 'sums.ratchet.yaml'), 'yaml');
    expect(await lensCommands(client, sidecar)).toEqual([RatchetCommands.evolve, RatchetCommands.evaluate, RatchetCommands.generateDevSet]);
    const devUri = client.uriOf(join(dir, 'sums.dev.jsonl'));
    const testUri = client.uriOf(join(dir, 'sums.test.jsonl'));
    expect(await client.conn.sendRequest(DevSetPathsRequest, { uri })).toEqual({ dev: devUri, test: testUri, existing: [] });

    const started = await client.conn.sendRequest(StartRunRequest, { kind: 'gen-data', uri });
    expect(started).toEqual({ runId: expect.any(String), devSet: { dev: devUri, test: testUri, existing: [] } });
    const { runId } = started;
    expect((await client.waitFor(() => terminal(client, runId), 'run/finished', 60_000)).type).toBe('run/finished');
    const events = client.runEvents(runId);
    expect(events).toEqual(journal(dir, runId));
    const rounds = events.filter((e): e is EventOf<'zero/round'> & { seq: number } => e.type === 'zero/round');
    expect(rounds.map((r) => r.round)).toEqual([1, 2]);
    for (const r of rounds) expect(r.reliability.map((x) => x.type)).toEqual(['roleAsymmetry', 'amplification']);

    // The files hold the rounds' kept and held-out tasks, by the dataset loader's ids.
    const items = (file: string) =>
      parseDataset(file, readFileSync(file, 'utf8'))
        .items.map((i) => i.id)
        .sort();
    expect(items(join(dir, 'sums.dev.jsonl'))).toEqual(rounds.flatMap((r) => r.kept.map((t) => t.id)).sort());
    expect(items(join(dir, 'sums.test.jsonl'))).toEqual(rounds.flatMap((r) => r.heldOut.map((t) => t.id)).sort());

    // Its statuses are the journal's fold: the estimate first, each round, what it wrote.
    const statuses = await client.waitFor(() => client.statusesOf(runId).at(-1)?.state === 'finished' && client.statusesOf(runId), 'the finished status');
    expect(statuses).toEqual(statusChanges(runId, events));
    expect(statuses[1]!.line).toMatch(/^round 1 of 2: writing and judging tasks · estimate ≈ \d+ calls, /);
    const kept = rounds.reduce((n, r) => n + r.kept.length, 0);
    const held = rounds.reduce((n, r) => n + r.heldOut.length, 0);
    expect(statuses.at(-1)).toMatchObject({ kind: 'gen-data', generated: { rounds: 2, of: 2, dev: kept, test: held }, line: `${kept} dev tasks and ${held} held-out from 2 rounds` });
    const begin = [...client.progress.values()][0]!.values[0]!;
    expect(begin).toMatchObject({ title: 'Ratchet: Generating a dev set for sums.prompt.md', cancellable: true });

    // Now both files exist: a new generation is refused before any call, unless told to replace them.
    expect((await client.conn.sendRequest(DevSetPathsRequest, { uri })).existing).toEqual([devUri, testUri]);
    const calls = fake.calls.length;
    await expect(client.conn.sendRequest(StartRunRequest, { kind: 'gen-data', uri })).rejects.toThrow(/sums\.dev\.jsonl already exists/);
    expect(fake.calls.length).toBe(calls);
    const again = await client.conn.sendRequest(StartRunRequest, { kind: 'gen-data', uri, overrides: { replace: true } });
    expect((await client.waitFor(() => terminal(client, again.runId), 'the replacing run to finish', 60_000)).type).toBe('run/finished');
    // The same seed and prompt: every call answered from the response cache, the same dev set.
    expect(fake.calls.length).toBe(calls);
    expect(items(join(dir, 'sums.dev.jsonl'))).toEqual(rounds.flatMap((r) => r.kept.map((t) => t.id)).sort());
  });

  it('Cancel stops it: the journal says cancelled, no call is made after, nothing is written', async () => {
    const { dir, fake, client, uri } = await setup();
    // Every Solver answer is held, so the run is cancelled with its calls in flight, none answered.
    fake.inject({ kind: 'park', model: 'sim-agent', times: 10_000 });
    const { runId } = await client.conn.sendRequest(StartRunRequest, { kind: 'gen-data', uri });
    await fake.untilParked(1);
    expect(await client.conn.sendRequest(CancelRunRequest, { runId })).toEqual({ cancelled: true });
    const end = await client.waitFor(() => terminal(client, runId), 'run/cancelled', 10_000);
    expect(end.type).toBe('run/cancelled');
    expect(journal(dir, runId).at(-1)?.type).toBe('run/cancelled');
    await client.waitFor(() => client.statusesOf(runId).at(-1)?.state === 'cancelled', 'the cancelled status');
    const made = fake.calls.length;
    // Released now, the held answers go nowhere: the run abandoned them, and asks for nothing more.
    fake.releaseParked();
    await client.waitFor(() => fake.calls.every((c) => c.status !== undefined) || undefined, 'the calls in flight to be abandoned');
    expect(fake.calls.length).toBe(made);
    expect(fake.calls.filter((c) => c.fault === 'park').map((c) => c.status)).toEqual(Array.from({ length: fake.calls.filter((c) => c.fault === 'park').length }, () => 0));
    expect(existsSync(join(dir, 'sums.dev.jsonl'))).toBe(false);
    expect(existsSync(join(dir, 'sums.test.jsonl'))).toBe(false);
  });

  it('runs in an untrusted workspace as an evolve run without workspace code does: a generation executes none', async () => {
    const { dir, client, uri } = await setup({ trusted: false });
    const { runId } = await client.conn.sendRequest(StartRunRequest, { kind: 'gen-data', uri });
    expect((await client.waitFor(() => terminal(client, runId), 'run/finished', 60_000)).type).toBe('run/finished');
    expect(existsSync(join(dir, 'sums.dev.jsonl'))).toBe(true);
  });

  it('a prompt with nothing to fill is refused with its file, before a run exists', async () => {
    const { dir, client } = await setup();
    const flat = join(dir, 'flat.prompt.md');
    writeFileSync(flat, '---\ndescription: no input\n---\nSay something nice.\n');
    const uri = await client.open(flat);
    // Without a spec, Configure or a generation: the prompt has no dataset either way.
    expect(await lensCommands(client, uri)).toEqual([RatchetCommands.configure, RatchetCommands.generateDevSet]);
    const err = await client.conn.sendRequest(StartRunRequest, { kind: 'gen-data', uri }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ResponseError);
    expect((err as ResponseError<RatchetErrorData>).data).toEqual({ code: 'badInput', details: { file: flat } });
    expect((err as Error).message).toContain('has no template variable, so a generated task has nothing to fill');
  });
});
