/**
 * Where an evaluation runs: the isolation tier it gets (src/core/code/isolation.ts says what each
 * means) and the argv that builds it around the evaluator's command.
 *
 * The jail is bubblewrap, as Flatpak uses it: new user, pid, mount, ipc, uts and cgroup namespaces
 * (and net unless `network: on`), its own /proc and /dev, capabilities dropped, killed with its
 * parent, in a new session (no terminal to inject keys into), the kernel keyrings out of reach
 * (seccomp.ts). What the program sees:
 * - `/sandbox`, its working directory: a tmpfs the size of the disk limit holding its own copy of
 *   the program (writable) and the support files (read-only binds of the copies staged for the
 *   run); HOME and TMPDIR are folders in it and /tmp points there; /dev/shm is a tmpfs of the same
 *   size; nothing else is writable (/, /dev are read-only);
 * - `/ratchet/results` (only when the command names {results}), `/ratchet/instances.txt`,
 *   `/ratchet/task` (a ShinkaEvolve task's staged evaluate.py);
 * - the system read-only: /usr, /etc (but its secrets: shadow, ssh, ssl/private, …, and whatever in
 *   /etc and /opt not every user may read), /opt, the
 *   /bin-style links, the CPU topology; and each toolchain on PATH read-only (a PATH folder, or its
 *   install prefix when it is a `bin` or `shims` folder: ~/.nvm/versions/node/v22, ~/.pyenv, a venv).
 * No home, no workspace, no `.ratchet`, no /run/user, no other process.
 *
 * Without bubblewrap, `unshare` still gives a pid namespace (the evaluation cannot see Ratchet or
 * any other process, and dies with its evaluator) and no network; the files are the user's. Without
 * either, only a process group, the limits and a clean environment are left.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, readFile, readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { RatchetError } from '../../core/errors';
import { tierFacts } from '../../core/code/isolation';
import type { IsolationSetting, IsolationTier } from '../../core/code/isolation';
import type { SandboxCaps } from './sandboxCaps';

/** Paths inside the jail: fixed, so an evaluation's outputs never name the host's folders. */
export const JAIL = {
  work: '/sandbox',
  home: '/sandbox/home',
  tmp: '/sandbox/tmp',
  results: '/ratchet/results',
  instances: '/ratchet/instances.txt',
  task: '/ratchet/task',
} as const;

/** The tier a request gets on this machine, or a `badInput` refusal for `required` without a jail. */
export function chooseTier(setting: IsolationSetting, caps: SandboxCaps): IsolationTier {
  if (setting === 'off') return 'off';
  if (caps.bwrap.ok) return 'jail';
  if (setting === 'required') {
    throw new RatchetError(
      'badInput',
      `evaluator.isolation is required, and this machine cannot jail the evaluation: ${caps.bwrap.reason}. Install bubblewrap (docs/sandbox.md), or set evaluator.isolation: best to run with what the machine offers (${caps.unshare.ok ? 'its own process tree and no network, but your files readable' : 'no isolation: the program could read your files and see your processes'}).`,
      { field: 'evaluator.isolation' },
    );
  }
  return caps.unshare.ok ? 'namespaces' : 'none';
}

/** What the jail is built from, on the host. */
export interface JailInput {
  tier: IsolationTier;
  caps: SandboxCaps;
  network: 'off' | 'on';
  diskBytes: number;
  /** The evaluator's PATH (its toolchains become visible) and its command's first word, resolved on the host. */
  pathVar: string;
  executable: string | undefined;
  /** The program's copy on the host and its name inside. */
  program: { host: string; name: string };
  /** Staged support files: host path → name inside the working directory. */
  support: { host: string; to: string }[];
  results?: string;
  instances?: string;
  task?: string;
  /** What of /etc and /opt the jail masks (privateSystemEntries). */
  privateEntries?: readonly string[];
  /** The descriptor bubblewrap reads its seccomp filter from (seccomp.ts), where there is one. */
  seccompFd?: number;
  /** Folders never to expose, with everything above them (the workspace, HOME). */
  hidden: string[];
}

/** The argv that runs a command in the tier: `[...prefix, ...command]`; `inner` is what must run inside it (the process cap). */
export function jailArgv(j: JailInput, inner: string[]): string[] {
  if (j.tier === 'jail') return [...bwrapArgv(j), '--', ...inner];
  if (j.tier === 'namespaces' && j.caps.unshare.ok) {
    // A shell is the namespace's first process and runs the evaluator as its child: it reports a
    // death by signal (a limit's SIGXCPU) as 128 + n, which unshare passes on as it cannot a signal.
    return [...pdeathsig(j.caps), ...j.caps.unshare.argv, ...(j.network === 'off' ? j.caps.unshare.network : []), '--', '/bin/sh', '-c', '"$@"; exit $?', 'ratchet-init', ...inner];
  }
  return [...pdeathsig(j.caps), ...inner];
}

