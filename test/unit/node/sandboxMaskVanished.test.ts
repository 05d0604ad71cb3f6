/**
 * An entry of /etc the jail masks, removed between the walk's look and bubblewrap's mount (a lock
 * file useradd or passwd made and removed): bubblewrap, left without a mount point, refused to
 * start and the evaluation failed ("Can't create file at /etc/…: Read-only file system"; it failed
 * npm test when the hostile suite removed a file it had planted). Held open deterministically: the
 * bubblewrap here (RATCHET_BWRAP) removes the file just before it runs the real one, the first time
 * it is asked to mask it. Needs a writable /etc (root); vitest runs this file in a process of its
 * own, as the sandbox's capabilities and the walk are probed once per process.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEvaluation } from '../../../src/node/sandbox/sandbox';
import { sandboxCaps } from '../../../src/node/sandbox/sandboxCaps';

const bwrap = ['/usr/bin/bwrap', '/bin/bwrap'].find((p) => existsSync(p));
const planted = `/etc/ratchet-vanishing-${process.pid}.lock`;
let dir: string;
let writableEtc = false;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ratchet-mask-vanished-'));
  const wrapper = path.join(dir, 'bwrap');
  const removed = path.join(dir, 'removed');
  // Only the evaluation's bubblewrap masks the planted file; the capability probes run it too.
  await writeFile(wrapper, `#!/bin/sh\ncase " $* " in *" ${planted} "*) [ -e ${removed} ] || { rm -f ${planted}; touch ${removed}; } ;; esac\nexec ${bwrap ?? 'false'} "$@"\n`);
  await chmod(wrapper, 0o755);
  process.env.RATCHET_BWRAP = wrapper;
  try {
    await writeFile(planted, 'owner only\n', { mode: 0o600 });
    writableEtc = true;
  } catch {
    writableEtc = false;
  }
});
afterAll(async () => {
  delete process.env.RATCHET_BWRAP;
  await rm(planted, { force: true });
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('a masked entry of /etc removed as the jail starts', () => {
  it('the evaluation runs jailed all the same: bubblewrap is asked again with what exists then', async (ctx) => {
    const caps = await sandboxCaps();
    if (bwrap === undefined || !caps.bwrap.ok || !writableEtc) ctx.skip();
    const run = await runEvaluation({ programText: 'print(1)\n', programName: 'main.py', timeoutMs: 30_000, graceMs: 300, command: `sh -c 'echo "$RATCHET_PROGRAM" >&2; echo "{\\"combined_score\\": 4}"'` });
    expect(run.result, run.stderr).toEqual({ correct: true, score: 4 });
    expect(run.sandbox.isolation).toBe('jail');
    expect(run.stderr.trim()).toBe('/sandbox/main.py');
    // The race was met: the file was there at the walk and gone at the mount.
    expect(existsSync(path.join(dir, 'removed'))).toBe(true);
    expect(existsSync(planted)).toBe(false);
  });
});
