import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { NodeFiles } from '../../../src/node/files';
import { inputLimitsFromEnv } from '../../../src/node/inputFile';

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

describe('NodeFiles reads only regular files (#14 §3)', () => {
  const refusal = async (file: string, f = files) => {
    const err = await f.tryReadText(file).catch((e: unknown) => e);
    expect(RatchetError.is(err, 'badInput')).toBe(true);
    expect((err as RatchetError).details.file).toBe(file);
    return (err as Error).message;
  };

  it('a symbolic link to a regular file reads as the file', async () => {
    await writeFile(path.join(dir, 'real.jsonl'), '{"q": 1}\n');
    await symlink('real.jsonl', path.join(dir, 'link.jsonl'));
    expect(await files.readText(path.join(dir, 'link.jsonl'))).toBe('{"q": 1}\n');
  });

  it('refuses a named pipe at once, without waiting for a writer', async () => {
    const fifo = path.join(dir, 'data.jsonl');
    execFileSync('mkfifo', [fifo]);
    // No writer ever opens the pipe: a blocking open would never return and the test would time out.
    expect(await refusal(fifo)).toBe(`${fifo} is a named pipe (FIFO), not a regular file; Ratchet reads only regular files (a named pipe would wait forever, a device would never end).`);
  });

  it('refuses a link to a device, naming the link and where it points', async () => {
    const link = path.join(dir, 'data.jsonl');
    await symlink('/dev/zero', link);
    expect(await refusal(link)).toMatch(new RegExp(`^${link} is a symbolic link to /dev/zero, which is a character device, not a regular file`));
  });

  it('refuses a directory and a link loop, each naming the path', async () => {
    await mkdir(path.join(dir, 'd.jsonl'));
    expect(await refusal(path.join(dir, 'd.jsonl'))).toBe(`${path.join(dir, 'd.jsonl')} is a directory, not a file.`);
    await symlink('b', path.join(dir, 'a'));
    await symlink('a', path.join(dir, 'b'));
    expect(await refusal(path.join(dir, 'a'))).toMatch(/a is a symbolic link that leads back to itself \(a link loop\)/);
  });

  it('refuses a file over the size limit, saying how to raise it', async () => {
    const f = path.join(dir, 'big.jsonl');
    await writeFile(f, 'x'.repeat(3000));
    const small = new NodeFiles({ maxFileBytes: 2048, maxLineChars: 100 });
    expect(await refusal(f, small)).toBe(`${f} is 2.9 KB, over the 2 KB Ratchet reads from one file; set RATCHET_MAX_FILE_MB to raise the limit if the file is meant to be this large.`);
    expect(await new NodeFiles({ maxFileBytes: 3000, maxLineChars: 100 }).readText(f)).toHaveLength(3000);
  });

  it('reads its limits from the environment, refusing a value that is not a size', () => {
    expect(inputLimitsFromEnv({ RATCHET_MAX_FILE_MB: '1', RATCHET_MAX_LINE_MB: '0.5' })).toEqual({ maxFileBytes: 1048576, maxLineChars: 524288 });
    expect(() => inputLimitsFromEnv({ RATCHET_MAX_LINE_MB: '0' })).toThrow('RATCHET_MAX_LINE_MB must be a number of MB above 0, got "0".');
  });
  it('streams a file line by line, and refuses a line over the cap at its number without reading past it', async () => {
    const f = path.join(dir, 'data.jsonl');
    await writeFile(f, '{"q": 1}\r\n{"q": 2}\n\n{"q": 3}');
    const lines: string[] = [];
    for await (const line of (await files.tryReadLines(f))!) lines.push(line);
    expect(lines).toEqual(['{"q": 1}\r', '{"q": 2}', '', '{"q": 3}']);
    expect(await files.tryReadLines(path.join(dir, 'missing.jsonl'))).toBeUndefined();
    // Line 3 is longer than the cap, and the file goes on long after it.
    await writeFile(f, `a\nb\n${'x'.repeat(500_000)}\n${'y\n'.repeat(1000)}`);
    const capped = new NodeFiles({ maxFileBytes: 10_000_000, maxLineChars: 64 * 1024 });
    const seen: string[] = [];
    const err = await (async () => {
      for await (const line of (await capped.tryReadLines(f))!) seen.push(line);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a', 'b']);
    expect(RatchetError.is(err, 'badInput')).toBe(true);
    expect((err as RatchetError).details).toMatchObject({ file: f, line: 3 });
    expect((err as Error).message).toBe(`${f}:3: line is over the 64 KB limit for one line; set RATCHET_MAX_LINE_MB to raise it.`);
    // A named pipe is refused by the streaming reader too, at once.
    const fifo = path.join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    await expect(files.tryReadLines(fifo)).rejects.toThrow('is a named pipe (FIFO)');
  });
});
