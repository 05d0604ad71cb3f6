// The best program of a code search as a suggestion, through the built server and the run daemon:
// the search offers each new best as it commits it, and once done waits for the answer to the last
// one (its status says so); Accept writes the whole program with a versioned workspace/applyEdit,
// the frozen code outside the EVOLVE-BLOCK byte for byte, and records where the lines came from;
// the user's edit made meanwhile is kept (the suggestion re-bases onto it).
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TextDocumentEdit } from 'vscode-languageserver-protocol';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { frozenSegments, parseBlocks } from '../../src/core/code/blocks';
import { readProvenance } from '../../src/core/journal/provenance';
import { currentOwner, isOwnerAlive } from '../../src/node/process';
import { NodeFiles } from '../../src/node/files';
import { AcceptSuggestionRequest, StartRunRequest } from '../../src/protocol/lsp';
import { journal } from './evolveCli';
import { PROGRAM, searchWorkspace } from './searchWorkspace';
import { SERVER, TestClient } from './serverHarness';

beforeAll(() => {
  if (!existsSync(SERVER)) execSync('npm run build', { stdio: 'inherit' });
});

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const frozen = (text: string) => frozenSegments(text, parseBlocks(text));

/** A search of step.mjs, opened in the editor, run until it is done and waits for the answer to its best. */
async function searchWaitingForYou() {
  const ws = searchWorkspace();
  const fake = await startFakeServer({});
  cleanups.push(() => fake.close());
  const client = await TestClient.start({ folders: [ws.dir], settings: { provider: 'openai', trusted: true, baseURL: fake.url } });
  cleanups.push(() => client.stop());
  const uri = await client.open(ws.program, 'javascript');
  const { runId } = await client.conn.sendRequest(StartRunRequest, { kind: 'search', uri, overrides: { proposals: 6 } });
  const { pid } = JSON.parse(readFileSync(join(ws.dir, '.ratchet', 'runs', runId, 'lock.json'), 'utf8')) as { pid: number };
  cleanups.push(() => {
    if (isOwnerAlive({ ...currentOwner(), pid }) === true) process.kill(pid, 'SIGKILL');
  });
  const waiting = await client.waitFor(() => client.statusesOf(runId).find((s) => s.state === 'waiting-for-you'), 'the done search to wait for you', 120_000);
  const pending = client.suggestions.filter((s) => s.runId === runId && s.status === 'pending').at(-1)!;
  return { ws, client, uri, runId, waiting, pending };
}

describe('the best program of a code search in the editor', () => {
  it('waits, once done, for the answer to its best; Accept writes the whole program, frozen code intact, and records its provenance', async () => {
    const { ws, client, uri, runId, waiting, pending } = await searchWaitingForYou();
    expect(waiting.line).toContain(pending.candidateId);
    // Its work-done progress (the status bar's spinner) ended with the work, before the answer.
    const progress = [...client.progress.values()].find((p) => p.values[0]?.title === 'Ratchet: Searching step.mjs')!;
    await client.waitFor(() => progress.values.at(-1)?.kind === 'end', 'the spinner to end while the search waits for you', 30_000);
    expect(client.statusesOf(runId).at(-1)?.state).toBe('waiting-for-you');
    expect(pending).toMatchObject({ uri, version: 1, baseText: PROGRAM });
    expect(pending.newText).not.toBe(PROGRAM);
    // Every best offered before it was withdrawn by the newer one, in the journal and in the editor.
    const offered = journal(ws.dir, runId).flatMap((e) => (e.type === 'suggestion' ? [e.candidateId] : []));
    expect(offered.at(-1)).toBe(pending.candidateId);
    const withdrawn = journal(ws.dir, runId).filter((e) => e.type === 'edit/rejected');
    expect(withdrawn).toEqual(offered.slice(0, -1).map((candidateId) => expect.objectContaining({ candidateId, by: 'run', reason: 'superseded' })));
    for (const id of offered.slice(0, -1)) expect(client.suggestions.filter((s) => s.candidateId === id).at(-1)?.status).toBe('dropped');

    expect(await client.conn.sendRequest(AcceptSuggestionRequest, { runId, candidateId: pending.candidateId })).toEqual({ outcome: 'applied' });
    const edit = client.edits.at(-1)!.edit.documentChanges![0]!;
    expect(TextDocumentEdit.is(edit) && edit.textDocument).toEqual({ uri, version: 1 });
    expect(client.text(uri)).toBe(pending.newText);
    expect(frozen(client.text(uri))).toEqual(frozen(PROGRAM));
    // The file on disk waits for the user's save, as with a prompt run's edit.
    expect(readFileSync(ws.program, 'utf8')).toBe(PROGRAM);

    const end = await client.waitFor(() => client.statusesOf(runId).find((s) => s.state === 'finished'), 'the search to finish', 60_000);
    expect(end.error).toBeUndefined();
    const events = journal(ws.dir, runId);
    expect(events.slice(-2)).toEqual([expect.objectContaining({ type: 'edit/applied', candidateId: pending.candidateId, by: 'user' }), expect.objectContaining({ type: 'run/finished' })]);
    const { records } = await readProvenance(new NodeFiles(), ws.dir, 'step.mjs');
    expect(records).toEqual([expect.objectContaining({ runId, runKind: 'search', candidateId: pending.candidateId, by: 'user', before: PROGRAM, after: pending.newText })]);
  }, 180_000);

  it('re-bases onto the user’s edit made while it waited, and Accept keeps both', async () => {
    const { client, uri, runId, pending } = await searchWaitingForYou();
    // Below the block, past the lines around the program's change that a re-base checks.
    const typed = `${client.text(uri)}export const NOTE = 'added while the search waited';\n`;
    await client.setText(uri, typed);
    const rebased = await client.waitFor(() => client.suggestions.find((s) => s.candidateId === pending.candidateId && s.version === 2), 'the re-based suggestion');
    expect(rebased).toMatchObject({ status: 'pending', baseText: typed, reason: 'Re-based onto your edit.' });
    expect(await client.conn.sendRequest(AcceptSuggestionRequest, { runId, candidateId: pending.candidateId })).toEqual({ outcome: 'applied' });
    expect(client.text(uri)).toBe(`${pending.newText}export const NOTE = 'added while the search waited';\n`);
    expect(frozen(client.text(uri))).toEqual(frozen(typed));
  }, 180_000);
});
