// A search run follows its workspace (issue #27): killed with SIGKILL, its folder copied with
// `cp -r` and resumed in the copy with --apply, the original stays byte for byte as it was while
// the copy finishes, writes its own program and takes the evaluations done before the kill from
// its evaluation cache (the evaluator counts its runs); a moved folder resumes where it lies now.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { CLI, evolveThenKill, journal, runCli } from './evolveCli';
import { EVALUATOR, PROGRAM, searchWorkspace } from './searchWorkspace';
import type { SearchWorkspace } from './searchWorkspace';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

/** The evaluator notes each run of itself in the file EVAL_LOG names (isolation off: the file is the test's). */
function counted(ws: SearchWorkspace): void {
  const spec = join(ws.dir, 'step.mjs.ratchet.yaml');
  writeFileSync(spec, readFileSync(spec, 'utf8').replace('  timeoutSeconds: 60\n', '  timeoutSeconds: 60\n  env: [EVAL_LOG]\n  isolation: off\n'));
  writeFileSync(join(ws.dir, 'evaluate.mjs'), `import { appendFileSync } from 'node:fs';\nappendFileSync(process.env.EVAL_LOG, 'run\\n');\n${EVALUATOR}`);
}

const linesOf = (file: string): number => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);

/** Every file under `dir` by its path there, with the hash of its bytes. */
function fingerprint(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(dir, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

/** Starts a search in `ws`, kills it with SIGKILL after two decisions; the evaluator's runs go to `log`. */
async function searchThenKill(ws: SearchWorkspace, url: string, log: string): Promise<string> {
  process.env.EVAL_LOG = log;
  try {
    const { runId } = await evolveThenKill(['search', ws.program, '--base-url', url, '--proposals', '8', '-w', ws.dir], ws.dir, 2);
    return runId;
  } finally {
    delete process.env.EVAL_LOG;
  }
}

describe('ratchet search --resume in a copied or moved workspace', () => {
  it('cp -r then --resume --apply in the copy: the original is untouched, the copy finishes and reuses the evaluations done', async () => {
    const ws = searchWorkspace();
    counted(ws);
    const logs = mkdtempSync(join(tmpdir(), 'ratchet-evallogs-'));
    const server = await startFakeServer({});
    try {
      const runId = await searchThenKill(ws, server.url, join(logs, 'original.log'));
      const before = linesOf(join(logs, 'original.log'));
      expect(before).toBeGreaterThan(0);
      const original = fingerprint(ws.dir);
      const copy = `${ws.dir}-copy`;
      cpSync(ws.dir, copy, { recursive: true });
      const copyLog = join(logs, 'copy.log');
      const r = await runCli(['search', '--resume', runId, '--base-url', server.url, '--apply', '-w', copy], { EVAL_LOG: copyLog });
      expect(r.code, r.stderr).toBe(0);
      expect(journal(copy, runId).at(-1)?.type).toBe('run/finished');
      // The original folder, its program, journal and caches included, is byte for byte what it was.
      expect(fingerprint(ws.dir)).toEqual(original);
      // The copy's program holds the best program; the original's its start.
      expect(readFileSync(join(copy, 'step.mjs'), 'utf8')).not.toBe(PROGRAM);
      expect(readFileSync(ws.program, 'utf8')).toBe(PROGRAM);
      // The evaluations finished before the kill came from the copy's cache: the copy ran at most the
      // rest, and those in flight at the kill again (one per evaluator slot: concurrency 2).
      const total = Number(/(\d+) evaluations/.exec(r.stderr)?.[1]);
      const resumedRuns = linesOf(copyLog);
      expect(resumedRuns).toBeLessThan(total);
      expect(resumedRuns).toBeLessThanOrEqual(total - before + 2);
    } finally {
      await server.close();
    }
  }, 240_000);

  it('mv then --resume: the run resumes and finishes where the folder lies now', async () => {
    const ws = searchWorkspace();
    counted(ws);
    const logs = mkdtempSync(join(tmpdir(), 'ratchet-evallogs-'));
    const server = await startFakeServer({});
    try {
      const runId = await searchThenKill(ws, server.url, join(logs, 'before.log'));
      const moved = `${ws.dir}-moved`;
      renameSync(ws.dir, moved);
      const r = await runCli(['search', '--resume', runId, '--base-url', server.url, '--apply', '-w', moved], { EVAL_LOG: join(logs, 'after.log') });
      expect(r.code, r.stderr).toBe(0);
      const events = journal(moved, runId);
      expect(events.at(-1)?.type).toBe('run/finished');
      expect(events.filter((e) => e.type === 'run/resumed')).toHaveLength(1);
      expect(readFileSync(join(moved, 'step.mjs'), 'utf8')).not.toBe(PROGRAM);
      expect(existsSync(ws.dir)).toBe(false);
    } finally {
      await server.close();
    }
  }, 240_000);
});
