// `npm start`: the real VS Code (code-server) in your browser with the Ratchet you just
// built installed and the repository's own examples/ folder open, so edits made there are real.
// Builds and packages only when the sources are newer than ratchet.vsix (or with --rebuild), reuses
// the e2e harness's code-server launcher, prints the URL, and on Ctrl+C / SIGTERM stops
// code-server's whole process group (extension host and Ratchet's language server included) and
// Ratchet's run daemon (a run in progress is then interrupted, and resumable next time).
//
// Usage: node scripts/start.mjs [--port N] [--rebuild] [--workspace-trust]
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: opts } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    rebuild: { type: 'boolean', default: false },
    'workspace-trust': { type: 'boolean', default: false },
  },
});

const started = Date.now();
/** Says what is happening and how long `npm start` has taken so far. */
function step(what) {
  const s = Math.round((Date.now() - started) / 1000);
  console.log(`start: [${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s] ${what}`);
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`start: \`${command} ${args.join(' ')}\` failed (${result.status ?? result.signal})`);
    process.exit(1);
  }
}

/** Newest modification time under the paths that end up in the .vsix. */
function newestSource() {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const p of ['src', 'webview', 'media', 'schemas', 'bin', 'package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore']) {
    visit(join(root, p));
  }
  return newest;
}

// code-server, playwright-core's browser and Node 24 (idempotent; well under a second when present).
step('checking code-server, Chromium and Node 24 (the first time: installing them)…');
run('bash', ['scripts/e2e-setup.sh']);

const vsix = join(root, 'ratchet.vsix');
if (opts.rebuild || !existsSync(vsix) || statSync(vsix).mtimeMs < newestSource()) {
  step('sources changed since ratchet.vsix; building and packaging the extension…');
  run('npm', ['run', '--silent', 'package']);
}

// The launcher is TypeScript shared with the e2e harness; bundle it (Node built-ins only) and load it.
const launcher = join(root, 'out', 'run', 'codeServer.mjs');
await esbuild.build({
  entryPoints: [join(root, 'test', 'e2e', 'harness', 'codeServer.ts')],
  outfile: launcher,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
const { installExtension, shutdownSignal, startCodeServer } = await import(pathToFileURL(launcher).href);

// A persistent profile (ignored .tools/), so the window layout survives restarts; the extension is
// reinstalled from the fresh .vsix every time.
const runDir = join(root, '.tools', 'code-server-start');
step('installing ratchet.vsix into code-server…');
await installExtension(runDir, vsix);
step('starting code-server…');
const server = await startCodeServer({
  runDir,
  folder: join(root, 'examples'),
  port: Number(opts.port),
  workspaceTrust: opts['workspace-trust'],
  // examples/ sits inside this repository: show its changes in Source Control without asking.
  userSettings: { 'git.openRepositoryInParentFolders': 'always' },
});
step('ready');
console.log(`\nRatchet in VS Code: ${server.url}\n(code-server log: ${server.logFile}; Ctrl+C stops it)\n`);

// Ctrl+C / SIGTERM / SIGHUP are handled by the launcher's process-group hooks, which stop
// code-server's group and exit 130 / 143 / 129. Here: exit when code-server ends by itself.
const how = await server.exited;
if (!shutdownSignal()) {
  await server.stop(); // its extension host and language servers may outlive it
  console.error(`start: code-server ${how}`);
  process.exit(1);
}