/** The first process of the evaluation gets SIGKILL when Ratchet dies (its pid namespace, if any, goes with it). */
function pdeathsig(caps: SandboxCaps): string[] {
  return caps.setpriv.ok ? ['setpriv', '--pdeathsig', 'KILL', '--'] : [];
}

/** The system, read-only. Links such as /bin → usr/bin (merged /usr) are made as links. */
const SYSTEM_DIRS = ['/usr', '/etc', '/opt', '/nix/store', '/gnu/store'];
const SYSTEM_LINKS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** Secrets /etc holds on some machines; masked inside the jail (a file by /dev/null, a folder by an empty tmpfs). */
const ETC_SECRETS = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/sudoers',
  '/etc/sudoers.d',
  '/etc/ssh',
  '/etc/ssl/private',
  '/etc/krb5.keytab',
  '/etc/NetworkManager/system-connections',
  '/etc/wpa_supplicant',
  '/etc/wireguard',
  '/etc/openvpn',
  '/etc/ppp',
  '/etc/ipsec.d',
  '/etc/letsencrypt',
  '/etc/docker',
];

function bwrapArgv(j: JailInput): string[] {
  if (!j.caps.bwrap.ok) throw new Error('bwrapArgv without bubblewrap');
  const a = [j.caps.bwrap.path, '--unshare-all', ...(j.network === 'on' ? ['--share-net'] : []), '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--hostname', 'ratchet-sandbox'];
  if (j.seccompFd !== undefined) a.push('--seccomp', String(j.seccompFd));
  for (const dir of SYSTEM_DIRS) a.push('--ro-bind-try', dir, dir);
  for (const link of SYSTEM_LINKS) {
    const target = linkTarget(link);
    if (target !== undefined) a.push('--symlink', target, link);
    else a.push('--ro-bind-try', link, link);
  }
  const masked = new Set<string>();
  const mask = (p: string, dir: boolean) => {
    if (masked.has(p)) return;
    masked.add(p);
    if (dir) a.push('--tmpfs', p, '--remount-ro', p);
    else a.push('--ro-bind', '/dev/null', p);
  };
  for (const secret of ETC_SECRETS) if (existsSync(secret)) mask(secret, lstatSync(secret).isDirectory());
  // The walk is up to a minute old: an entry gone since (a lock file that useradd or passwd made
  // and removed) has no mount point left, and bubblewrap would refuse to start — every evaluation
  // failed until the next walk. Each is masked as it is now; a link is left (it is not followed).
  for (const p of j.privateEntries ?? []) {
    const now = lstatOrUndefined(p);
    if (now !== undefined && (now.isDirectory() || now.isFile())) mask(p, now.isDirectory());
  }
  // The workspace and HOME where a system folder bound whole holds them (a workspace in /opt or
  // /usr/local/src): an empty tmpfs over each, read-only once the toolchains inside are bound.
  const maskedHidden = hiddenInSystem(j.hidden);
  for (const h of maskedHidden) a.push('--tmpfs', h);
  // Numeric libraries read the CPU topology to size their thread pools.
  a.push('--ro-bind-try', '/sys/devices/system/cpu', '/sys/devices/system/cpu');
  const toolchains = toolchainBinds(j);
  // /tmp itself is never a toolchain: it would show every user's temporary files.
  for (const [from, to] of toolchains) if (underJailTmp(to) === undefined && to !== '/tmp' && to !== '/var/tmp') a.push('--ro-bind', from, to);
  // bubblewrap's /dev and its root are tmpfs without a size: each would hold half the machine's
  // memory, past the disk limit and unseen by a watch of resident memory. /dev/shm (POSIX shared
  // memory, Python's semaphores) gets a tmpfs capped like the sandbox's; the rest of /dev, and the
  // root below, are read-only.
  // /proc/sys read-only: a sysctl asks for no capability, only that the writer is root, and
  // Ratchet run as root makes the program root of its user namespace — which the kernel takes for
  // the machine's root there, so kernel.core_pattern (a command the kernel runs as root on any
  // crash) was the program's to set. bubblewrap covers /proc/sys only when it finds it writable,
  // which a folder that is not, holding files that are, never is. sysrq-trigger likewise.
  a.push('--proc', '/proc', '--ro-bind', '/proc/sys', '/proc/sys', '--ro-bind-try', '/proc/sysrq-trigger', '/proc/sysrq-trigger');
  a.push('--dev', '/dev', '--size', String(j.diskBytes), '--tmpfs', '/dev/shm', '--remount-ro', '/dev');
  a.push('--size', String(j.diskBytes), '--tmpfs', JAIL.work, '--dir', JAIL.home, '--dir', JAIL.tmp, '--symlink', JAIL.tmp, '/tmp', '--dir', '/var', '--symlink', JAIL.tmp, '/var/tmp');
  // A toolchain under /tmp (a Node unpacked there, a CI checkout's own tools): inside, /tmp is a
  // link to the jail's tmp, and bubblewrap makes no folder through a link, so it goes where the
  // link leads — at the same path as seen from inside.
  for (const [from, to] of toolchains) {
    const inTmp = underJailTmp(to);
    if (inTmp !== undefined) a.push('--ro-bind', from, inTmp);
  }
  a.push('--bind', j.program.host, path.posix.join(JAIL.work, j.program.name));
  for (const s of j.support) a.push('--ro-bind', s.host, path.posix.join(JAIL.work, s.to));
  if (j.results !== undefined) a.push('--bind', j.results, JAIL.results);
  if (j.instances !== undefined) a.push('--ro-bind', j.instances, JAIL.instances);
  if (j.task !== undefined) a.push('--ro-bind', j.task, JAIL.task);
  // Last, when every mount point on it is made: the root's tmpfs (/, /var, /ratchet) is read-only.
  for (const h of maskedHidden) a.push('--remount-ro', h);
  a.push('--remount-ro', '/', '--chdir', JAIL.work);
  return a;
}

