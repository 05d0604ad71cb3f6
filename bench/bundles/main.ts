/**
 * bench:bundles — what the extension ships and what activation costs. Prints one table of the
 * production bundles (bytes, gzip, budget) and the .vsix, and one of activation: out/extension.js
 * loaded and activate() called against a `vscode` stand-in (activate.cjs), each run in a fresh
 * process, median and max of --runs; and one of the language server's start (out/server.js spawned
 * to its `initialize` result), without and with Node's compile cache, as the extension starts it. Run after `npm run package` (bench:bundles does both).
 * Usage: npm run bench:bundles [-- --runs 15] [-- --out DIR --vsix FILE]
 * The figures are the bundle's own cost; VS Code's "Developer: Show Running Extensions" adds the
 * host's (test/e2e/pages/RunningExtensions.ts reads that one).
 */
import { fork, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The budgets of issue #27: a bundle past its line is reported as over. */
const BUDGET_KB: Record<string, number> = { 'extension.js': 150, 'webview.js': 300, 'ratchet.vsix': 1024 };
const ACTIVATION_BUDGET_MS = 30;

function flag(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

const outDir = resolve(flag('out', 'out'));
const vsix = resolve(flag('vsix', 'ratchet.vsix'));
const runs = Number(flag('runs', '15'));
const kb = (bytes: number): string => (bytes / 1024).toFixed(1);

const rows: string[][] = [];
const bundles = readdirSync(outDir)
  .filter((f) => f.endsWith('.js'))
  .sort();
for (const name of bundles) {
  const bytes = statSync(join(outDir, name)).size;
  const budget = BUDGET_KB[name];
  rows.push([name, String(bytes), kb(bytes), kb(gzipSync(readFileSync(join(outDir, name))).length), budget === undefined ? '—' : `${budget}`, budget === undefined ? '' : bytes <= budget * 1024 ? 'yes' : 'OVER']);
}
if (existsSync(vsix)) {
  const bytes = statSync(vsix).size;
  rows.push(['ratchet.vsix', String(bytes), kb(bytes), '(zip)', '1024', bytes <= 1024 * 1024 ? 'yes' : 'OVER']);
}
console.log(`bench/bundles — ${outDir}${existsSync(vsix) ? ` and ${vsix}` : ' (no .vsix: run npm run package)'}\n`);
console.log('| bundle | bytes | KB | gzip KB | budget KB | within |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);

interface Sample {
  loadMs: number;
  activateMs: number;
  lazyLoaded: string[];
  error?: string;
}
const samples: Sample[] = [];
for (let i = 0; i < runs; i++) {
  const child = spawnSync(process.execPath, [resolve('bench/bundles/activate.cjs'), outDir], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`activate.cjs failed: ${child.stderr}`);
  samples.push(JSON.parse(child.stdout.trim()) as Sample);
}
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const loads = samples.map((s) => s.loadMs);
const activates = samples.map((s) => s.activateMs);
const totals = samples.map((s) => s.loadMs + s.activateMs);
const [one] = samples;
console.log(`\nActivation of out/extension.js, ${runs} fresh processes (load average ${loadavg()[0]!.toFixed(1)}):\n`);
console.log('| part | median ms | min ms | max ms |');
console.log('|---|---|---|---|');
for (const [part, xs] of [
  ['load (read + run the bundle)', loads],
  ['activate() synchronous part', activates],
  ['total', totals],
] as const) {
  console.log(`| ${part} | ${median(xs).toFixed(1)} | ${Math.min(...xs).toFixed(1)} | ${Math.max(...xs).toFixed(1)} |`);
}
console.log(`\nBudget: ${ACTIVATION_BUDGET_MS} ms total — median ${median(totals) <= ACTIVATION_BUDGET_MS ? 'within' : 'OVER'}, min ${Math.min(...totals) <= ACTIVATION_BUDGET_MS ? 'within' : 'OVER'}.`);
console.log(`Bundles read during activation besides extension.js: ${one && one.lazyLoaded.length > 0 ? one.lazyLoaded.join(', ') : 'none'}.`);
if (one?.error) console.log(`activate() threw against the stand-in (the figure stops there): ${one.error}`);

/**
 * The language server as a window's reload starts it: a fresh process from out/server.js to its
 * `initialize` result, then shut down as the client does (before it attaches to anything; Node
 * writes its compile cache as the process exits). Once as a first start (no compile cache), then
 * with the compile cache the extension gives it (serverHost.ts) filled by a start before.
 */
async function serverStartMs(env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const child = fork(join(outDir, 'server.js'), ['--node-ipc'], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], env: { ...process.env, ...env } });
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  try {
    const ms = await new Promise<number>((done, fail) => {
      child.on('message', (m: { id?: number }) => {
        if (m.id === 1) {
          done(performance.now() - started);
          child.send({ jsonrpc: '2.0', id: 2, method: 'shutdown' });
        } else if (m.id === 2) child.send({ jsonrpc: '2.0', method: 'exit' });
      });
      void exited.then((code) => fail(new Error(`out/server.js exited with ${code} before its initialize result`)));
      child.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { settings: {} } } });
    });
    await exited;
    return ms;
  } finally {
    child.kill('SIGKILL');
  }
}

const cache = mkdtempSync(join(tmpdir(), 'ratchet-bench-compile-cache-'));
try {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < runs; i++) cold.push(await serverStartMs({}));
  await serverStartMs({ NODE_COMPILE_CACHE: cache });
  for (let i = 0; i < runs; i++) warm.push(await serverStartMs({ NODE_COMPILE_CACHE: cache }));
  console.log(`\nLanguage server start (out/server.js spawned → initialize result), ${runs} fresh processes each (load average ${loadavg()[0]!.toFixed(1)}):\n`);
  console.log('| compile cache | median ms | min ms | max ms |');
  console.log('|---|---|---|---|');
  for (const [what, xs] of [
    ['none (a first start)', cold],
    ['filled by an earlier start (every later one)', warm],
  ] as const) {
    console.log(`| ${what} | ${median(xs).toFixed(0)} | ${Math.min(...xs).toFixed(0)} | ${Math.max(...xs).toFixed(0)} |`);
  }
} finally {
  rmSync(cache, { recursive: true, force: true });
}
