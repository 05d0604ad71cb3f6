// Issue #26's "Must show", through the built CLI: a hostile proposer (the fake server serving the
// programs of hostilePrograms.ts) against the circle-packing example, each attack blocked, refused
// under `isolation: required`, or reported — and never a commit. It runs with bubblewrap (where
// installed) and without (RATCHET_BWRAP=off: `unshare`'s namespaces), as root and as a throwaway
// non-root user (root only: skipped, saying so, otherwise). Then: a non-root user with 200 threads
// alive searches the shipped example and commits; the CLI killed with SIGKILL mid-evaluation leaves
// no process of it, and the next start sweeps its folders.
import { execFileSync, execSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent, EventOf } from '../../src/core/journal/events';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { CLI, journal, runIds } from './evolveCli';
import { attacks, hostileBlock } from './hostilePrograms';
import type { Targets } from './hostilePrograms';
import { until } from '../until';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

const root = process.getuid?.() === 0;
const linux = process.platform === 'linux';
const bwrapInstalled = (() => {
  try {
    execFileSync('bwrap', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const SECRET = `sk-hostile-${randomBytes(12).toString('hex')}`;
const ROLE_SECRET = `role-${randomBytes(12).toString('hex')}`;
const SSH_NEEDLE = `ssh-${randomBytes(8).toString('hex')}`;
const RATCHET_NEEDLE = `ratchet-${randomBytes(8).toString('hex')}`;
const KEYRING_NEEDLE = `keyring-${randomBytes(8).toString('hex')}`;
const PRIVATE_NEEDLE = `private-${randomBytes(8).toString('hex')}`;

/** A throwaway user for the non-root runs (made here, removed at the end); undefined when not root. */
let user: { name: string; uid: number; gid: number } | undefined;
beforeAll(() => {
  if (!root || !linux) return;
  const name = `rhostile${process.pid % 100000}`;
  execFileSync('useradd', ['--no-create-home', '--shell', '/usr/sbin/nologin', name], { stdio: 'ignore' });
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
  user = { name, uid: id('-u'), gid: id('-g') };
});
afterAll(() => {
  if (user) execFileSync('userdel', [user.name], { stdio: 'ignore' });
});

interface Who {
  label: string;
  /** Runs the CLI as this user. */
  asUser: boolean;
}
interface Tier {
  label: string;
  env: Record<string, string>;
  /** The program can read the user's files (no jail). */
  filesVisible: boolean;
}
const TIERS: Tier[] = [...(bwrapInstalled ? [{ label: 'with bubblewrap', env: {}, filesVisible: false }] : []), { label: 'without bubblewrap (RATCHET_BWRAP=off)', env: { RATCHET_BWRAP: 'off' }, filesVisible: true }];
const WHO: Who[] = [
  { label: 'as root', asUser: false },
  { label: 'as a non-root user', asUser: true },
];

/** A fresh copy of the circle-packing example, its HOME and TMPDIR, owned by whoever runs the CLI. */
/** The folders the tests made, removed at the end. */
const made: string[] = [];

function workspace(who: Who, spec: Record<string, string> = {}): { dir: string; home: string; tmp: string; outside: string } {
  const base = mkdtempSync(join(tmpdir(), 'ratchet-hostile-'));
  made.push(base);
  chmodSync(base, 0o755);
  const dir = join(base, 'ws');
  cpSync('examples/code/circle-packing', dir, { recursive: true });
  const home = join(base, 'home');
  const tmp = join(base, 'tmp');
  const outside = join(base, 'outside');
  for (const d of [home, join(home, '.ssh'), tmp, outside, join(dir, '.ratchet')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_test'), `-----BEGIN KEY----- ${SSH_NEEDLE}\n`);
  writeFileSync(join(dir, '.ratchet', 'notes.txt'), `${RATCHET_NEEDLE}\n`);
  cpSync(join(dir, 'evaluate.mjs'), join(outside, 'evaluate.mjs'));
  const lines = [
    'kind: code',
    'evaluator:',
    `  command: ${spec.command ?? 'node evaluate.mjs {program}'}`,
    '  supportFiles: [evaluate.mjs]',
    '  timeoutSeconds: 60',
    '  deterministic: true',
    `  isolation: ${spec.isolation ?? 'best'}`,
    '  limits: { memoryMb: 400, processes: 96, diskMb: 64 }',
    'gate: pace+',
    'models:',
    '  proposer: { model: sim-proposer, apiKeyEnv: TEAM_LLM }',
    'search: { metaEvery: 0, novelty: { judge: false } }',
    'islands: 1',
    'concurrency: 2',
    '',
  ];
  writeFileSync(join(dir, 'pack.mjs.ratchet.yaml'), lines.join('\n'));
  if (who.asUser && user) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, base]);
  return { dir, home, tmp, outside };
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  pid: number;
}

/** Where the hostile run's CLI holds a descriptor of the user's HOME, as a shell's `exec 200<~` would leave it: past the first gap above 15, where Node leaves descriptors inheritable. */
const INHERITED_FD = 200;

/**
 * Starts the CLI in a session keyring of its own holding a key, as a login session's PAM
 * (pam_keyinit) gives one and `keyctl add user … @s` fills it: python3, the key's value in its
 * argv (gone with the exec), the CLI's argv after it.
 */
const KEYRING_LAUNCHER = `
import ctypes, os, platform, sys
keyctl, add_key = {'x86_64': (250, 248), 'aarch64': (219, 217)}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
assert libc.syscall(keyctl, 1, b'ratchet-hostile') > 0, 'KEYCTL_JOIN_SESSION_KEYRING'
value = sys.argv[1].encode()
assert libc.syscall(add_key, b'user', b'ratchet-hostile', value, len(value), ctypes.c_long(-3)) > 0, 'add_key'
os.execv(sys.argv[2], sys.argv[2:])
`;

/** What the CLI's launcher left it: a descriptor of a folder (at INHERITED_FD), a key in its session keyring. */
interface Launcher {
  inherit?: string;
  keyring?: string;
}

/** `ratchet search` in `w`, as `who`, with only the environment a user's shell would give it, and what `launcher` leaves it. */
function search(who: Who, tier: Tier, w: { dir: string; home: string; tmp: string }, args: string[], onStart?: (pid: number) => void, launcher: Launcher = {}): Promise<Ran> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: w.home, TMPDIR: w.tmp, LANG: 'C.UTF-8', OPENAI_API_KEY: SECRET, TEAM_LLM: ROLE_SECRET, ...tier.env };
  const held = launcher.inherit === undefined ? undefined : openSync(launcher.inherit, 'r');
  const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
  if (held !== undefined) {
    while (stdio.length < INHERITED_FD) stdio.push('ignore');
    stdio[INHERITED_FD] = held;
  }
  const cli = [process.execPath, CLI, 'search', join(w.dir, 'pack.mjs'), '-w', w.dir, ...args];
  const argv = launcher.keyring === undefined ? cli : ['python3', '-c', KEYRING_LAUNCHER, launcher.keyring, ...cli];
  const child = spawn(argv[0]!, argv.slice(1), {
    env,
    cwd: w.dir,
    stdio,
    ...(who.asUser && user ? { uid: user.uid, gid: user.gid } : {}),
  });
  if (held !== undefined) closeSync(held);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  if (child.pid !== undefined) onStart?.(child.pid);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, pid: child.pid ?? 0 })));
}