/** System folders walked for what not every user may read, and how many entries at most. */
const WALKED = ['/etc', '/opt'];
const WALK_LIMIT = 100_000;
const WALK_EVERY_MS = 60_000;
/** Files of /etc up to this size are read for the keys Ratchet knows. */
const KEY_SCAN_BYTES = 1024 * 1024;
/** Shorter values are too likely to occur by chance to be matched as keys (sandboxEnv.ts's rule). */
const MIN_SECRET_LENGTH = 8;
let walked: { at: number; secrets: string; entries: Promise<string[]> } | undefined;

/**
 * The entries of /etc and /opt that not every user may read — a file without read for others, a
 * folder without read and search — masked in the jail (a file by /dev/null, a folder by an empty
 * tmpfs): the program sees of the system what any user of the machine sees. Ratchet run as root
 * makes its program root of a user namespace, the owner of root's files: it read
 * /etc/mysql/debian.cnf, a Slurm database's password, old password hashes. So is a file of /etc
 * that holds a key Ratchet knows, whoever may read it. A folder masked is not walked; links are not
 * followed. Walked at most once a minute (concurrent evaluations share the walk), without blocking
 * (a language server runs it), and at most WALK_LIMIT entries (docs/sandbox.md says so).
 */
export function privateSystemEntries(secrets: readonly string[] = [], now: number = Date.now()): Promise<string[]> {
  const keys = secrets.filter((k) => k.length >= MIN_SECRET_LENGTH);
  const keyId = createHash('sha256').update(JSON.stringify(keys)).digest('hex');
  if (walked !== undefined && walked.secrets === keyId && now - walked.at < WALK_EVERY_MS) return walked.entries;
  walked = { at: now, secrets: keyId, entries: walk(keys) };
  return walked.entries;
}

async function walk(keys: readonly string[]): Promise<string[]> {
  const entries: string[] = [];
  let seen = 0;
  const pending = WALKED.filter((d) => existsSync(d));
  while (pending.length > 0 && seen < WALK_LIMIT) {
    const dir = pending.pop()!;
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (++seen > WALK_LIMIT) break;
      const p = path.join(dir, name);
      const st = await lstat(p).catch(() => undefined);
      if (st === undefined) continue;
      if (st.isDirectory()) {
        if ((st.mode & 0o005) !== 0o005) entries.push(p);
        else pending.push(p);
      } else if (st.isFile() && ((st.mode & 0o004) === 0 || (keys.length > 0 && p.startsWith('/etc/') && st.size <= KEY_SCAN_BYTES && (await holdsKey(p, keys))))) {
        entries.push(p);
      }
    }
  }
  return entries;
}

/** Whether the file holds one of the keys (a key exported in /etc/environment or /etc/profile.d is every user's to read). */
async function holdsKey(p: string, keys: readonly string[]): Promise<boolean> {
  const text = await readFile(p, 'latin1').catch(() => '');
  return keys.some((k) => text.includes(k));
}

