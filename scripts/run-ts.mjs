// Runs a TypeScript entry (a benchmark or the fake server) on Node: bundles it with esbuild into
// out/run/ and executes it with the remaining arguments. Usage: node scripts/run-ts.mjs bench/x.ts [args…]
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { basename } from 'node:path';

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs <entry.ts> [args…]');
  process.exit(2);
}
const outfile = `out/run/${basename(entry).replace(/\.ts$/, '')}.mjs`;
await esbuild.build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: 'inline',
  packages: 'external',
  logLevel: 'warning',
});
const result = spawnSync(process.execPath, ['--enable-source-maps', outfile, ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
