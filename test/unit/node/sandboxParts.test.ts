// The sandbox's parts that need no evaluation: the output's kept end, the staged evaluator files
// (hashed, read-only, a change seen), the results folder's fingerprint, and keys taken out of this
// process's /proc environ.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type { EvaluationRun } from '../../../src/core/code/evaluatorPort';
import { TailBytes } from '../../../src/node/sandbox/outputTail';
import { programEvaluation } from '../../../src/node/sandbox/sandboxEvaluation';
import { fingerprint } from '../../../src/node/sandbox/resultFiles';
import { EvaluatorStage } from '../../../src/node/sandbox/staging';

describe('TailBytes', () => {
  it('keeps the last bytes, counts what fell off the start, and never starts inside a character', () => {
    const t = new TailBytes(8);
    t.push(Buffer.from('abcdef'));
    t.push(Buffer.from('ghij'));
    expect(t.text()).toBe('cdefghij');
    expect(t.dropped).toBe(2);
    t.push(Buffer.from('0123456789XY'));
    expect(t.text()).toBe('456789XY');
    expect(t.dropped).toBe(14);
    const u = new TailBytes(5);
    u.push(Buffer.from('aé€z'));
    // 'é€z' is 2 + 3 + 1 bytes; the kept five start inside 'é', which is left out.
    expect(u.text()).toBe('€z');
  });
});

describe('EvaluatorStage', () => {
  const workspace = () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-stage-test-'));
    writeFileSync(join(dir, 'evaluate.mjs'), 'console.log(1)\n');
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data', 'a.csv'), 'x\n1\n');
    return dir;
  };
  const stage = (dir: string, settings: unknown = { command: 'node evaluate.mjs {program}' }) =>
    EvaluatorStage.create({
      supportFiles: [
        { from: join(dir, 'evaluate.mjs'), to: 'evaluate.mjs' },
        { from: join(dir, 'data'), to: 'data' },
      ],
      settings,
    });

  it('copies read-only, and its identity is the bytes and settings, never where the workspace is', async () => {
    const a = workspace();
    const b = workspace();
    const sa = await stage(a);
    const sb = await stage(b);
    try {
      expect(readFileSync(sa.supportPath('evaluate.mjs'), 'utf8')).toBe('console.log(1)\n');
      expect(statSync(sa.supportPath('evaluate.mjs')).mode & 0o222).toBe(0);
      expect(statSync(sa.supportPath('data')).mode & 0o222).toBe(0);
      // Two workspaces with the same files: the same identity (a moved workspace keeps its cache).
      expect(sb.identity).toBe(sa.identity);
      const other = await stage(a, { command: 'node evaluate.mjs {program} {results}' });
      expect(other.identity).not.toBe(sa.identity);
      await other.dispose();
      writeFileSync(join(b, 'data', 'a.csv'), 'x\n2\n');
      const changed = await stage(b);
      expect(changed.identity).not.toBe(sa.identity);
      await changed.dispose();
    } finally {
      await sa.dispose();
      await sb.dispose();
    }
    expect(existsSync(sa.dir)).toBe(false);
  });

  it('sees a change: to its copies (the run must stop), to the workspace originals (said once)', async () => {
    const dir = workspace();
    const s = await stage(dir);
    try {
      expect(await s.check()).toEqual({ tampered: [], changedInWorkspace: [] });
      writeFileSync(join(dir, 'evaluate.mjs'), 'console.log(2)\n');
      expect(await s.check()).toEqual({ tampered: [], changedInWorkspace: ['evaluate.mjs'] });
      expect(await s.check()).toEqual({ tampered: [], changedInWorkspace: [] });
      // The copies stay as staged, whatever happened in the workspace.
      expect(readFileSync(s.supportPath('evaluate.mjs'), 'utf8')).toBe('console.log(1)\n');
      chmodSync(s.supportPath('data/a.csv'), 0o644);
      chmodSync(s.supportPath('data'), 0o755);
      writeFileSync(s.supportPath('data/a.csv'), 'forged\n');
      expect((await s.check()).tampered).toEqual(['data/a.csv']);
    } finally {
      await s.dispose();
    }
  });

  it('refuses a support file that is not there, naming it', async () => {
    await expect(EvaluatorStage.create({ supportFiles: [{ from: '/no/such/evaluate.mjs', to: 'evaluate.mjs' }], settings: {} })).rejects.toThrow(
      /Could not copy the support file \/no\/such\/evaluate\.mjs: .*Check evaluator\.supportFiles\./,
    );
  });
});

