// A bad argument is refused before a run exists: `ratchet evolve` and `ratchet search` exit 2 with
// one sentence naming the flag or field, and leave no `.ratchet/runs/<id>` folder behind (#14).
// No endpoint is reachable here (the base URL is a closed port): a run that got as far as its
// journal would fail later and differently, so a clean exit 2 means the refusal came first.
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, runIds } from './evolveCli';
import { makeWorkspace } from './evolveWorkspace';

const scratch: string[] = [];
beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const NOWHERE = ['--base-url', 'http://127.0.0.1:9/v1', '--model', 'sim-agent'];

async function refused(args: string[], dir: string): Promise<string> {
  const r = await runCli(args);
  expect({ code: r.code, runs: runIds(dir), stdout: r.stdout }).toEqual({ code: 2, runs: [], stdout: '' });
  // One sentence on one line.
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  return r.stderr;
}

describe('ratchet evolve refuses bad arguments before creating a run', () => {
  const ws = makeWorkspace();
  scratch.push(ws.dir);
  it.each([
    [['--alpha', '0'], '--alpha (gate.alpha) must be a number between 0 and 1 (exclusive), got 0.'],
    [['--alpha', '1'], '--alpha (gate.alpha) must be a number between 0 and 1 (exclusive), got 1.'],
    [['--alpha', '-0.5'], '--alpha (gate.alpha) must be a number between 0 and 1 (exclusive), got -0.5.'],
    [['--budget-calls', '-1'], '--budget-calls must be a whole number, got "-1".'],
    // In range, but no dev set of this size can ever reach it: refused as such, not as a failed run.
    [['--alpha', '1e-300'], 'consecutive wins at α = 1e-300'],
  ])('%j', async (flags, message) => {
    const stderr = await refused(['evolve', ws.promptPath, '-w', ws.dir, ...NOWHERE, ...flags], ws.dir);
    expect(stderr).toContain(message);
  });

  it('a scored gate on a run without labels or scorer', async () => {
    const rf = makeWorkspace({ labels: false });
    scratch.push(rf.dir);
    const stderr = await refused(['evolve', rf.promptPath, '-w', rf.dir, ...NOWHERE, '--gate', 'pace+'], rf.dir);
    expect(stderr).toMatch(/task\.ratchet\.yaml:\d+:\d+: gate pace\+ compares scores, but the run spec has no scorer/);
  });
});

describe('ratchet search refuses bad arguments before creating a run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-badargs-'));
  scratch.push(dir);
  const program = join(dir, 'step.mjs');
  writeFileSync(program, ['export function step() {', '  // EVOLVE-BLOCK-START', '  return 0.3;', '  // EVOLVE-BLOCK-END', '}', ''].join('\n'));
  writeFileSync(`${program}.ratchet.yaml`, ['kind: code', 'evaluator:', '  command: node evaluate.mjs {program} {results}', 'models:', '  proposer: { model: sim-proposer }', ''].join('\n'));
  it.each([
    [['--alpha', '0'], '--alpha (gate.alpha) must be a number between 0 and 1 (exclusive), got 0.'],
    [['--proposals', '0'], '--proposals must be a whole number of at least 1, got "0".'],
    [['--islands', '0'], '--islands must be a whole number of at least 1, got "0".'],
    [['--gate', 'pace-rf'], "option '--gate <gate>' argument 'pace-rf' is invalid"],
  ])('%j', async (flags, message) => {
    const r = await runCli(['search', program, '-w', dir, '--base-url', 'http://127.0.0.1:9/v1', ...flags]);
    expect({ code: r.code, runs: runIds(dir) }).toEqual({ code: 2, runs: [] });
    expect(r.stderr).toContain(message);
  });
});

describe('-w naming no folder is refused, and no folder is created for it', () => {
  const ws = makeWorkspace();
  scratch.push(ws.dir);
  const missing = join(ws.dir, 'no', 'such', 'dir');
  it.each([
    ['evolve', ws.promptPath, ...NOWHERE],
    ['gen-data', ws.promptPath, ...NOWHERE],
    ['search', join(ws.dir, 'step.mjs'), ...NOWHERE.slice(0, 2)],
    ['runs', 'show', 'r1'],
  ])('%s', async (...command) => {
    const r = await runCli([...command, '-w', missing]);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
    expect(r.stderr).toBe(`ratchet: --workspace ${missing}: there is no folder ${missing}; pass an existing folder (the one that holds, or will hold, .ratchet/), or create it first.\n`);
    expect(existsSync(join(ws.dir, 'no'))).toBe(false);
  });
});

describe('a prompt or dataset that is not UTF-8 is refused with its file and byte offset', () => {
  it.each([
    ['the prompt', 'task.prompt.md', '---\ndescription: caf\xe9\n---\nQuestion: {{question}}\n', 2, 20],
    ['the dataset', 'data/items.jsonl', '{"id":"q1","question":"What is 1 plus 1?","expected":2}\n{"id":"q2","question":"Caf\xe9?","expected":3}\n', 2, 82],
  ])('%s', async (_, name, latin1, line, offset) => {
    const ws = makeWorkspace();
    scratch.push(ws.dir);
    const path = join(ws.dir, name);
    writeFileSync(path, Buffer.from(latin1, 'latin1'));
    const stderr = await refused(['evolve', ws.promptPath, '-w', ws.dir, ...NOWHERE], ws.dir);
    expect(stderr).toContain(`${path}:${line}: byte ${offset} (0xE9) is not UTF-8`);
  });
});
