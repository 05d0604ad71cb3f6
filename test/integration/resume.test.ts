// Resuming through the built CLI where a user would: in a copy of the workspace, against another
// endpoint, with the prompt file gone, with a flag that would change the run; and two runs started
// at once. The fake OpenAI-compatible server answers as a pure function of each request, so a
// second server with the same scenario gives the same answers as the first.
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { FakeServer } from '../fixtures/fakeOpenAI/server';
import { CLI, decisions, evolveThenKill, journal, runCli, runIds, startCli } from './evolveCli';
import { SCRATCH, makeWorkspace, scenarioFor } from './evolveWorkspace';
import type { Workspace } from './evolveWorkspace';

// Each test runs whole evolve runs through the built CLI: on a loaded two-core machine one can take
// minutes, so the deadline is generous (a deadline, never a timing under test).
vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const SEED = 5;
let original: Workspace;
let server: FakeServer;
let runId: string;
/** Every file of the original workspace, byte for byte, right after the kill. */
let originalFiles: Map<string, Buffer>;
let callsAfterKill: number;
const dirs: string[] = [];

beforeAll(async () => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
  // Per candidate, by name: the real edit at position 6 is then committed, so the resumed copy has an edit to write.
  original = makeWorkspace({ gate: 'pace+', seed: SEED, gateLines: ['schedule: per-candidate'] });
  dirs.push(original.dir);
  server = await startFakeServer({ scenario: scenarioFor(original, { seed: SEED, gainAt: 6 }), latencyMs: 30 });
  // --apply, so run.json's mode is autopilot and a resume that reached the wrong prompt file would write it.
  ({ runId } = await evolveThenKill(['evolve', original.promptPath, '--base-url', server.url, '-w', original.dir, '--apply'], original.dir));
  originalFiles = snapshot(original.dir);
  callsAfterKill = server.calls.length;
});

afterAll(async () => {
  await server?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A copy of the original workspace, as it was when the run was killed. */
function copyOfOriginal(): string {
  const dir = join(mkdtempSync(join(SCRATCH, 'ratchet-copy-')), 'ws');
  dirs.push(dir);
  cpSync(original.dir, dir, { recursive: true });
  return dir;
}

function snapshot(root: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(p.slice(root.length), readFileSync(p));
    }
  };
  walk(root);
  return out;
}

describe('resume in a copy of the workspace', () => {
  it('works on the copy, against another endpoint: its journal grows and its prompt gets the edit, the original is untouched', async () => {
    const copy = copyOfOriginal();
    const other = await startFakeServer({ scenario: scenarioFor(original, { seed: SEED, gainAt: 6 }) });
    try {
      const before = journal(copy, runId);
      expect(before.at(-1)?.type).not.toBe('run/finished');

      const r = await runCli(['runs', 'resume', runId, '-w', copy, '--base-url', other.url, '--apply']);
      expect(r.code, r.stderr).toBe(0);
      const after = journal(copy, runId);
      expect(after.at(-1)?.type).toBe('run/finished');
      expect(after.length).toBeGreaterThan(before.length);
      expect(after.slice(0, before.length)).toEqual(before);
      expect(decisions(after).slice(0, decisions(before).length)).toEqual(decisions(before));
      expect(readFileSync(join(copy, 'task.prompt.md'), 'utf8')).toContain('<!-- edit:6 -->');

      // Its calls went to the endpoint named on the command line, none to the run's own.
      expect(other.calls.length).toBeGreaterThan(0);
      expect(server.calls.length).toBe(callsAfterKill);
      // The original workspace, prompt and journal included, is byte for byte as the kill left it.
      expect(snapshot(original.dir)).toEqual(originalFiles);
    } finally {
      await other.close();
    }
  });

  it('refuses, naming the file and the run, when the prompt file is missing in that workspace, and writes nothing', async () => {
    const copy = copyOfOriginal();
    const prompt = join(copy, 'task.prompt.md');
    rmSync(prompt);
    const copyFiles = snapshot(copy);

    const r = await runCli(['runs', 'resume', runId, '-w', copy, '--base-url', server.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`ratchet: Cannot resume run ${runId}: its prompt file ${prompt} does not exist. Put the file back, or resume the run in the workspace folder that has it.\n`);
    expect(snapshot(copy)).toEqual(copyFiles);
    expect(snapshot(original.dir)).toEqual(originalFiles);
    expect(server.calls.length).toBe(callsAfterKill);
  });

  it('reports an endpoint that refuses as that, not as a divergence, and resumes once it answers', async () => {
    const copy = copyOfOriginal();
    const locked = await startFakeServer({ scenario: scenarioFor(original, { seed: SEED, gainAt: 6 }), apiKey: 'the-right-key' });
    try {
      const before = journal(copy, runId);
      const refused = await runCli(['runs', 'resume', runId, '-w', copy, '--base-url', locked.url]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(locked.url);
      expect(refused.stderr).toContain('401');
      expect(refused.stderr).not.toContain('diverged');
      // The endpoint failed, not the run: the journal keeps what it had and says why it stopped.
      const failed = journal(copy, runId);
      expect(failed.slice(0, before.length)).toEqual(before);
      expect(failed.at(-1)).toMatchObject({ type: 'run/failed', error: { code: 'llmHttp' } });

      // The key comes from the environment, like the base URL a "where" and not a "what".
      const resumed = await runCli(['runs', 'resume', runId, '-w', copy, '--base-url', locked.url], { OPENAI_API_KEY: 'the-right-key' });
      expect(resumed.code, resumed.stderr).toBe(0);
      const after = journal(copy, runId);
      expect(after.at(-1)?.type).toBe('run/finished');
      expect(decisions(after).slice(0, decisions(before).length)).toEqual(decisions(before));
    } finally {
      await locked.close();
    }
  });

  it('refuses flags that would change the run’s decisions, naming them', async () => {
    const copy = copyOfOriginal();
    const copyFiles = snapshot(copy);
    const r = await runCli(['evolve', '--resume', runId, '-w', copy, '--model', 'another-model', '--seed', '9']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `ratchet: --seed, --model cannot change when resuming run ${runId}: they change the splits and draws, the answers, so the resumed run would not reproduce the journaled one. Resume without them (--base-url, --call-timeout and --max-failures may change), or start a new run.\n`,
    );
    const unknown = await runCli(['runs', 'resume', runId, '-w', copy, '--model', 'another-model']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--model'");
    expect(snapshot(copy)).toEqual(copyFiles);
  });
});

describe('two runs started at once with the same seed in the same workspace', () => {
  it('get a run folder each, and both journals complete', async () => {
    const w = makeWorkspace({ gate: 'pace+', seed: 3, candidates: 3 });
    dirs.push(w.dir);
    const fake = await startFakeServer({ scenario: scenarioFor(w, { seed: 3 }) });
    try {
      const args = ['evolve', w.promptPath, '--base-url', fake.url, '-w', w.dir, '--seed', '3'];
      const [a, b] = await Promise.all([startCli(args).done, startCli(args).done]);
      // 0 or 1: the run did its job (1 when it committed nothing).
      expect(
        [a.code, b.code].every((c) => c === 0 || c === 1),
        a.stderr + b.stderr,
      ).toBe(true);
      const ids = runIds(w.dir);
      expect(ids).toHaveLength(2);
      for (const id of ids) {
        const events = journal(w.dir, id);
        expect(events.every((e) => e.runId === id)).toBe(true);
        expect(events.filter((e) => e.type === 'run/started')).toHaveLength(1);
        expect(events.at(-1)?.type).toBe('run/finished');
      }
    } finally {
      await fake.close();
    }
  });
});
