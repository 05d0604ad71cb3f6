/**
 * Starts the real VS Code (code-server 4.139.1 on Node 24) for the e2e specs and for
 * scripts/start.mjs. Everything code-server writes — user data, extensions, its own config with a
 * generated password, sockets, caches — goes under one run folder, so runs never see each other or
 * the developer's own VS Code. No node_modules import here: scripts/start.mjs bundles this module.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { codeServerEntry, node24 } from './paths';
import { stopGroup, stopRunDaemons, trackGroup, trackRunDaemons } from './processGroups';

export { shutdownSignal } from './processGroups';

/**
 * User settings that keep a fresh profile quiet: no welcome page, tips, telemetry, updates or chat.
 * `npm start` (scripts/start.mjs) and every spec session get them.
 */
export const quietUserSettings: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  // With chat off the secondary side bar would open empty beside the editor, squeezing the
  // Ratchet panel that opens there too (and taking a fifth of every screenshot).
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'workbench.tips.enabled': false,
  'chat.disableAIFeatures': true,
};

export interface CodeServerOptions {
  /** Per-run folder; created if missing. code-server's whole state lives under it. */
  runDir: string;
  /** The folder the workbench opens (`?folder=`). */
  folder: string;
  /** Leave Workspace Trust on (only the trust specs want this; every other run disables it). */
  workspaceTrust?: boolean;
  /**
   * Extra environment for code-server; the extension host and Ratchet's language server inherit it.
   * This is the hook that points Ratchet's endpoint at the fake OpenAI-compatible server.
   */
  env?: Record<string, string>;
  /** Merged over `quietUserSettings` into the profile's settings.json (e.g. `ratchet.*`). */
  userSettings?: Record<string, unknown>;
  /** Port on 127.0.0.1; 0 or absent picks a free one. */
  port?: number;
  /** Receives each line code-server prints (start.mjs echoes them; the specs only log to file). */
  onOutput?: (line: string) => void;
  /** Bound on spawn → /healthz answering. */
  startTimeoutMs?: number;
  /**
   * `--log`: at `trace` the extension host logs each provider call and command it runs (what
   * bench:editor's traces read). It slows the window: a reload's old extension host took 5 s more
   * to exit at `trace`. Absent: code-server's default (info).
   */
  logLevel?: 'trace' | 'debug';
}

export interface CodeServer {
  readonly port: number;
  /** The workbench with `folder` open. */
  readonly url: string;
  readonly pid: number;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** code-server's stdout and stderr. */
  readonly logFile: string;
  /** Date.now() just before spawn, so callers can time start → workbench ready. */
  readonly spawnedAt: number;
  /** Date.now() when /healthz first answered. */
  readonly healthyAt: number;
  /** Settles when code-server itself exits, with how it ended (start.mjs exits with it). */
  readonly exited: Promise<string>;
  /** Stops the whole process group (code-server, extension host, language servers, watchers) and Ratchet's run daemons. */
  stop(): Promise<void>;
}

interface RunLayout {
  userDataDir: string;
  extensionsDir: string;
  configFile: string;
  env: NodeJS.ProcessEnv;
}

/** Asks the kernel for a free port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('freePort: no address'))));
    });
  });
}

function assertInstalled(): void {
  for (const [what, path] of [
    ['Node 24', node24],
    ['code-server', codeServerEntry],
  ] as const) {
    if (!existsSync(path)) throw new Error(`${what} is missing at ${path}: run \`bash scripts/e2e-setup.sh\` first`);
  }
}

/**
 * The environment every code-server process of a run gets. Variables a surrounding VS Code or npm
 * leaves behind are dropped: VSCODE_IPC_HOOK_CLI would send `--install-extension` to the outer
 * editor, ELECTRON_RUN_AS_NODE/NODE_OPTIONS change how Node boots, and PORT overrides bind-addr.
 */
function runEnv(runDir: string, extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE' || key === 'NODE_OPTIONS' || key === 'PORT') continue;
    env[key] = value;
  }
  return {
    ...env,
    XDG_CONFIG_HOME: join(runDir, 'xdg', 'config'),
    XDG_DATA_HOME: join(runDir, 'xdg', 'data'),
    XDG_CACHE_HOME: join(runDir, 'xdg', 'cache'),
    TMPDIR: join(runDir, 'tmp'),
    ...extra,
  };
}

