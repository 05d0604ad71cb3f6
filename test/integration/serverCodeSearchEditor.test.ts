// A program with EVOLVE-BLOCK markers through the built language server, as the editor sees it:
// its lenses (Start Code Search and Test Evaluator when a search is set up, Configure Code Search
// when not, the reason and Manage Workspace Trust in Restricted Mode), its marker Problems as the
// user types, and Test Evaluator on the examples' seed programs — the parsed result of a good
// evaluator, the exact contract violation of a broken one — run in the sandbox.
import { execSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { isOfferEvent } from '../../src/core/code/bestOffer';
import { fromRatchetOutput } from '../../src/core/code/evaluation';
import { RatchetCommands, StartRunRequest, TestEvaluatorRequest } from '../../src/protocol/lsp';
import { isOver } from '../../src/core/journal/runStatus';
import type { LiveRunStatus } from '../../src/core/journal/runStatus';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { journal } from './evolveCli';
import { searchWorkspace } from './searchWorkspace';
import type { ServerSettings } from '../../src/protocol/lsp';
import { MANAGE_TRUST_COMMAND } from '../../src/server/codeSearchLens';
import { SERVER, TestClient } from './serverHarness';

beforeAll(() => {
  if (!existsSync(SERVER)) execSync('npm run build', { stdio: 'inherit' });
});

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const EXAMPLES = resolve(__dirname, '../../examples/code');

/** A copy of an example task folder (runs write .ratchet/ beside it). */
function example(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-code-editor-'));
  cpSync(join(EXAMPLES, name), dir, { recursive: true });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A client that rejects each best program a search offers (these tests are about the run's status, not the file). */
async function client(dir: string, settings: Partial<ServerSettings> = {}): Promise<TestClient> {
  const c = await TestClient.start({ folders: [dir], settings: { provider: 'openai', trusted: true, ...settings }, answer: 'reject' });
  cleanups.push(() => c.stop());
  return c;
}

const lensesOf = async (c: TestClient, uri: string) => ((await c.codeLenses(uri)) ?? []).map((l) => [l.command?.command, l.range.start.line, l.command?.title]);

describe('Test Evaluator', () => {
  it('runs a good evaluator once on the seed and answers its parsed result (circle packing)', async () => {
    const dir = example('circle-packing');
    const c = await client(dir);
    const uri = await c.open(join(dir, 'pack.mjs'), 'javascript');
    const lenses = await lensesOf(c, uri);
    expect(lenses.map(([command]) => command)).toEqual([RatchetCommands.startCodeSearch, RatchetCommands.testEvaluator]);
    // At the first marker line.
    expect(lenses[0]![1]).toBe(
      c
        .text(uri)
        .split('\n')
        .findIndex((l) => l.includes('EVOLVE-BLOCK-START')),
    );

    const result = await c.conn.sendRequest(TestEvaluatorRequest, { uri });
    expect(result).toMatchObject({ command: 'node evaluate.mjs {program}', correct: true, score: 1.9169561144739518 });
    expect(result.error).toBeUndefined();
  });

  it('answers the exact contract violation of a broken evaluator, with what it printed', async () => {
    const dir = example('circle-packing');
    writeFileSync(join(dir, 'broken.mjs'), "console.log('Score: 42');\n");
    writeFileSync(join(dir, 'pack.mjs.ratchet.yaml'), 'kind: code\nevaluator:\n  command: node broken.mjs {program} {results}\n  supportFiles: [broken.mjs]\n  timeoutSeconds: 30\n');
    const c = await client(dir);
    const uri = await c.open(join(dir, 'pack.mjs'), 'javascript');
    const result = await c.conn.sendRequest(TestEvaluatorRequest, { uri });
    expect(result.correct).toBe(false);
    // The evaluator contract's own words for this output, unchanged on the way to the editor.
    expect(result.error).toBe(fromRatchetOutput('Score: 42\n').error);
    expect(result.error).toContain('no JSON object');
    expect(result.output).toContain('Score: 42');
  });

  it('runs a ShinkaEvolve task unchanged: evaluate.py beside the program, no spec', async () => {
    const dir = example('shinka-sorting-network');
    const c = await client(dir);
    const uri = await c.open(join(dir, 'initial.py'), 'python');
    expect((await lensesOf(c, uri)).map(([command]) => command)).toEqual([RatchetCommands.startCodeSearch, RatchetCommands.testEvaluator]);
    const result = await c.conn.sendRequest(TestEvaluatorRequest, { uri });
    expect(result).toMatchObject({ correct: true, score: 0.6444444444444445 });
    expect(result.command).toBeUndefined();
  });

  it('is refused in Restricted Mode, where the lens says why and offers Manage Workspace Trust', async () => {
    const dir = example('circle-packing');
    const c = await client(dir, { trusted: false });
    const uri = await c.open(join(dir, 'pack.mjs'), 'javascript');
    const lenses = await lensesOf(c, uri);
    expect(lenses.map(([command]) => command)).toEqual([MANAGE_TRUST_COMMAND]);
    expect(lenses[0]![2]).toContain('trust the workspace');
    await expect(c.conn.sendRequest(TestEvaluatorRequest, { uri })).rejects.toThrow(/trust the workspace first/);
  });
});

describe('EVOLVE-BLOCK markers as you type', () => {
  it('puts a pairing error at its line, clears it once fixed, and warns about a spec’d file with no markers', async () => {
    const dir = example('circle-packing');
    const c = await client(dir);
    const path = join(dir, 'pack.mjs');
    const uri = await c.open(path, 'javascript');
    const good = c.text(uri);
    const lines = good.split('\n');
    const endLine = lines.findIndex((l) => l.includes('EVOLVE-BLOCK-END'));
    const startLine = lines.findIndex((l) => l.includes('EVOLVE-BLOCK-START'));

    await c.setText(uri, lines.filter((_, i) => i !== endLine).join('\n'));
    const [unclosed] = await c.waitFor(() => (c.diagnostics.get(uri)?.length ?? 0) > 0 && c.diagnostics.get(uri), 'the unclosed START');
    expect(unclosed).toMatchObject({ severity: 1, range: { start: { line: startLine, character: 0 } }, message: 'EVOLVE-BLOCK-START is never closed by an EVOLVE-BLOCK-END' });
    // No search can start on it: the lens points at the Problems instead.
    expect((await lensesOf(c, uri))[0]![2]).toContain('Fix the EVOLVE-BLOCK markers');

    await c.setText(uri, good);
    await c.waitFor(() => c.diagnostics.get(uri)?.length === 0, 'the problem to clear');

    await c.setText(uri, lines.filter((l) => !l.includes('EVOLVE-BLOCK')).join('\n'));
    const [whole] = await c.waitFor(() => (c.diagnostics.get(uri)?.length ?? 0) > 0 && c.diagnostics.get(uri), 'the no-markers warning');
    expect(whole).toMatchObject({ severity: 2, range: { start: { line: 0 } } });
    expect(whole!.message).toContain('no EVOLVE-BLOCK-START / EVOLVE-BLOCK-END lines');
  });
});

describe('a running search’s status, as the status bar shows it', () => {
  it('carries the evaluator load: slots busy of the spec’s concurrency, evaluations run of the budget, none busy at the end', async () => {
    const ws = searchWorkspace();
    cleanups.push(() => rmSync(ws.dir, { recursive: true, force: true }));
    const fake = await startFakeServer({});
    cleanups.push(() => fake.close());
    const c = await client(ws.dir, { baseURL: fake.url });
    const { runId } = await c.conn.sendRequest(StartRunRequest, { kind: 'search', uri: c.uriOf(ws.program), overrides: { proposals: 4, evaluations: 40 } });
    const over = (s: LiveRunStatus | undefined) => s !== undefined && isOver(s);
    const end = await c.waitFor(() => over(c.statusesOf(runId).at(-1)) && c.statusesOf(runId).at(-1), 'the search to end', 120_000);
    expect(end.state, end.error).toBe('finished');
    const loads = c.statusesOf(runId).flatMap((s) => (s.evaluator ? [s.evaluator] : []));
    // The seed's evaluation alone starts and ends: at least two reports, each of concurrency 2 and the budget asked for.
    expect(loads.length).toBeGreaterThanOrEqual(2);
    for (const l of loads) {
      expect(l).toMatchObject({ slots: 2, budget: 40 });
      expect(l.busy).toBeGreaterThanOrEqual(0);
      expect(l.busy).toBeLessThanOrEqual(2);
    }
    expect(loads.some((l) => l.busy > 0)).toBe(true);
    // Evaluations only go up, and the last report has every slot free again.
    expect(loads.map((l) => l.runs)).toEqual([...loads.map((l) => l.runs)].sort((a, b) => a - b));
    expect(loads.at(-1)!.busy).toBe(0);
    // Each program the journal says was evaluated took at least one evaluator run.
    const events = journal(ws.dir, runId);
    expect(loads.at(-1)!.runs).toBeGreaterThanOrEqual(events.filter((e) => e.type === 'program/evaluated').length);
    // The spend the status bar shows is journaled after each proposal and each decision, the
    // proposer's calls counted, so it never reads 0 calls while proposals are paid for (the user's
    // answers to the best program come when they come, between any two events).
    const types = events.filter((e) => !isOfferEvent(e)).map((e) => e.type);
    const paidFor = ['candidate/proposed', 'proposal/failed', 'decision'];
    expect(types.filter((t) => t === 'cost/update').length).toBe(types.filter((t) => paidFor.includes(t)).length);
    types.forEach((t, i) => paidFor.includes(t) && expect(types[i + 1]).toBe('cost/update'));
    const spend = events.filter((e) => e.type === 'cost/update').at(-1);
    expect(spend).toMatchObject({ llmCalls: expect.any(Number) });
    expect((spend as { llmCalls: number }).llmCalls).toBeGreaterThan(0);
  }, 180_000);
});
