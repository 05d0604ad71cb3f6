// Suggest mode through the built server: a gated edit waits for the user; Accept writes it with a
// versioned workspace/applyEdit; a document the user changed is never written over (stale), or
// the edit is re-based onto it when it applies cleanly; Reject is recorded by the engine.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TextDocumentEdit } from 'vscode-languageserver-protocol';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { isTerminal } from '../../src/core/journal/eventClasses';
import { AcceptSuggestionRequest, CancelRunRequest, RatchetCommands, RejectSuggestionRequest, StartRunRequest } from '../../src/protocol/lsp';
import type { SuggestionState } from '../../src/protocol/lsp';
import { makeWorkspace, PROMPT_BODY, scenarioFor } from './evolveWorkspace';
import { SERVER, TestClient } from './serverHarness';

beforeAll(() => {
  if (!existsSync(SERVER)) execSync('npm run build', { stdio: 'inherit' });
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Seed 3 with the real edit first: the gate commits c1, which then waits for the user. */
async function pendingSuggestion() {
  const w = makeWorkspace({ seed: 3, mode: 'suggest', candidates: 3 });
  const fake = await startFakeServer({ scenario: scenarioFor(w, { seed: 3, gainAt: 1 }) });
  cleanups.push(() => fake.close());
  const client = await TestClient.start({ folders: [w.dir], settings: { provider: 'openai', trusted: true, baseURL: fake.url } });
  cleanups.push(() => client.stop());
  const uri = await client.open(w.promptPath);
  const { runId } = await client.conn.sendRequest(StartRunRequest, { uri, kind: 'evolve' });
  cleanups.push(async () => {
    await client.conn.sendRequest(CancelRunRequest, { runId });
    await client.waitFor(() => client.runEvents(runId).some(isTerminal), 'the run to end');
  });
  const pending = await client.waitFor(() => client.suggestions.find((s) => s.status === 'pending'), 'a pending suggestion');
  return { w, client, uri, runId, pending };
}

const latest = (c: TestClient, candidateId: string) => c.suggestions.filter((s) => s.candidateId === candidateId).at(-1);

describe('suggest mode over LSP', () => {
  it('Accept applies the edit with workspace/applyEdit at the version it was computed for', async () => {
    const { w, client, uri, runId, pending } = await pendingSuggestion();
    const before = readFileSync(w.promptPath, 'utf8');
    expect(pending).toMatchObject({ runId, candidateId: 'c1', uri, version: 1, baseText: before });
    expect(pending.newText).toContain('<!-- edit:1 -->');
    // The range and replacement reproduce newText from the document.
    expect(applySpan(pending)).toBe(pending.newText);

    const lenses = (await client.codeLenses(uri)) ?? [];
    expect(lenses.find((l) => l.command?.command === RatchetCommands.acceptSuggestion)?.command?.arguments).toEqual([uri, runId, 'c1']);

    expect(await client.conn.sendRequest(AcceptSuggestionRequest, { runId, candidateId: 'c1' })).toEqual({ outcome: 'applied' });
    const sent = client.edits.at(-1)!.edit;
    const edit = sent.documentChanges![0]!;
    expect(TextDocumentEdit.is(edit) && edit.textDocument).toEqual({ uri, version: 1 });
    // One edit, over the span the Accept lens sits in, annotated so that VS Code applies it as it is
    // (it drops the lens with the edit) and asks no confirmation (a refactoring preview otherwise).
    expect(TextDocumentEdit.is(edit) && edit.edits).toEqual([expect.objectContaining({ range: pending.range, newText: pending.replacement, annotationId: expect.any(String) })]);
    const acceptLens = lenses.find((l) => l.command?.command === RatchetCommands.acceptSuggestion)!;
    expect(offsetIn(pending.baseText, acceptLens.range.end)).toBeGreaterThan(offsetIn(pending.baseText, acceptLens.range.start));
    expect(offsetIn(pending.baseText, acceptLens.range.start)).toBeGreaterThanOrEqual(offsetIn(pending.baseText, pending.range.start));
    expect(offsetIn(pending.baseText, acceptLens.range.end)).toBeLessThanOrEqual(offsetIn(pending.baseText, pending.range.end));
    expect(Object.values(sent.changeAnnotations ?? {})).toEqual([expect.objectContaining({ needsConfirmation: false })]);
    expect(client.text(uri)).toBe(pending.newText);
    // The front matter came through untouched, and the file on disk waits for the user's save.
    expect(client.text(uri).startsWith('---\ndescription: arithmetic\n---\n')).toBe(true);
    expect(readFileSync(w.promptPath, 'utf8')).toBe(before);
    await client.waitFor(() => client.runEvents(runId).find((e) => e.type === 'edit/applied'), 'edit/applied');
    expect(client.runEvents(runId).find((e) => e.type === 'edit/applied')).toMatchObject({ candidateId: 'c1', by: 'user' });
    expect(latest(client, 'c1')?.status).toBe('applied');
  });

  it('Accept takes the Accept and Reject lenses away at once, before the run daemon has the edit written', async () => {
    const { client, uri, runId } = await pendingSuggestion();
    const release = client.parkEdits();
    const refreshes = client.lensRefreshes;
    const accepted = client.conn.sendRequest(AcceptSuggestionRequest, { runId, candidateId: 'c1' });
    // The write waits in the editor: the answer went to the engine and back, the suggestion is still pending.
    await client.waitFor(() => client.edits.length > 0, 'the edit sent to the editor');
    expect(latest(client, 'c1')?.status).toBe('pending');
    // The lens refresh came first (one connection, in order), and the lenses offer no answer now.
    expect(client.lensRefreshes).toBeGreaterThan(refreshes);
    const commands = ((await client.codeLenses(uri)) ?? []).map((l) => l.command?.command);
    expect(commands).not.toContain(RatchetCommands.acceptSuggestion);
    expect(commands).not.toContain(RatchetCommands.rejectSuggestion);
    expect(commands).toContain(RatchetCommands.evolve);
    release();
    expect(await accepted).toEqual({ outcome: 'applied' });
    expect(latest(client, 'c1')?.status).toBe('applied');
  });

  it('an edit by the user where the suggestion changes the text makes it stale; their text survives', async () => {
    const { client, uri, runId } = await pendingSuggestion();
    const typed = client.text(uri).replace('End with "The answer is N".', 'End with the number only.');
    await client.setText(uri, typed);
    const stale = await client.waitFor(() => (latest(client, 'c1')?.status === 'stale' ? latest(client, 'c1') : undefined), 'stale');
    expect(stale.reason).toContain('not applied');
    expect(await client.conn.sendRequest(AcceptSuggestionRequest, { runId, candidateId: 'c1' })).toEqual({ outcome: 'stale' });
    expect(client.edits).toEqual([]);
    expect(client.text(uri)).toBe(typed);
    // The engine is told: the edit did not land, and it carries on from the previous incumbent.
    await client.waitFor(() => client.runEvents(runId).find((e) => e.type === 'log' && e.message.includes('c1')), 'the engine log line');
    expect(client.runEvents(runId).some((e) => e.type === 'edit/applied')).toBe(false);
  });

  it('a version that moved between the check and the write is refused by the editor, and reported stale', async () => {
    const { client, uri, runId } = await pendingSuggestion();
    const typed = `${client.text(uri)}One more line.\n`;
    client.typeUnsent(uri, typed);
    expect(await client.conn.sendRequest(AcceptSuggestionRequest, { runId, candidateId: 'c1' })).toEqual({ outcome: 'stale' });
    const sent = client.edits.map((e) => e.edit.documentChanges![0]!);
    expect(sent.map((e) => TextDocumentEdit.is(e) && e.textDocument.version)).toEqual([1]);
    expect(client.text(uri)).toBe(typed);
    expect(latest(client, 'c1')?.status).toBe('stale');
  });

  it('an edit by the user elsewhere re-bases the suggestion onto their text, and Accept keeps both', async () => {
    const { client, uri, runId, pending } = await pendingSuggestion();
    const typed = client.text(uri).replace('description: arithmetic', 'description: arithmetic, checked');
    await client.setText(uri, typed);
    const rebased = await client.waitFor(() => client.suggestions.find((s) => s.candidateId === 'c1' && s.version === 2), 're-based suggestion');
    expect(rebased).toMatchObject({ status: 'pending', baseText: typed, reason: 'Re-based onto your edit.' });
    expect(await client.conn.sendRequest(AcceptSuggestionRequest, { runId, candidateId: 'c1' })).toEqual({ outcome: 'applied' });
    const edit = client.edits.at(-1)!.edit.documentChanges![0]!;
    expect(TextDocumentEdit.is(edit) && edit.textDocument.version).toBe(2);
    expect(client.text(uri)).toBe(pending.newText.replace('description: arithmetic', 'description: arithmetic, checked'));
  });

  it('Reject leaves the document alone and the engine records the rejection', async () => {
    const { client, uri, runId, pending } = await pendingSuggestion();
    expect(await client.conn.sendRequest(RejectSuggestionRequest, { runId, candidateId: 'c1' })).toEqual({});
    await client.waitFor(() => client.runEvents(runId).find((e) => e.type === 'edit/rejected'), 'edit/rejected');
    expect(client.runEvents(runId).find((e) => e.type === 'edit/rejected')).toMatchObject({ candidateId: 'c1', by: 'user' });
    expect(client.edits).toEqual([]);
    expect(client.text(uri)).toBe(pending.baseText);
    expect(client.text(uri)).toContain(PROMPT_BODY);
    expect(latest(client, 'c1')?.status).toBe('rejected');
  });

  it('no spinner while the run waits for the answer: its progress ends, and begins again when the run goes on', async () => {
    const { client, runId } = await pendingSuggestion();
    const evolving = () => [...client.progress.values()].filter((p) => p.values[0]?.kind === 'begin' && p.values[0].title?.startsWith('Ratchet: Evolving'));
    await client.waitFor(() => client.statusesOf(runId).some((s) => s.state === 'waiting-for-you'), 'the run to wait for the answer');
    await client.waitFor(() => (evolving().length === 1 && evolving()[0]!.values.at(-1)?.kind === 'end' ? true : undefined), 'the progress to end while the run waits');
    expect(await client.conn.sendRequest(RejectSuggestionRequest, { runId, candidateId: 'c1' })).toEqual({});
    // The run tests its next candidates: a progress says so again, and ends with the run.
    await client.waitFor(() => client.runEvents(runId).some(isTerminal), 'the run to end');
    await client.waitFor(() => (evolving().length === 2 && evolving().every((p) => p.values.at(-1)?.kind === 'end') ? true : undefined), 'a second progress, ended with the run');
    expect(client.statusesOf(runId).filter((s) => s.state === 'waiting-for-you').length).toBeGreaterThan(0);
  });
});

function offsetIn(text: string, p: { line: number; character: number }): number {
  return text
    .split('\n')
    .slice(0, p.line)
    .reduce((n, l) => n + l.length + 1, p.character);
}

function applySpan(s: SuggestionState): string {
  return s.baseText.slice(0, offsetIn(s.baseText, s.range.start)) + s.replacement + s.baseText.slice(offsetIn(s.baseText, s.range.end));
}
