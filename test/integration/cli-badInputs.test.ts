// The bad-input corpus (test/fixtures/bad-inputs/manifest.ts) through the built CLI (#14): each case
// exits with its code and one line naming its file, line and field, within a time limit (a named
// pipe used to hang the CLI for good), and writes nothing — the workspace is byte for byte what it
// was, no run folder, no cache. Cases run a few at a time before the assertions, each in its own
// copy of a valid workspace; the bases themselves are run too, to show they get past their inputs.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { execFileSync, execSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASES } from '../fixtures/bad-inputs/manifest';
import type { BadInputCase, FileSpec } from '../fixtures/bad-inputs/manifest';
import { BASE_ARGS, writeBase } from '../fixtures/bad-inputs/workspaces';
import type { Base } from '../fixtures/bad-inputs/workspaces';
import { CLI, inBatches } from './evolveCli';
import { SCRATCH } from './evolveWorkspace';

/**
 * Past this a case counts as hung and is killed (SIGKILL: a hung CLI ignored SIGTERM). A case
 * takes well under a second of CPU; the margin is for a machine shared by many test runs.
 */
const CASE_TIMEOUT_MS = 60_000;
const FIXTURES = resolve(__dirname, '../fixtures/bad-inputs');

interface Outcome {
  ws: string;
  code: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  before: Map<string, string>;
  after: Map<string, string>;
  /** Files the CLI wrote or changed that hold the case's secret. */
  leaks: string[];
}

const scratch = mkdtempSync(join(SCRATCH, 'ratchet-badinputs-'));
const outcomes = new Map<BadInputCase, Outcome>();

function writeCaseFile(ws: string, name: string, spec: FileSpec): void {
  const file = join(ws, name);
  rmSync(file, { recursive: true, force: true });
  if (typeof spec !== 'string' && 'remove' in spec) return;
  mkdirSync(dirname(file), { recursive: true });
  if (typeof spec === 'string') writeFileSync(file, spec);
  else if ('fifo' in spec) execFileSync('mkfifo', [file]);
  else if ('symlink' in spec) symlinkSync(spec.symlink, file);
  else if ('dir' in spec) mkdirSync(file);
  else if ('sparse' in spec) {
    writeFileSync(file, '');
    truncateSync(file, spec.sparse);
  } else if ('fixture' in spec) writeFileSync(file, readFileSync(join(FIXTURES, spec.fixture)));
  else writeFileSync(file, `${spec.head ?? ''}${spec.fill.repeat(spec.times)}${spec.tail ?? ''}`);
}

