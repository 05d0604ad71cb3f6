// Which isolation an evaluation gets, and what the bubblewrap jail exposes: pure functions of
// the machine's capabilities and the folders they are given.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { JAIL, chooseTier, jailArgv, toolchainBinds } from '../../../src/node/sandbox/jail';
import type { SandboxCaps } from '../../../src/node/sandbox/sandboxCaps';

const no = (reason: string) => ({ ok: false as const, reason });
const caps = (over: Partial<SandboxCaps>): SandboxCaps => ({
  root: false,
  prlimit: { ok: true },
  setpriv: { ok: true },
  bwrap: { ok: true, path: '/usr/bin/bwrap', version: 'bubblewrap 0.8.0', seccomp: { ok: true } },
  unshare: { ok: true, argv: ['unshare', '--user', '--map-current-user', '--pid', '--fork', '--kill-child=SIGKILL', '--mount-proc', '--ipc', '--uts'], network: ['--net'] },
  pidsCgroup: no('none'),
  memoryCgroup: no('none'),
  staleCgroupsRemoved: 0,
  python3: no('none'),
  ...over,
});

describe('chooseTier', () => {
  it('takes the jail when bubblewrap works, else namespaces, else none; off is off', () => {
    expect(chooseTier('best', caps({}))).toBe('jail');
    expect(chooseTier('best', caps({ bwrap: no('not installed') }))).toBe('namespaces');
    expect(chooseTier('best', caps({ bwrap: no('not installed'), unshare: no('no user namespaces') }))).toBe('none');
    expect(chooseTier('off', caps({}))).toBe('off');
    expect(chooseTier('required', caps({}))).toBe('jail');
  });

  it('refuses `required` without a jail, naming what is missing, how to install it, and what `best` would give', () => {
    const refuse = (c: SandboxCaps) => {
      try {
        chooseTier('required', c);
      } catch (err) {
        expect(RatchetError.is(err, 'badInput')).toBe(true);
        return (err as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refuse(caps({ bwrap: no('bubblewrap (bwrap) is not installed; install it: apt install bubblewrap') }))).toBe(
      'evaluator.isolation is required, and this machine cannot jail the evaluation: bubblewrap (bwrap) is not installed; install it: apt install bubblewrap. Install bubblewrap (docs/sandbox.md), or set evaluator.isolation: best to run with what the machine offers (its own process tree and no network, but your files readable).',
    );
    expect(refuse(caps({ bwrap: no('x'), unshare: no('y') }))).toMatch(/\(no isolation: the program could read your files and see your processes\)\.$/);
  });
});

describe('jailArgv', () => {
  const input = {
    caps: caps({}),
    network: 'off' as const,
    diskBytes: 1024,
    pathVar: '/usr/bin',
    executable: '/usr/bin/node',
    program: { host: '/tmp/e/work/main.py', name: 'main.py' },
    support: [{ host: '/tmp/stage/files/evaluate.mjs', to: 'evaluate.mjs' }],
    results: '/tmp/e/results',
    hidden: [],
  };

  it('a jail: every namespace, no network unless asked, dies with Ratchet, the sandbox a size-capped tmpfs, support files read-only', () => {
    const argv = jailArgv({ ...input, tier: 'jail' }, ['node', 'evaluate.mjs']);
    expect(argv.slice(0, 9)).toEqual(['/usr/bin/bwrap', '--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--hostname', 'ratchet-sandbox', '--ro-bind-try']);
    const joined = argv.join(' ');
    expect(joined).toContain(`--size 1024 --tmpfs ${JAIL.work}`);
    expect(joined).toContain('--bind /tmp/e/work/main.py /sandbox/main.py');
    expect(joined).toContain('--ro-bind /tmp/stage/files/evaluate.mjs /sandbox/evaluate.mjs');
    expect(joined).toContain('--bind /tmp/e/results /ratchet/results');
    expect(joined).toContain('--proc /proc --ro-bind /proc/sys /proc/sys --ro-bind-try /proc/sysrq-trigger /proc/sysrq-trigger --dev /dev --size 1024 --tmpfs /dev/shm --remount-ro /dev');
    // The root's tmpfs is read-only once every mount point on it is made.
    expect(argv.slice(-7)).toEqual(['--remount-ro', '/', '--chdir', JAIL.work, '--', 'node', 'evaluate.mjs']);
    expect(joined).not.toContain('--share-net');
    expect(argv.slice(-3)).toEqual(['--', 'node', 'evaluate.mjs']);
    expect(jailArgv({ ...input, tier: 'jail', network: 'on' }, ['x'])).toContain('--share-net');
    // The seccomp filter (the kernel keyrings), read from the descriptor it is handed on.
    expect(jailArgv({ ...input, tier: 'jail', seccompFd: 3 }, ['x']).join(' ')).toContain('--hostname ratchet-sandbox --seccomp 3 ');
    expect(argv).not.toContain('--seccomp');
    // Nothing of HOME is bound whole.
    expect(argv).not.toContain(homedir());
  });

  it("masks the walk's private entries as they are now: one removed since the walk is left out (bubblewrap would refuse to start without its mount point)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-jail-mask-'));
    try {
      const file = join(dir, 'owner-only.cnf');
      writeFileSync(file, 'secret\n', { mode: 0o600 });
      const folder = join(dir, 'private');
      mkdirSync(folder, { mode: 0o700 });
      const gone = join(dir, 'passwd.lock');
      // Walked as a file, a folder, and a lock file removed before the evaluation started.
      const joined = jailArgv(
        {
          ...input,
          tier: 'jail',
          privateEntries: [file, folder, gone],
        },
        ['x'],
      ).join(' ');
      expect(joined).toContain(`--ro-bind /dev/null ${file}`);
      expect(joined).toContain(`--tmpfs ${folder} --remount-ro ${folder}`);
      expect(joined).not.toContain(gone);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('namespaces: unshare (and no network) under a pdeathsig, a shell first in the namespace; none: only the pdeathsig', () => {
    expect(jailArgv({ ...input, tier: 'namespaces' }, ['node', 'e.mjs'])).toEqual([
      'setpriv',
      '--pdeathsig',
      'KILL',
      '--',
      'unshare',
      '--user',
      '--map-current-user',
      '--pid',
      '--fork',
      '--kill-child=SIGKILL',
      '--mount-proc',
      '--ipc',
      '--uts',
      '--net',
      '--',
      '/bin/sh',
      '-c',
      '"$@"; exit $?',
      'ratchet-init',
      'node',
      'e.mjs',
    ]);
    expect(jailArgv({ ...input, tier: 'none' }, ['node', 'e.mjs'])).toEqual(['setpriv', '--pdeathsig', 'KILL', '--', 'node', 'e.mjs']);
    expect(jailArgv({ ...input, tier: 'off', caps: caps({ setpriv: no('old util-linux') }) }, ['node', 'e.mjs'])).toEqual(['node', 'e.mjs']);
  });
});

describe('toolchainBinds', () => {
  it("exposes a PATH folder's install prefix (it holds lib or versions), never HOME, a workspace or what holds them", () => {
    const root = mkdtempSync(join(tmpdir(), 'ratchet-toolchain-'));
    const mk = (...parts: string[]) => {
      const p = join(root, ...parts);
      mkdirSync(p, { recursive: true });
      return p;
    };
    const node = mk('nvm', 'versions', 'node', 'v22', 'bin');
    mk('nvm', 'versions', 'node', 'v22', 'lib');
    const cargo = mk('cargo', 'bin');
    writeFileSync(join(root, 'cargo', 'credentials.toml'), 'token = "secret"');
    const workspace = mk('ws');
    mk('ws', '.ratchet');
    const venv = mk('ws', '.venv', 'bin');
    writeFileSync(join(root, 'ws', '.venv', 'pyvenv.cfg'), 'home = /usr/bin');
    const linked = join(root, 'current-node');
    symlinkSync(node, linked);
    const binds = toolchainBinds({ pathVar: [linked, cargo, venv, workspace, root, '/usr/bin', 'relative/bin'].join(':'), executable: undefined, hidden: [workspace] });
    const tos = binds.map(([, to]) => to);
    // The node install's prefix (lib beside bin), at its real path and where PATH names it.
    expect(tos).toContain(join(root, 'nvm', 'versions', 'node', 'v22'));
    expect(binds).toContainEqual([node, linked]);
    // ~/.cargo holds credentials beside bin, and no lib: only its bin.
    expect(tos).toContain(cargo);
    expect(tos).not.toContain(join(root, 'cargo'));
    // A venv inside the workspace: the venv, not the workspace.
    expect(tos).toContain(join(root, 'ws', '.venv'));
    expect(tos).not.toContain(workspace);
    // The folder holding the workspace, the system's folders and relative entries are never bound.
    expect(tos).not.toContain(root);
    expect(tos).not.toContain('/usr/bin');
    expect(tos.every((t) => t.startsWith('/'))).toBe(true);
  });
});
