// Every CLI reader of a run refuses a journal a newer Ratchet wrote, naming the file and both
// format numbers, and reads one from before run.json had a format (#14 §6).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOURNAL_FORMAT } from '../../src/core/journal/journal';
import { CLI } from './evolveCli';
import { FIXTURE_RUNS, fixtureWorkspace } from '../unit/journal/journalHelpers';

function ratchet(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, OPENAI_API_KEY: 'test-key' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let ws: string;
let dispose: () => Promise<void>;
const NEWER = FIXTURE_RUNS.failed;
const OLDER = FIXTURE_RUNS.finished;
const runJson = (id: string) => path.join(ws, '.ratchet', 'runs', id, 'run.json');

async function editRunJson(id: string, edit: (r: Record<string, unknown>) => void): Promise<void> {
  const record = JSON.parse(await readFile(runJson(id), 'utf8')) as Record<string, unknown>;
  edit(record);
  await writeFile(runJson(id), JSON.stringify(record));
}

beforeAll(async () => {
  if (!existsSync(CLI)) spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  ({ root: ws, dispose } = await fixtureWorkspace());
  await editRunJson(NEWER, (r) => (r.format = JOURNAL_FORMAT + 2));
  await editRunJson(OLDER, (r) => delete r.format);
});
afterAll(async () => dispose());

describe('a journal from a newer Ratchet', () => {
  const message = () => `${runJson(NEWER)} was written by a newer Ratchet (format ${JOURNAL_FORMAT + 2}); this one reads up to ${JOURNAL_FORMAT} — update Ratchet.`;

  it.each([
    ['runs show', () => ['runs', 'show', NEWER, '-w', ws]],
    ['runs show --json', () => ['runs', 'show', NEWER, '-w', ws, '--json']],
    ['runs export', () => ['runs', 'export', NEWER, '-w', ws]],
    ['runs resume', () => ['runs', 'resume', NEWER, '-w', ws]],
  ])('%s refuses it', (_, args) => {
    const r = ratchet(...args());
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
    expect(r.stderr.trim()).toBe(`ratchet: ${message()}`);
  });

  it('runs list lists it as unreadable, with the reason, and the other runs as before', () => {
    const r = ratchet('runs', 'list', ws);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`  ${NEWER}: ${message()}`);
    expect(r.stdout).toMatch(new RegExp(`${OLDER}\\s+evolve\\s+finished`));
  });
});

describe('a journal from before run.json had a format', () => {
  it('runs show reads it', () => {
    const r = ratchet('runs', 'show', OLDER, '-w', ws);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(new RegExp(`^Run ${OLDER} · evolve · math/word-problems\\.prompt\\.md · finished\\n`));
  });
});
