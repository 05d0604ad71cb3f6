// Diagnostics, code lenses and Configure through the built server: run-spec problems at the
// right range as the user types, dataset problems on the dataset file, stale problems cleared on
// edit, lenses by file state, and the sidecar template created through workspace/applyEdit.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validateRunSpecText } from '../../src/core/setup/spec';
import { CreateRunSpecRequest, RatchetCommands } from '../../src/protocol/lsp';
import { makeWorkspace } from './evolveWorkspace';
import { SERVER, TestClient } from './serverHarness';

beforeAll(() => {
  if (!existsSync(SERVER)) execSync('npm run build', { stdio: 'inherit' });
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const nonEmpty = <T>(xs: T[] | undefined) => (xs && xs.length > 0 ? xs : undefined);

async function client(folder: string) {
  const c = await TestClient.start({ folders: [folder], settings: { provider: 'openai', trusted: true } });
  cleanups.push(() => c.stop());
  return c;
}

describe('diagnostics', () => {
  it('an unknown key on line 3 of a run spec is reported at line 2 (zero-based) and cleared by the fix', async () => {
    const w = makeWorkspace({ seed: 1 });
    const sidecar = join(w.dir, 'task.ratchet.yaml');
    writeFileSync(sidecar, 'dataset: data/items.jsonl\nscorer: { type: numeric }\nbudgte: { candidates: 3 }\nmodels: { default: { model: sim-agent } }\n');
    const c = await client(w.dir);
    const uri = await c.open(sidecar, 'yaml');
    const diags = await c.waitFor(() => nonEmpty(c.diagnostics.get(uri)), 'diagnostics for the sidecar');
    const unknown = diags.find((d) => String(d.message).includes('budgte'));
    expect(unknown).toMatchObject({ severity: 1, source: 'ratchet', range: { start: { line: 2, character: 0 }, end: { line: 2, character: 6 } } });
    expect(unknown?.message).toContain('budget');

    await c.setText(uri, c.text(uri).replace('budgte', 'budget'));
    await c.waitFor(() => c.diagnostics.get(uri)?.every((d) => !String(d.message).includes('budgte')), 'the problem to clear');
  });

  it('a dataset item lacking a template variable is reported on the dataset file, at its line', async () => {
    const w = makeWorkspace({ seed: 1 });
    const dataset = join(w.dir, 'data', 'items.jsonl');
    const lines = w.items.map((it) => JSON.stringify({ id: it.id, question: it.question, expected: it.answer }));
    lines[4] = JSON.stringify({ id: 'q5', query: 'What is 1 plus 2?', expected: 3 });
    writeFileSync(dataset, `${lines.join('\n')}\n`);
    const c = await client(w.dir);
    await c.open(w.promptPath);
    const datasetUri = c.uriOf(dataset);
    const diags = await c.waitFor(() => nonEmpty(c.diagnostics.get(datasetUri)), 'diagnostics on the dataset');
    expect(diags[0]).toMatchObject({ severity: 1, range: { start: { line: 4 } } });
    expect(String(diags[0]!.message)).toContain('question');

    // Fixing the dataset and saving it clears the problem.
    lines[4] = JSON.stringify({ id: 'q5', question: 'What is 1 plus 2?', expected: 3 });
    writeFileSync(dataset, `${lines.join('\n')}\n`);
    const opened = await c.open(dataset, 'jsonl');
    await c.save(opened);
    await c.waitFor(() => c.diagnostics.get(datasetUri)?.length === 0, 'the dataset problem to clear');
  });

  it('a prompt that cannot work is a Problem on the prompt file, the same check the CLI refuses with', async () => {
    const w = makeWorkspace({ seed: 1 });
    writeFileSync(w.promptPath, '---\ndescription: arithmetic\n---\n\n');
    const c = await client(w.dir);
    const uri = await c.open(w.promptPath);
    const empty = await c.waitFor(() => nonEmpty(c.diagnostics.get(uri)), 'diagnostics on the empty prompt');
    expect(empty).toEqual([expect.objectContaining({ severity: 1, range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, message: expect.stringContaining('the prompt has no body') })]);

    // A body that uses no dataset field: a warning, and the empty-body error is gone on save.
    writeFileSync(w.promptPath, '---\ndescription: arithmetic\n---\nSolve it.\n');
    await c.setText(uri, '---\ndescription: arithmetic\n---\nSolve it.\n');
    await c.save(uri);
    const unused = await c.waitFor(() => nonEmpty(c.diagnostics.get(uri)?.filter((d) => String(d.message).includes('none of the dataset'))), 'the unused-fields warning');
    expect(unused[0]).toMatchObject({ severity: 2, range: { start: { line: 3 } } });
    expect(String(unused[0]!.message)).toContain('{{question}}');
    expect(c.diagnostics.get(uri)?.some((d) => String(d.message).includes('no body'))).toBe(false);
  });
});

describe('code lenses and Configure', () => {
  it('a prompt without a run spec offers Configure (and Generate Dev Set), which creates a sidecar the schema accepts; then Evolve and Evaluate', async () => {
    const w = makeWorkspace({ seed: 1 });
    const prompt = join(w.dir, 'fresh.prompt.md');
    writeFileSync(prompt, '---\ndescription: fresh\n---\nAnswer the question: {{question}}\nContext: {{context}}\n');
    const c = await client(w.dir);
    const uri = await c.open(prompt);
    const commands = async (u: string) => ((await c.codeLenses(u)) ?? []).map((l) => l.command?.command);
    expect(await commands(uri)).toEqual([RatchetCommands.configure, RatchetCommands.generateDevSet]);

    const result = await c.conn.sendRequest(CreateRunSpecRequest, { uri });
    expect(result).toEqual({ uri: c.uriOf(join(w.dir, 'fresh.ratchet.yaml')), created: true });
    const text = c.text(result.uri);
    expect(text).toContain('dataset: data/fresh.jsonl');
    expect(text).toContain('"question": "…", "context": "…"');
    expect(validateRunSpecText(join(w.dir, 'fresh.ratchet.yaml'), text).filter((d) => d.severity === 'error')).toEqual([]);

    // Configured: the prompt and its sidecar offer runs.
    writeFileSync(join(w.dir, 'fresh.ratchet.yaml'), text);
    expect(await commands(uri)).toEqual([RatchetCommands.evolve, RatchetCommands.evaluate]);
    expect(await commands(result.uri)).toEqual([RatchetCommands.evolve, RatchetCommands.evaluate]);
    // A second Configure leaves the existing sidecar alone.
    expect(await c.conn.sendRequest(CreateRunSpecRequest, { uri })).toEqual({ uri: result.uri, created: false });
  });

  it('the Evolve lens’s tooltip names each called role’s model and where it was chosen: a spec line, else the setting', async () => {
    const w = makeWorkspace({ seed: 1 });
    const sidecar = join(w.dir, 'task.ratchet.yaml');
    const c = await TestClient.start({ folders: [w.dir], settings: { provider: 'openai', trusted: true, models: { default: 'llama3.1' } } });
    cleanups.push(() => c.stop());
    const tooltip = async () => ((await c.codeLenses(c.uriOf(w.promptPath))) ?? []).find((l) => l.command?.command === RatchetCommands.evolve)?.command?.tooltip;
    await c.open(w.promptPath);
    expect(await tooltip()).toBe('Models: agent: sim-agent (task.ratchet.yaml:6) · proposer: sim-proposer (task.ratchet.yaml:7)');
    // The agent's entry names no model: the setting's default is what the run would call.
    writeFileSync(sidecar, readFileSync(sidecar, 'utf8').replace('agent: { model: sim-agent, temperature: 0 }', 'agent: { temperature: 0 }'));
    expect(await tooltip()).toBe('Models: agent: llama3.1 (setting ratchet.models.default) · proposer: sim-proposer (task.ratchet.yaml:7)');
  });

  it('a code file with an EVOLVE-BLOCK gets lenses at the marker line', async () => {
    const w = makeWorkspace({ seed: 1 });
    const code = join(w.dir, 'solver.py');
    writeFileSync(code, 'import math\n\n# EVOLVE-BLOCK-START\ndef solve(x):\n    return x\n# EVOLVE-BLOCK-END\n');
    const c = await client(w.dir);
    const uri = await c.open(code, 'python');
    const lenses = (await c.codeLenses(uri)) ?? [];
    expect(lenses.map((l) => [l.command?.command, l.range.start.line])).toEqual([[RatchetCommands.configureCodeSearch, 2]]);
  });
});
