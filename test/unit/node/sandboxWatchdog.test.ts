import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { descendants, readProcs, statEntry } from '../../../src/node/sandbox/procTable';
import { du } from '../../../src/node/sandbox/sandboxWatchdog';

describe('statEntry', () => {
  it('reads the fields after the command name, which may hold spaces and parentheses', () => {
    const line = (comm: string, state: string) => `4242 (${comm}) ${state} 4200 4242 4100 0 -1 4194560 0 0 0 0 3 1 0 0 20 0 7 0 123456 10000 300 18446744073709551615`;
    expect(statEntry(line('sh', 'S'))).toEqual({ pid: 4242, state: 'S', ppid: 4200, pgrp: 4242, session: 4100, threads: 7, start: 123456, rssPages: 300 });
    expect(statEntry(line('my (odd) name', 'Z'))).toMatchObject({ state: 'Z', ppid: 4200, threads: 7 });
    expect(statEntry('garbage')).toBeUndefined();
  });
});

describe.skipIf(process.platform !== 'linux')('the process table', () => {
  it('holds this process, with its threads, among the descendants of its parent', () => {
    const procs = readProcs();
    const self = procs.find((p) => p.pid === process.pid)!;
    expect(self.threads).toBeGreaterThanOrEqual(1);
    expect(descendants(procs, process.ppid).map((p) => p.pid)).toContain(process.pid);
    expect(descendants(procs, 2 ** 30)).toEqual([]);
  });
});

describe('du', () => {
  it("sums the files' blocks under a folder, its subfolders included", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-du-'));
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'a', 'f'), Buffer.alloc(100_000, 1));
    writeFileSync(join(dir, 'g'), Buffer.alloc(50_000, 1));
    const used = await du(dir);
    expect(used).toBeGreaterThanOrEqual(150_000);
    expect(used).toBeLessThan(150_000 + 64 * 1024);
  });
});