/** Every entry under `dir` with what it is: a file's content hash, a link's target, or its kind. Never opens a pipe. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    const abs = join(dir, rel);
    const st = lstatSync(abs);
    if (st.isSymbolicLink()) out.set(rel, `link ${readlinkSync(abs)}`);
    else if (st.isFIFO()) out.set(rel, 'fifo');
    else if (st.isDirectory()) {
      out.set(rel, 'dir');
      for (const name of readdirSync(abs)) walk(rel === '' ? name : join(rel, name));
    } else if (st.size > 1 << 30 || st.blocks * 512 < st.size) out.set(rel, `sparse ${st.size} ${st.mtimeMs}`);
    else out.set(rel, createHash('sha256').update(readFileSync(abs)).digest('hex'));
  };
  walk('');
  return out;
}

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: 'test-key', ...extra };
  for (const name of ['RATCHET_MAX_FILE_MB', 'RATCHET_MAX_LINE_MB', 'OPENAI_BASE_URL', 'RATCHET_MODEL']) if (!(name in extra)) delete env[name];
  return env;
}

function runCase(args: string[], opts: { ws: string; stdin?: string; env?: Record<string, string> }): Promise<Omit<Outcome, 'ws' | 'before' | 'after' | 'leaks'>> {
  const argv = args.map((a) => a.replaceAll('{ws}', opts.ws));
  const stdinFd = opts.stdin === undefined ? undefined : openSync(opts.stdin.replaceAll('{ws}', opts.ws), 'r');
  const child = spawn(process.execPath, [CLI, ...argv], {
    cwd: opts.ws,
    env: cleanEnv(opts.env),
    stdio: [stdinFd ?? 'ignore', 'pipe', 'pipe'],
    timeout: CASE_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
  if (stdinFd !== undefined) closeSync(stdinFd);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((res) => child.on('close', (code, signal) => res({ code, timedOut: signal === 'SIGKILL', stdout, stderr })));
}

function workspace(base: Base, files: Record<string, FileSpec> = {}): string {
  const ws = mkdtempSync(join(scratch, 'case-'));
  writeBase(base, ws);
  for (const [name, spec] of Object.entries(files)) writeCaseFile(ws, name, spec);
  return ws;
}

async function run(c: BadInputCase): Promise<void> {
  const ws = workspace(c.base, c.files);
  const before = snapshot(ws);
  const args = [...(c.args ?? BASE_ARGS[c.base]!), ...(c.extraArgs ?? [])];
  const r = await runCase(args, { ws, ...(c.stdin ? { stdin: c.stdin } : {}), ...(c.env ? { env: c.env } : {}) });
  const after = snapshot(ws);
  const written = [...after].filter(([rel, what]) => before.get(rel) !== what && what.length === 64).map(([rel]) => rel);
  const leaks = c.secret === undefined ? [] : written.filter((rel) => readFileSync(join(ws, rel), 'utf8').includes(c.secret!));
  outcomes.set(c, { ...r, ws, before, after, leaks });
  // The giants are not kept around while the other cases run.
  if (c.files && Object.values(c.files).some((f) => typeof f === 'object' && ('fill' in f || 'sparse' in f))) {
    for (const [name, f] of Object.entries(c.files)) if (typeof f === 'object' && ('fill' in f || 'sparse' in f)) rmSync(join(ws, name));
  }
}

beforeAll(async () => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
  await inBatches(
    CASES.filter((c) => c.pending === undefined).map((c) => () => run(c)),
    4,
  );
}, 600_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the bad-input corpus', () => {
  it('has at least 60 cases, each named once within its area', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    const keys = CASES.map((c) => `${c.area}: ${c.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  for (const c of CASES) {
    const title = `${c.area}: ${c.name}`;
    if (c.pending !== undefined) {
      it.skip(`${title} (pending: ${c.pending})`, () => undefined);
      continue;
    }
    it(title, () => {
      const o = outcomes.get(c)!;
      expect(o.timedOut, `still running after ${CASE_TIMEOUT_MS / 1000} s`).toBe(false);
      if (c.secret !== undefined) {
        // A run may start here (and fail on the closed port); what it wrote and said must not hold the secret.
        expect({ code: o.code, leaks: o.leaks }).toEqual({ code: c.exit, leaks: [] });
        expect(o.stdout + o.stderr).not.toContain(c.secret);
        return;
      }
      expect({ code: o.code, stdout: o.stdout }).toEqual({ code: c.exit, stdout: '' });
      // One sentence on one line, from the CLI, never a stack trace.
      expect(o.stderr).toMatch(/^ratchet: [^\n]+\n$/);
      const { file, line, field } = c.names;
      if (file === 'stdin') expect(o.stderr).toMatch(/outcomes/);
      else if (file !== undefined) expect(o.stderr).toContain(join(o.ws, file));
      if (line !== undefined) {
        const at = file === 'stdin' || file === undefined ? '' : escape(join(o.ws, file));
        expect(o.stderr).toMatch(new RegExp(`${at}(?::${line}:|.* line ${line}\\b)`));
      }
      if (field !== undefined) expect(o.stderr).toContain(field);
      if (c.says) expect(o.stderr).toMatch(c.says);
      // Nothing written: every file, link, pipe and folder as it was, so no run folder and no cache.
      expect(o.after).toEqual(o.before);
    });
  }
});

// Each run fails on its first call to the closed port (--max-failures 1), after its inputs were taken.
describe('the valid workspaces the cases start from get past their inputs', () => {
  it('evolve: the run starts (and fails on the closed port)', async () => {
    const ws = workspace('prompt');
    const r = await runCase(BASE_ARGS.prompt!, { ws });
    expect(r.code).toBe(2);
    expect(readdirSync(join(ws, '.ratchet', 'runs'))).toHaveLength(1);
  });

  it('search: the run starts', async () => {
    const ws = workspace('search');
    const r = await runCase(BASE_ARGS.search!, { ws });
    // The proposer's one failed call ends it (--max-failures 1), the endpoint named.
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/127\.0\.0\.1/);
    // Nothing said about the program file (the models line names its sidecar as where the model came from).
    expect(r.stderr.replace(/^models: .*$/m, '')).not.toMatch(/step\.mjs/);
    expect(readdirSync(join(ws, '.ratchet', 'runs'))).toHaveLength(1);
  });

  it('gate: a well-formed stream is audited', async () => {
    const ws = workspace('empty', { 'o.jsonl': '{"id": "a", "incumbent": 0, "candidate": 1}\n' });
    const r = await runCase(['gate', 'pace+'], { ws, stdin: '{ws}/o.jsonl' });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: expect.not.stringMatching(/outcomes line/) });
  });
});