describe('fingerprint', () => {
  it('changes with any entry of the results folder, its content, name or kind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-fp-'));
    writeFileSync(join(dir, 'metrics.json'), '{"combined_score": 1}');
    const first = await fingerprint(dir);
    expect(await fingerprint(dir)).toBe(first);
    writeFileSync(join(dir, 'metrics.json'), '{"combined_score": 9}');
    const second = await fingerprint(dir);
    expect(second).not.toBe(first);
    mkdirSync(join(dir, 'sub'));
    expect(await fingerprint(dir)).not.toBe(second);
  });
});

describe.skipIf(process.platform !== 'linux')('hideFromEnviron', () => {
  it("takes the keys out of the process's /proc environ, and process.env still has them", () => {
    // A child Node process, so this test's own environment is left alone: it hides, then reports
    // what /proc/self/environ and process.env say.
    const script = `
      const { hideFromEnviron, secretVariableNames } = require(${JSON.stringify(join(process.cwd(), 'out/test-environ.cjs'))});
      const names = secretVariableNames();
      const r = hideFromEnviron([...names, 'MY_ROLE_KEY']);
      const environ = require('node:fs').readFileSync('/proc/self/environ', 'latin1');
      console.log(JSON.stringify({ r, names, environHas: environ.includes('sk-test-abcdefghijklmnop') || environ.includes('role-secret-123456'), stillSet: process.env.OPENAI_API_KEY + ' ' + process.env.MY_ROLE_KEY, other: process.env.OTHER }));
    `;
    buildSync({ entryPoints: ['src/node/environSecrets.ts'], bundle: true, platform: 'node', format: 'cjs', outfile: 'out/test-environ.cjs', logLevel: 'error' });
    const out = execFileSync(process.execPath, ['-e', script], { env: { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-test-abcdefghijklmnop', MY_ROLE_KEY: 'role-secret-123456', OTHER: 'kept' }, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ r: { hidden: ['OPENAI_API_KEY', 'MY_ROLE_KEY'] }, names: ['OPENAI_API_KEY'], environHas: false, stillSet: 'sk-test-abcdefghijklmnop role-secret-123456', other: 'kept' });
  });
});

describe('programEvaluation', () => {
  it('blanks every key Ratchet knows from what the program printed, its error, feedback and metrics, before anything keeps them', () => {
    const key = 'team-llm-key-0123456789';
    const run: EvaluationRun = {
      result: { correct: false, error: `crashed after reading ${key}`, feedback: `found ${key}`, public: { leaked: key, nested: { deeper: [key] } } },
      stdout: `the key is ${key}\n`,
      stderr: `OPENAI_API_KEY=${key}\n`,
      truncated: { stdout: false, stderr: false },
      droppedBytes: { stdout: 0, stderr: 0 },
      exitCode: 1,
      signal: null,
      timedOut: false,
      cancelled: false,
      wallMs: 5,
      sandbox: { isolation: 'jail', network: 'off', limits: 'prlimit', processes: '', memory: '', disk: '', processLimitHit: false, leftoverProcesses: 0, incidents: ['a note'] },
    };
    const e = programEvaluation(run, [key]);
    expect(JSON.stringify(e)).not.toContain(key);
    expect(e).toEqual({
      correct: false,
      error: 'crashed after reading [redacted]',
      feedback: 'found [redacted]',
      publicMetrics: { leaked: '[redacted]', nested: { deeper: ['[redacted]'] } },
      output: 'stderr:\nOPENAI_API_KEY=[redacted]\nstdout:\nthe key is [redacted]',
      isolation: { tier: 'jail', network: 'off' },
      incidents: ['a note'],
    });
  });
});
