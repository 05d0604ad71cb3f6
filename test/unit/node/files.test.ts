import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { NodeFiles } from '../../../src/node/files';

const files = new NodeFiles();
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ratchet-files-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('NodeFiles', () => {
  it('reads, and tells a missing file apart', async () => {
    await writeFile(path.join(dir, 'a.txt'), 'héllo');
    expect(await files.readText(path.join(dir, 'a.txt'))).toBe('héllo');
    expect(await files.tryReadText(path.join(dir, 'nope.txt'))).toBe(undefined);
    const err = await files.readText(path.join(dir, 'nope.txt')).catch((e: unknown) => e);
    expect(RatchetError.is(err, 'notFound')).toBe(true);
    expect((err as Error).message).toBe(`No file ${path.join(dir, 'nope.txt')}.`);
  });

  it('appends durably, creating the file on first append', async () => {
    const f = path.join(dir, 'runs', 'r', 'events.jsonl');
    await files.mkdirp(path.dirname(f));
    await files.appendDurable(f, 'one\n');
    await files.appendDurable(f, 'two\n');
    expect(await readFile(f, 'utf8')).toBe('one\ntwo\n');
  });

  it('lists names sorted, [] for a missing directory, and checks existence', async () => {
    await files.mkdirp(path.join(dir, 'd', 'b'));
    await writeFile(path.join(dir, 'd', 'a'), '');
    expect(await files.list(path.join(dir, 'd'))).toEqual(['a', 'b']);
    expect(await files.list(path.join(dir, 'missing'))).toEqual([]);
    expect(await files.exists(path.join(dir, 'd', 'a'))).toBe(true);
    expect(await files.exists(path.join(dir, 'd', 'a', 'under-a-file'))).toBe(false);
  });

  it('makes a directory exclusively: true for the call that made it, false once it exists, an error when its parent is missing', async () => {
    const d = path.join(dir, 'run');
    expect(await Promise.all([files.mkdirExclusive(d), files.mkdirExclusive(d)])).toEqual(expect.arrayContaining([true, false]));
    expect(await files.mkdirExclusive(d)).toBe(false);
    await expect(files.mkdirExclusive(path.join(dir, 'missing', 'run'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('replaces a file atomically', async () => {
    const f = path.join(dir, 'run.json');
    await files.writeTextAtomic(f, '{"v":1}\n');
    await files.writeTextAtomic(f, '{"v":2}\n');
    expect(await readFile(f, 'utf8')).toBe('{"v":2}\n');
    expect(await files.list(dir)).toEqual(['run.json']);
  });
});