/** Every file under `dir` (caches, journals, run.json) with its text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((rel) => join(dir, rel))
    .filter((p) => statSync(p).isFile())
    .map((path) => ({ path, text: readFileSync(path, 'latin1') }));
}

/** Live processes whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) out.push(Number(name));
    } catch {
      // Gone.
    }
  }
  return out;
}

const ofType = <T extends EngineEvent['type']>(events: readonly EngineEvent[], type: T): EventOf<T>[] => events.filter((e): e is EventOf<T> => e.type === type);
const reversed = (s: string): string => [...s].reverse().join('');

/** A listener on 127.0.0.1 that keeps whatever reaches it. */
async function listener(): Promise<{ server: Server; port: number; received: string[] }> {
  const received: string[] = [];
  const server = createServer((s) => s.on('data', (d: Buffer) => received.push(d.toString())));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, received };
}

/** Unix sockets that keep whatever reaches them: one at `path`, open to every user (as a user's own socket is to that user), and one abstract. */
async function unixListeners(path: string, abstract: string): Promise<{ servers: Server[]; received: { path: string[]; abstract: string[] } }> {
  const received = { path: [] as string[], abstract: [] as string[] };
  const listen = async (at: string, into: string[]) => {
    const server = createServer((s) => s.on('data', (d: Buffer) => into.push(d.toString())));
    await new Promise<void>((r) => server.listen(at, r));
    return server;
  };
  const servers = [await listen(path, received.path), await listen(`\0${abstract}`, received.abstract)];
  chmodSync(path, 0o777);
  return { servers, received };
}

