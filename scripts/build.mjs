// Bundles the entry points with esbuild. Node bundles are CommonJS with `vscode` external
// (VS Code provides it); the webview bundle targets the browser. Then copies the panel's assets.
import * as esbuild from 'esbuild';
import { copyWebviewAssets } from './copy-webview-assets.mjs';

import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

const builds = [
  // vscode-languageclient and its protocol packages (~380 KB of CommonJS esbuild cannot tree-shake)
  // go in their own bundle, required when the server starts, after activation (lazyClient.ts).
  { entryPoints: { extension: 'src/extension/main.ts' }, platform: 'node', format: 'cjs', target: 'node22', external: ['vscode', './languageClient.js'] },
  { entryPoints: { languageClient: 'src/extension/server/client.ts' }, platform: 'node', format: 'cjs', target: 'node22', external: ['vscode'] },
  { entryPoints: { server: 'src/server/main.ts' }, platform: 'node', format: 'cjs', target: 'node22' },
  // The run daemon: started detached by the server, so runs outlive the extension host.
  { entryPoints: { runDaemon: 'src/daemon/main.ts' }, platform: 'node', format: 'cjs', target: 'node22' },
  { entryPoints: { cli: 'src/cli/main.ts' }, platform: 'node', format: 'cjs', target: 'node22', define: { RATCHET_VERSION: JSON.stringify(pkg.version) } },
  // What each Slurm array task runs on its node: the sandbox and nothing else (a code search on
  // Slurm copies it into the shared run folder; src/node/slurm/taskMain.ts).
  { entryPoints: { slurmTask: 'src/node/slurm/taskMain.ts' }, platform: 'node', format: 'cjs', target: 'node22' },
  { entryPoints: { webview: 'webview/main.ts' }, platform: 'browser', format: 'iife', target: 'es2022', loader: { '.css': 'text' } },
].map((b) => ({ ...common, ...b, outdir: 'out' }));

if (watch) {
  copyWebviewAssets();
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('esbuild: watching src/ and webview/ …');
} else {
  const started = Date.now();
  await Promise.all(builds.map((b) => esbuild.build(b)));
  copyWebviewAssets();
  console.log(`esbuild: out/extension.js out/languageClient.js out/server.js out/runDaemon.js out/cli.js out/slurmTask.js out/webview.js in ${Date.now() - started} ms`);
}
