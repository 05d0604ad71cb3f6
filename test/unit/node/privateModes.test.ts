// What Ratchet writes under `.ratchet/` holds prompts, outputs and proprietary data: it is created
// private (directories 0700, files 0600) through the real journal and cache over NodeFiles, under
// a permissive umask and under none; a user's own file rewritten in place keeps its mode.
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ResponseCache } from '../../../src/core/llm/cache';
import type { ChatResponse } from '../../../src/core/llm/types';
import { createJournal, runPaths } from '../../../src/core/journal/journal';
import { CryptoEntropy } from '../../../src/node/entropy';
import { NodeFiles } from '../../../src/node/files';
import { ManualClock, NEW_RUN, sampleEvents } from '../journal/journalHelpers';

const files = new NodeFiles();
const response: ChatResponse = { text: 'hi', finishReason: 'stop', logprobs: undefined, usage: { promptTokens: 1, completionTokens: 1 }, model: 'm' };
let root: string;
let savedUmask: number;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ratchet-modes-'));
  savedUmask = process.umask();
});
afterEach(async () => {
  process.umask(savedUmask);
  await rm(root, { recursive: true, force: true });
});

async function modeOf(p: string): Promise<string> {
  return ((await stat(p)).mode & 0o777).toString(8);
}

// Windows has no Unix modes: chmod there only toggles read-only.
describe.skipIf(process.platform === 'win32')('modes of what Ratchet creates', () => {
  it.each([
    ['022', 0o022],
    ['000', 0o000],
  ])('makes .ratchet, its runs, journal, run.json, lock.json and cache entries private under umask %s', async (_label, umask) => {
    process.umask(umask);
    const clock = new ManualClock();
    const writer = await createJournal({ files, clock, entropy: new CryptoEntropy() }, root, NEW_RUN, { pid: 1, host: 'h', since: '2026-12-01T00:00:00.000Z' });
    for (const e of sampleEvents(writer.runId, clock.now())) await writer.append(e);
    const cacheDir = path.join(root, '.ratchet', 'cache', 'llm');
    const cache = new ResponseCache(files, cacheDir);
    const key = 'ab'.repeat(32);
    await cache.put(key, { kind: 'chat' }, response);
    const paths = runPaths(files, root, writer.runId);

    const modes: Record<string, string> = {};
    for (const p of [
      path.join(root, '.ratchet'),
      path.join(root, '.ratchet', 'runs'),
      paths.dir,
      paths.events,
      paths.runJson,
      paths.lock,
      path.join(root, '.ratchet', 'cache'),
      cacheDir,
      path.dirname(cache.pathOf(key)),
      cache.pathOf(key),
    ]) {
      modes[path.relative(root, p)] = await modeOf(p);
    }
    const dir = '700';
    const file = '600';
    const run = path.relative(root, paths.dir);
    expect(modes).toEqual({
      '.ratchet': dir,
      [path.join('.ratchet', 'runs')]: dir,
      [run]: dir,
      [path.join(run, 'events.jsonl')]: file,
      [path.join(run, 'run.json')]: file,
      [path.join(run, 'lock.json')]: file,
      [path.join('.ratchet', 'cache')]: dir,
      [path.join('.ratchet', 'cache', 'llm')]: dir,
      [path.join('.ratchet', 'cache', 'llm', 'ab')]: dir,
      [path.relative(root, cache.pathOf(key))]: file,
    });
    // No temp file of write-file-atomic was left behind to widen anything.
    expect((await readdir(paths.dir)).sort()).toEqual(['events.jsonl', 'lock.json', 'run.json']);
  });

  it('leaves the folders above .ratchet, and the workspace itself, with the defaults', async () => {
    process.umask(0o022);
    await files.mkdirp(path.join(root, 'new', 'ws', '.ratchet', 'runs'));
    expect(await modeOf(path.join(root, 'new'))).toBe('755');
    expect(await modeOf(path.join(root, 'new', 'ws'))).toBe('755');
    expect(await modeOf(path.join(root, 'new', 'ws', '.ratchet'))).toBe('700');
    expect(await modeOf(path.join(root, 'new', 'ws', '.ratchet', 'runs'))).toBe('700');
  });

  it("keeps the mode of a user's file it rewrites (--apply), and closes a loose one of its own", async () => {
    process.umask(0o022);
    const prompt = path.join(root, 'prompt.md');
    await writeFile(prompt, 'old');
    await chmod(prompt, 0o664);
    await files.writeTextAtomic(prompt, 'new');
    expect(await modeOf(prompt)).toBe('664');
    const script = path.join(root, 'solve.py');
    await writeFile(script, 'old');
    await chmod(script, 0o755);
    await files.writeTextAtomic(script, 'new');
    expect(await modeOf(script)).toBe('755');
    // A new file outside .ratchet (a sidecar, an export) gets the umask's default, as any program's would.
    await files.writeTextAtomic(path.join(root, 'export.json'), '{}');
    expect(await modeOf(path.join(root, 'export.json'))).toBe('644');

    // A run.json an older version left readable is closed when it is next written.
    await mkdir(path.join(root, '.ratchet'));
    const old = path.join(root, '.ratchet', 'run.json');
    await writeFile(old, '{}');
    await chmod(old, 0o644);
    await files.writeTextAtomic(old, '{}\n');
    expect(await modeOf(old)).toBe('600');
  });
});
