/**
 * A machine whose bubblewrap makes its namespaces but cannot load a seccomp filter (a kernel built
 * without seccomp filters, a container that forbids them): the jail runs without its keyring
 * filter, the pre-flight says what that leaves open, and evaluations still run jailed — before
 * the probe, every evaluation there failed with bubblewrap's refusal. Played with a bubblewrap
 * (RATCHET_BWRAP) that refuses `--seccomp` as such a kernel makes the real one do; the sandbox's
 * capabilities are probed once per process, and vitest runs each test file in a process of its own.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preflight, runEvaluation } from '../../../src/node/sandbox/sandbox';
import { sandboxCaps } from '../../../src/node/sandbox/sandboxCaps';

const REFUSAL = 'bwrap: prctl(PR_SET_SECCOMP): Invalid argument';
let dir: string;
let bwrap: string | undefined;

beforeAll(async () => {
  bwrap = ['/usr/bin/bwrap', '/bin/bwrap'].find((p) => existsSync(p));
  dir = await mkdtemp(path.join(tmpdir(), 'ratchet-no-seccomp-'));
  const wrapper = path.join(dir, 'bwrap');
  await writeFile(wrapper, `#!/bin/sh\nfor a; do [ "$a" = --seccomp ] && { echo '${REFUSAL}' >&2; exit 1; }; done\nexec ${bwrap ?? 'false'} "$@"\n`);
  await chmod(wrapper, 0o755);
  process.env.RATCHET_BWRAP = wrapper;
});
afterAll(async () => {
  delete process.env.RATCHET_BWRAP;
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('a bubblewrap that cannot load a seccomp filter', () => {
  it('is still the jail: the pre-flight says the keyrings stay reachable, and an evaluation runs in it', async (ctx) => {
    const caps = await sandboxCaps();
    // Where bubblewrap itself cannot make its namespaces (no bubblewrap, no user namespaces) there is no jail to test.
    if (bwrap === undefined || !caps.bwrap.ok) ctx.skip();
    if (!caps.bwrap.ok) return;
    expect(caps.bwrap.seccomp).toEqual({ ok: false, reason: `bubblewrap cannot load a seccomp filter here (${REFUSAL})` });
    const flight = await preflight();
    expect(flight.isolation).toBe('jail');
    expect(flight.caveats).toContainEqual(expect.stringMatching(/^The jail runs without its seccomp filter \(bubblewrap cannot load a seccomp filter here .*\): the program keeps the kernel keyrings/));
    const run = await runEvaluation({ programText: 'print(1)\n', programName: 'main.py', timeoutMs: 30_000, graceMs: 300, command: `sh -c 'echo "$RATCHET_PROGRAM" >&2; echo "{\\"combined_score\\": 4}"'` });
    expect(run.result, run.stderr).toEqual({ correct: true, score: 4 });
    expect(run.sandbox.isolation).toBe('jail');
    // The program's path inside the jail, not a host folder.
    expect(run.stderr.trim()).toBe('/sandbox/main.py');
  });
});