/** Where `p` lies inside the jail when it is under /tmp or /var/tmp (both links to the jail's tmp); undefined elsewhere. */
function underJailTmp(p: string): string | undefined {
  for (const link of ['/tmp', '/var/tmp']) if (p.startsWith(`${link}/`)) return path.posix.join(JAIL.tmp, p.slice(link.length));
  return undefined;
}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

function linkTarget(p: string): string | undefined {
  if (!lstatOrUndefined(p)?.isSymbolicLink()) return undefined;
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}

/**
 * The toolchains the evaluator may need, read-only at their own paths: each PATH folder and the
 * command's own folder, widened to the install prefix when it is a `bin`, `sbin` or `shims` folder
 * (a prefix holds the interpreter's libraries: ~/.pyenv, a venv, ~/.nvm/versions/node/v22). A
 * folder that is HOME, holds the workspace or HOME, or is itself a workspace (it has `.ratchet`)
 * is never exposed whole; ~/.local gives only its bin and lib.
 */
export function toolchainBinds(j: Pick<JailInput, 'pathVar' | 'executable' | 'hidden'>): [string, string][] {
  const home = homedir();
  const hidden = [...j.hidden, home].map((h) => path.resolve(h));
  const exposes = (dir: string) => dir === '/' || hidden.some((h) => h === dir || h.startsWith(`${dir}/`)) || existsSync(path.join(dir, '.ratchet'));
  // A toolchain inside a hidden folder a system folder holds (a venv in a workspace under /opt) is masked with it: bound on its own.
  const masked = hiddenInSystem(j.hidden);
  const covered = (dir: string) => inSystem(dir) && !masked.some((h) => dir === h || dir.startsWith(`${h}/`));
  const binds = new Map<string, string>();
  const dirs = j.pathVar.split(':').filter((d) => path.isAbsolute(d));
  if (j.executable !== undefined && path.isAbsolute(j.executable)) dirs.unshift(path.dirname(j.executable));
  for (const dir of dirs) {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      continue;
    }
    for (const [from, to] of widen(real, dir, home)) if (!exposes(from) && !covered(to) && existsSync(from)) binds.set(to, from);
  }
  // Widest first; a folder inside one already bound is not bound again.
  const sorted = [...binds.entries()].sort((a, b) => a[0].length - b[0].length);
  return sorted.filter(([to], i) => !sorted.slice(0, i).some(([t]) => to.startsWith(`${t}/`))).map(([to, from]) => [from, to]);
}

/** Whether the jail's system binds (/usr, /etc, /opt, …) show `dir`. */
function inSystem(dir: string): boolean {
  return [...SYSTEM_DIRS, ...SYSTEM_LINKS].some((s) => dir === s || dir.startsWith(`${s}/`));
}

/** The hidden folders (the workspace, HOME) that a system bind would show, at their real paths: the jail masks them. */
function hiddenInSystem(hidden: readonly string[]): string[] {
  const out = new Set<string>();
  for (const h of [...hidden, homedir()]) {
    for (const p of [path.resolve(h), realOrUndefined(h)]) if (p !== undefined && p !== '/' && inSystem(p) && existsSync(p)) out.add(p);
  }
  return [...out];
}

function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * A PATH folder's binds: its install prefix when it is a bin/shims folder of one (the prefix holds
 * lib, libexec, versions or a venv's pyvenv.cfg — not ~/.cargo, whose credentials sit beside its
 * bin), else itself; at its real path and, if PATH names it through a link, there too.
 */
function widen(real: string, named: string, home: string): [string, string][] {
  const local = path.join(home, '.local');
  const base = path.basename(real);
  const parent = path.dirname(real);
  const prefixLike = ['lib', 'lib64', 'libexec', 'versions', 'pyvenv.cfg'].some((n) => existsSync(path.join(parent, n)));
  let froms: string[];
  if (parent === local) froms = [real, path.join(local, 'lib')];
  else if (['bin', 'sbin', 'shims'].includes(base) && parent !== home && parent !== '/' && prefixLike) froms = [parent];
  else froms = [real];
  const out: [string, string][] = froms.map((f) => [f, f]);
  if (path.resolve(named) !== real) out.push([real, path.resolve(named)]);
  return out;
}

/** Whether the tier keeps the evaluation's processes in a namespace of their own (they die with the evaluator). */
export function ownsProcesses(tier: IsolationTier): boolean {
  return tierFacts(tier).ownProcesses;
}