async function prepareRun(runDir: string, port: number, opts: Pick<CodeServerOptions, 'env'>): Promise<RunLayout> {
  const layout: RunLayout = {
    userDataDir: join(runDir, 'user-data'),
    extensionsDir: join(runDir, 'extensions'),
    configFile: join(runDir, 'code-server.yaml'),
    env: runEnv(runDir, opts.env),
  };
  for (const dir of [layout.userDataDir, layout.extensionsDir, ...['config', 'data', 'cache'].map((d) => join(runDir, 'xdg', d)), join(runDir, 'tmp')]) {
    await mkdir(dir, { recursive: true });
  }
  // A config file rather than flags: without one code-server writes its own, with password auth.
  await writeFile(layout.configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  return layout;
}

/**
 * Writes the profile's settings.json. A reused profile (start.mjs) keeps the developer's own
 * settings: ours are merged over a plain-JSON file, and a file with comments (JSONC) is left alone.
 */
async function writeUserSettings(userDataDir: string, overrides: Record<string, unknown> | undefined): Promise<void> {
  const file = join(userDataDir, 'User', 'settings.json');
  let existing: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      existing = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    } catch {
      return;
    }
  }
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ ...existing, ...quietUserSettings, ...overrides }, null, 2)}\n`);
}

/** The flags shared by the install and the server run, so both see the same profile. */
function profileArgs(layout: RunLayout): string[] {
  return ['--config', layout.configFile, '--user-data-dir', layout.userDataDir, '--extensions-dir', layout.extensionsDir];
}

/** Collects a child's output line by line into a log file, an optional sink and a short tail for errors. */
function captureOutput(child: ChildProcess, logFile: string, onOutput?: (line: string) => void): { tail: () => string; closed: Promise<void> } {
  const log = createWriteStream(logFile, { flags: 'a' });
  const lines: string[] = [];
  const take = (chunk: Buffer) => {
    log.write(chunk);
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > 40) lines.shift();
      onOutput?.(line);
    }
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const closed = new Promise<void>((resolve) => child.once('close', () => log.end(resolve)));
  return { tail: () => lines.join('\n'), closed };
}

/**
 * Installs a .vsix into the run's extensions dir with code-server's own CLI (`--force` so a rebuilt
 * .vsix with an unchanged version replaces the installed one in a reused profile).
 */
export async function installExtension(runDir: string, vsix: string, opts: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<void> {
  assertInstalled();
  if (!existsSync(vsix)) throw new Error(`installExtension: ${vsix} does not exist (run \`npm run package\`)`);
  const layout = await prepareRun(runDir, 0, { env: opts.env });
  const child = spawn(node24, [codeServerEntry, ...profileArgs(layout), '--install-extension', vsix, '--force'], {
    cwd: runDir,
    env: layout.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pgid = trackGroup(child);
  const output = captureOutput(child, join(runDir, 'install-extension.log'));
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server --install-extension ${vsix} did not finish within ${timeoutMs} ms:\n${output.tail()}`)), timeoutMs);
    child.once('error', reject);
    child.once('exit', (status) => {
      clearTimeout(timer);
      resolve(status);
    });
  }).finally(() => stopGroup(pgid, 1_000));
  await output.closed;
  if (code !== 0) throw new Error(`code-server --install-extension ${vsix} exited with ${code}:\n${output.tail()}`);
}

/** Starts code-server and resolves once it answers /healthz; the caller must `stop()` it. */
export async function startCodeServer(opts: CodeServerOptions): Promise<CodeServer> {
  assertInstalled();
  const port = opts.port || (await freePort());
  const layout = await prepareRun(opts.runDir, port, opts);
  await writeUserSettings(layout.userDataDir, opts.userSettings);
  const args = [
    codeServerEntry,
    ...profileArgs(layout),
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--locale',
    'en',
    ...(opts.logLevel ? ['--log', opts.logLevel] : []),
    ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
  ];
  const logFile = join(opts.runDir, 'code-server.log');
  const spawnedAt = Date.now();
  const child = spawn(node24, args, { cwd: opts.runDir, env: layout.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pgid = trackGroup(child);
  trackRunDaemons(layout.extensionsDir);
  const output = captureOutput(child, logFile, opts.onOutput);
  let exited: string | undefined;
  const exitedPromise = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve((exited = `exited (code ${code}, signal ${signal})`)));
    child.once('error', (err) => resolve((exited = `failed to spawn: ${err.message}`)));
  });

  const stop = async () => {
    await stopGroup(pgid);
    await stopRunDaemons(layout.extensionsDir);
    await output.closed;
  };
  const base = `http://127.0.0.1:${port}`;
  const timeoutMs = opts.startTimeoutMs ?? 60_000;
  const deadline = spawnedAt + timeoutMs;
  // Poll /healthz (code-server's liveness endpoint) rather than parse its banner, whose wording changes.
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`code-server ${exited} before answering ${base}/healthz:\n${output.tail()}`);
    }
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer ${base}/healthz within ${timeoutMs} ms:\n${output.tail()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    // Slashes left readable: the URL is printed for people (code-server accepts both forms).
    url: `${base}/?folder=${encodeURIComponent(opts.folder).replace(/%2F/g, '/')}`,
    pid: pgid,
    userDataDir: layout.userDataDir,
    extensionsDir: layout.extensionsDir,
    logFile,
    spawnedAt,
    healthyAt: Date.now(),
    exited: exitedPromise,
    stop,
  };
}