/** The attacks run together in one search (the evaluator's edit, which stops a run without a jail, has its own). */
const TOGETHER = Object.keys(attacks({ needles: [], sshFile: '', ratchetFile: '', outsideDir: '', port: 0, marker: '' })).filter((n) => n !== 'editing the evaluator');

describe.skipIf(!linux)('ratchet search against a hostile proposer (#26)', () => {
  for (const tier of TIERS) {
    for (const who of WHO) {
      it(`${tier.label}, ${who.label}: every attack blocked or reported, no key anywhere, nothing left running, never a commit`, async (ctx) => {
        if (who.asUser && !user) ctx.skip(`the non-root run needs root to make a throwaway user (useradd); this test runs as uid ${process.getuid?.()}`);
        const w = workspace(who);
        const net = await listener();
        const marker = String(3_000_000 + Math.floor(Math.random() * 5_000_000));
        const sockets = await unixListeners(join(w.tmp, 'daemon.sock'), `ratchet-hostile-${marker}`);
        // A file of the system only the user running Ratchet may read (a database's password, as /etc/mysql/debian.cnf holds root's).
        const privateFile = `/etc/ratchet-hostile-${marker}.conf`;
        writeFileSync(privateFile, `password = ${PRIVATE_NEEDLE}\n`, { mode: 0o600 });
        if (who.asUser && user) execFileSync('chown', [`${user.uid}:${user.gid}`, privateFile]);
        // The provider key exported in a system file every user may read. Only for the jail, which masks it: without
        // one the program reads it like any file of yours (docs/sandbox.md), and the key would be in what the run wrote.
        const keyFile = `/etc/ratchet-hostile-${marker}.sh`;
        if (!tier.filesVisible) writeFileSync(keyFile, `export OPENAI_API_KEY=${SECRET}\n`, { mode: 0o644 });
        const targets: Targets = {
          needles: [SECRET, ROLE_SECRET, SSH_NEEDLE, RATCHET_NEEDLE, KEYRING_NEEDLE, PRIVATE_NEEDLE],
          privateFile,
          keyFile,
          sshFile: join(w.home, '.ssh', 'id_test'),
          ratchetFile: join(w.dir, '.ratchet', 'notes.txt'),
          outsideDir: w.outside,
          port: net.port,
          marker,
          unixSocket: join(w.tmp, 'daemon.sock'),
          abstractSocket: `ratchet-hostile-${marker}`,
        };
        const programs = TOGETHER.map((name) => hostileBlock(name, targets));
        const server = await startFakeServer({ apiKey: ROLE_SECRET, scenario: { code: { edits: 'serve', programs } } });
        try {
          const r = await search(who, tier, w, ['--base-url', server.url, '--proposals', String(programs.length), '--json'], undefined, { inherit: w.home, keyring: KEYRING_NEEDLE });
          const [runId] = runIds(w.dir);
          expect(runId, r.stderr).toBeDefined();
          const events = journal(w.dir, runId!);
          expect(events.at(-1)?.type, r.stderr).toBe('run/finished');

          // Which candidate ran which attack: the served program names itself.
          const named = new Map(ofType(events, 'candidate/proposed').flatMap((e) => (/\/\/ hostile: (.+)/.exec(e.text) ? [[e.candidateId, /\/\/ hostile: (.+)/.exec(e.text)![1]!]] : [])));
          expect([...named.values()].sort()).toEqual([...TOGETHER].sort());
          const evaluated = new Map(ofType(events, 'program/evaluated').map((e) => [named.get(e.candidateId) ?? e.candidateId, e]));
          const seed = evaluated.get('p0')!;
          expect(seed).toMatchObject({ correct: true, score: 1.9169561144739518 });

          // Never a commit, never a score above the seed's.
          expect(ofType(events, 'decision').filter((d) => d.record.decision === 'commit')).toEqual([]);
          for (const e of evaluated.values()) if (e.score !== undefined) expect(e.score).toBeLessThanOrEqual(seed.score!);

          const outcome = (name: string) => evaluated.get(name)!;
          const clean = (name: string) => expect(outcome(name), `${name}: ${JSON.stringify(outcome(name))}`).toMatchObject({ correct: true, score: seed.score });
          // The keys: nowhere the program could look (its own process tree; no Ratchet, no key in any environment it sees).
          for (const name of ['key from /proc/$PPID/environ', 'key from the environment', 'key from memory', 'a key in a system file']) clean(name);
          // A descriptor of HOME the CLI's launcher left open reaches no process of the evaluation: no way round the jail, in any tier.
          clean('an inherited descriptor');
          expect(existsSync(join(w.home, 'written-through-a-descriptor'))).toBe(false);
          // A key in the session keyring the CLI was started in: the jail's seccomp filter refuses the keyring calls;
          // without a jail the program keeps that keyring, and reads the key (docs/sandbox.md).
          if (tier.filesVisible) expect(outcome('a key in the session keyring')).toMatchObject({ correct: false, error: expect.stringMatching(/FOUND the session keyring/) });
          else clean('a key in the session keyring');
          // A kernel setting: /proc/sys is read-only in the jail, root or not; without one, root's program
          // is root to every sysctl (and every file root owns), as the pre-flight caveat and docs/sandbox.md say.
          if (tier.filesVisible && !who.asUser) expect(outcome('a kernel setting')).toMatchObject({ correct: false, error: expect.stringMatching(/FOUND kernel\.core_pattern written/) });
          else clean('a kernel setting');
          // The user's files: hidden in the jail; without one the program reads them, as the pre-flight line says.
          for (const name of ['reading ~/.ssh', "reading the workspace's .ratchet", 'a file in /etc only its owner may read']) {
            if (tier.filesVisible) expect(outcome(name), name).toMatchObject({ correct: false, error: expect.stringMatching(/FOUND /) });
            else clean(name);
          }
          const [preflight] = ofType(events, 'sandbox/preflight');
          expect(existsSync(join(w.outside, 'written-by-the-program'))).toBe(tier.filesVisible);
          expect(preflight).toMatchObject({ isolation: { tier: tier.filesVisible ? 'namespaces' : 'jail', network: 'off' }, setting: 'best' });
          // Root without a jail is told what its program can do to the machine.
          const rootWarning = preflight!.caveats.filter((c) => /^Ratchet runs as root without bubblewrap: the program is root to every file and kernel setting root owns/.test(c));
          expect(rootWarning.length).toBe(tier.filesVisible && !who.asUser ? 1 : 0);
          // No network, not even loopback: nothing reached the listener.
          clean('a local listener on 127.0.0.1');
          expect(net.received).toEqual([]);
          // An abstract unix socket belongs to the network namespace: out of reach with the network off, in either tier.
          clean('an abstract unix socket');
          expect(sockets.received.abstract).toEqual([]);
          // A unix socket by path is a file: hidden in the jail; without one the program reaches every
          // socket of the user's (the run daemon's, an ssh-agent's, a session bus'), as docs/sandbox.md says.
          if (tier.filesVisible) {
            expect(outcome('a unix socket by path')).toMatchObject({ correct: false, error: expect.stringMatching(/FOUND a connection to the socket/) });
            expect(sockets.received.path).toEqual(['exfiltrated']);
          } else {
            clean('a unix socket by path');
            expect(sockets.received.path).toEqual([]);
          }
          // The late writer died with the evaluation (its process tree), so the verdict is the evaluator's.
          clean('a late write of the result');
          clean('a double-forked setsid survivor');
          // Limits of the whole evaluation, named.
          expect(outcome('memory over the cap')).toMatchObject({ correct: false, error: expect.stringMatching(/^the evaluation hit its memory limit \(400 MB for all its processes\)/) });
          // A fork bomb is stopped one of two ways, both holding it: the watch sees the evaluation past
          // its 96 tasks and voids it, naming the limit; or the kernel's RLIMIT_NPROC refuses its forks
          // first — silently, as the kernel does (on a machine where the user's other tasks count
          // towards it, before the watch's look) — and the program, its bomb held, goes on. Either way
          // nothing of it is left running (below).
          const bomb = outcome('a bounded fork bomb');
          if (bomb.correct === false) expect(bomb.error).toMatch(/^the evaluation hit its process limit \(96 processes and threads\)/);
          else expect(who.asUser, 'as root no RLIMIT_NPROC applies: only the watch or a pids cgroup stops the bomb').toBe(true);
          expect(outcome('filling the disk')).toMatchObject({ correct: false });
          if (!tier.filesVisible) expect(outcome('filling the disk').error).toMatch(/disk limit|ENOSPC|no space/i);
          else expect(outcome('filling the disk').error).toMatch(/^the evaluation hit its disk limit \(64 MB in its sandbox\)/);
          // The evaluator keeps what the program printed out of its own stdout; Ratchet's pipe (a socket) cannot be opened through /proc.
          clean('a stdout flood');

          // Nothing of any evaluation is left running.
          await until('no leftover process', () => processesWith(marker).length === 0, 20_000);
          // The keys, as they are and reversed (a leak redaction could not hide), are nowhere: not in
          // what the CLI printed, what the run wrote, or what the proposer was sent.
          const written = [...filesUnder(join(w.dir, '.ratchet')), { path: 'stdout', text: r.stdout }, { path: 'stderr', text: r.stderr }, ...server.calls.map((c, i) => ({ path: `request ${i}`, text: JSON.stringify(c.body) }))];
          for (const secret of [SECRET, ROLE_SECRET]) {
            expect(
              written.filter((f) => f.text.includes(secret) || f.text.includes(reversed(secret))).map((f) => f.path),
              secret,
            ).toEqual([]);
          }
          // The run says how isolated its evaluations were.
          const show = execFileSync(process.execPath, [CLI, 'runs', 'show', runId!, '-w', w.dir], { encoding: 'utf8' });
          expect(show).toMatch(
            tier.filesVisible ? /\nSandbox: partly isolated: own process tree, no network; the program can read your files \(\d+ programs\)/ : /\nSandbox: isolated: no network, no home, own process tree \(\d+ programs\)/,
          );
          // …and its pre-flight line, as the CLI printed it.
          expect(show).toMatch(
            tier.filesVisible
              ? /sandbox\/preflight\s+partly isolated: own process tree, no network; the program can read your files \(evaluator\.isolation: best; jail: none \(RATCHET_BWRAP=off turns bubblewrap off\)\)/
              : /sandbox\/preflight\s+isolated: no network, no home, own process tree \(evaluator\.isolation: best; jail: bubblewrap /,
          );
          // A memory hit is on its program's line.
          expect(show).toMatch(/program\/evaluated\s+p\d+ incorrect: the evaluation hit its memory limit \(400 MB for all its processes\)/);
        } finally {
          await server.close();
          net.server.close();
          for (const s of sockets.servers) s.close();
          rmSync(privateFile, { force: true });
          rmSync(keyFile, { force: true });
        }
      }, 300_000);

      it(`${tier.label}, ${who.label}: a program that edits the evaluator changes nothing the run evaluates with`, async (ctx) => {
        if (who.asUser && !user) ctx.skip(`the non-root run needs root to make a throwaway user (useradd); this test runs as uid ${process.getuid?.()}`);
        const w = workspace(who);
        const targets: Targets = { needles: [], sshFile: '', ratchetFile: '', outsideDir: w.dir, port: 1, marker: '0', stageRoot: w.tmp };
        const server = await startFakeServer({ apiKey: ROLE_SECRET, scenario: { code: { edits: 'serve', programs: [hostileBlock('editing the evaluator', targets)] } } });
        const before = readFileSync(join(w.dir, 'evaluate.mjs'), 'utf8');
        try {
          const r = await search(who, tier, w, ['--base-url', server.url, '--proposals', '2', '--json']);
          const events = journal(w.dir, runIds(w.dir)[0]!);
          expect(ofType(events, 'decision').filter((d) => d.record.decision === 'commit')).toEqual([]);
          if (!tier.filesVisible) {
            // In the jail the workspace and the stage are out of reach: the evaluator is as it was, the run goes on.
            expect(readFileSync(join(w.dir, 'evaluate.mjs'), 'utf8')).toBe(before);
            expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
          } else {
            // Without one, the program rewrote the user's evaluator (reported) and the run's staged copy: the run stops rather than mix two evaluators.
            expect(readFileSync(join(w.dir, 'evaluate.mjs'), 'utf8')).toContain('// forged');
            expect(ofType(events, 'log').map((e) => e.message)).toContainEqual(expect.stringMatching(/^evaluate\.mjs changed in the workspace during the run; this run goes on evaluating with the copies staged at its start/));
            expect(events.at(-1)).toMatchObject({
              type: 'run/failed',
              error: { code: 'fileChanged', message: expect.stringMatching(/^The run's staged copy of evaluate\.mjs changed during the run.*rather than mix results of two evaluators/) },
            });
            expect(r.code).toBe(2);
          }
        } finally {
          await server.close();
        }
      }, 120_000);
    }
  }

  it('isolation: required with RATCHET_BWRAP=off refuses before anything runs or is spent, saying how to install bubblewrap', async () => {
    const who = WHO[0]!;
    const w = workspace(who, { isolation: 'required' });
    const server = await startFakeServer({ apiKey: ROLE_SECRET, scenario: {} });
    try {
      const r = await search(who, TIERS.at(-1)!, w, ['--base-url', server.url, '--proposals', '1']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^ratchet: evaluator\.isolation is required, and this machine cannot jail the evaluation: RATCHET_BWRAP=off turns bubblewrap off\. Install bubblewrap \(docs\/sandbox\.md\), or set evaluator\.isolation: best/);
      expect(runIds(w.dir)).toEqual([]);
      expect(server.calls).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(!linux)('an ordinary user (#26)', () => {
  for (const tier of TIERS) {
    it(`${tier.label}: with 200 threads of that user alive, the shipped example evaluates and a search commits`, async (ctx) => {
      if (!user) ctx.skip(`needs root to make a throwaway user (useradd); this test runs as uid ${process.getuid?.()}`);
      const who = WHO[1]!;
      const w = workspace(who);
      writeFileSync(join(w.dir, 'pack.mjs.ratchet.yaml'), readFileSync('examples/code/circle-packing/pack.mjs.ratchet.yaml', 'utf8'));
      execFileSync('chown', [`${user!.uid}:${user!.gid}`, join(w.dir, 'pack.mjs.ratchet.yaml')]);
      // 200 threads of the user, as a desktop session has: RLIMIT_NPROC counts them all.
      const threads = spawn('python3', ['-c', 'import threading, time\nfor _ in range(200): threading.Thread(target=time.sleep, args=(300,), daemon=True).start()\nprint("up", flush=True)\ntime.sleep(300)'], {
        uid: user!.uid,
        gid: user!.gid,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      await new Promise<void>((r) => threads.stdout.once('data', () => r()));
      // The example's own spec: its proposer's key is OPENAI_API_KEY.
      const server = await startFakeServer({ apiKey: SECRET, scenario: {} });
      try {
        const alive = Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${threads.pid}/status`, 'utf8'))?.[1]);
        expect(alive).toBeGreaterThanOrEqual(200);
        const r = await search(who, tier, w, ['--base-url', server.url, '--model', 'sim-proposer', '--evaluations', '60', '--json']);
        const events = journal(w.dir, runIds(w.dir)[0]!);
        expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
        const evaluated = ofType(events, 'program/evaluated');
        // Every program evaluates: an incorrect one is the evaluator's verdict on its packing, never an
        // evaluation that died for the user's other threads (a refused fork, a limit, a signal).
        expect(evaluated[0]).toMatchObject({ candidateId: 'p0', correct: true });
        expect(evaluated.filter((e) => !e.correct && !/^invalid packing: /.test(e.error ?? '')).map((e) => e.error)).toEqual([]);
        expect(evaluated.every((e) => (e.incidents ?? []).length === 0)).toBe(true);
        expect(ofType(events, 'decision').filter((d) => d.record.decision === 'commit').length).toBeGreaterThan(0);
      } finally {
        threads.kill('SIGKILL');
        await server.close();
      }
    }, 300_000);
  }
});

describe.skipIf(!linux)('Ratchet killed with SIGKILL mid-evaluation (#26)', () => {
  for (const tier of TIERS) {
    it(`${tier.label}: no process of the evaluation is left 3 s later, and the next start sweeps its folders`, async () => {
      const who = WHO[0]!;
      const w = workspace(who);
      const marker = String(3_000_000 + Math.floor(Math.random() * 5_000_000));
      // An evaluator that starts a child, a setsid grandchild, and waits: the kill comes while it runs.
      writeFileSync(join(w.dir, 'slow.mjs'), `import { spawn } from 'node:child_process';\nspawn('sh', ['-c', 'sleep ${marker} & setsid sleep ${marker} & wait'], { stdio: 'ignore' });\nsetTimeout(() => {}, 600000);\n`);
      writeFileSync(
        join(w.dir, 'pack.mjs.ratchet.yaml'),
        ['kind: code', 'evaluator:', '  command: node slow.mjs {program}', '  supportFiles: [slow.mjs]', '  timeoutSeconds: 600', 'models:', '  proposer: { model: sim-proposer, apiKeyEnv: TEAM_LLM }', ''].join('\n'),
      );
      const server = await startFakeServer({ apiKey: ROLE_SECRET, scenario: {} });
      try {
        let pid = 0;
        const running = search(who, tier, w, ['--base-url', server.url, '--proposals', '1'], (p) => (pid = p));
        const sleeps = `sleep\0${marker}`;
        try {
          await until('the evaluation to start its processes', () => processesWith(sleeps).length === 2, 60_000);
        } finally {
          process.kill(pid, 'SIGKILL');
        }
        await running;
        const killedAt = Date.now();
        await until('no process of the evaluation', () => processesWith(marker).length === 0, 3_000);
        expect(Date.now() - killedAt).toBeLessThanOrEqual(3_000);
        // Its sandbox folder and its staged files are still there: nothing of the dead process removed them.
        const left = readdirSync(w.tmp).filter((n) => n.startsWith(`ratchet-eval-${pid}-`) || n.startsWith(`ratchet-stage-${pid}-`));
        expect(left.length).toBe(2);
        // The next start sweeps them, and says so.
        writeFileSync(
          join(w.dir, 'pack.mjs.ratchet.yaml'),
          ['kind: code', 'evaluator:', '  command: node evaluate.mjs {program}', '  supportFiles: [evaluate.mjs]', 'models:', '  proposer: { model: sim-proposer, apiKeyEnv: TEAM_LLM }', ''].join('\n'),
        );
        const next = await search(who, tier, w, ['--base-url', server.url, '--proposals', '1', '--json']);
        expect(next.code, next.stderr).not.toBe(2);
        expect(readdirSync(w.tmp).filter((n) => n.includes(`-${pid}-`))).toEqual([]);
        const second = runIds(w.dir)
          .map((id) => journal(w.dir, id))
          .find((e) => e.at(-1)?.type === 'run/finished')!;
        expect(ofType(second, 'sandbox/preflight')[0]!.swept).toBe(`swept 2 sandbox folders left by Ratchet process that died (pid ${pid})`);
      } finally {
        await server.close();
      }
    }, 180_000);
  }
});

afterAll(() => {
  for (const base of made) rmSync(base, { recursive: true, force: true });
});
