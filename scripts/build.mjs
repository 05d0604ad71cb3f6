// Bundles the entry points with esbuild. Node bundles are CommonJS with `vscode` external
// (VS Code provides it); the webview bundle targets the browser. Then copies the panel's assets.
import * as esbuild from 'esbuild';
import { copyWebviewAssets } from './copy-webview-assets.mjs';

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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

// In out/extension.js only: packages no part of activation needs resolve to stand-ins that load
// them on first use (src/extension/lazy/), so activation neither reads nor parses them.
const lazyInExtensionHost = {
  name: 'lazy-in-extension-host',
  setup(build) {
    const standIns = { yaml: 'src/extension/lazy/yamlOnDemand.ts', 'vscode-jsonrpc': 'src/extension/lazy/jsonRpcMessages.ts' };
    build.onResolve({ filter: /^(yaml|vscode-jsonrpc)$/ }, (args) => {
      // The stand-in itself requires the real yaml (out/yaml.js, external).
      if (args.importer.includes('src/extension/lazy/')) return undefined;
      return { path: fileURLToPath(new URL(`../${standIns[args.path]}`, import.meta.url)) };
    });
  },
};

const builds = [
  { entryPoints: { extension: 'src/extension/main.ts' }, platform: 'node', format: 'cjs', target: 'node22', external: ['vscode', './languageClient.js', './yaml.js'], plugins: [lazyInExtensionHost] },
  // yaml for the extension host, required on first use (src/extension/lazy/yamlOnDemand.ts).
  { entryPoints: { yaml: 'node_modules/yaml/dist/index.js' }, platform: 'node', format: 'cjs', target: 'node22' },
  // vscode-languageclient and its protocol packages (~380 KB of CommonJS esbuild cannot tree-shake)
  // go in their own bundle, required when the server starts, after activation (lazyClient.ts).
  { entryPoints: { languageClient: 'src/extension/server/client.ts' }, platform: 'node', format: 'cjs', target: 'node22', external: ['vscode'] },
  // The language server, the run daemon (started detached by the server, so runs outlive the
  // extension host) and the CLI share one bundle; each process's own file is a stub that starts
  // its role there (src/entries/nodeProcesses.ts).
  { entryPoints: { nodeProcesses: 'src/entries/nodeProcesses.ts' }, platform: 'node', format: 'cjs', target: 'node22', define: { RATCHET_VERSION: JSON.stringify(pkg.version) } },
  { entryPoints: { server: 'src/entries/server.ts' }, platform: 'node', format: 'cjs', target: 'node22', external: ['./nodeProcesses.js'] },
  { entryPoints: { runDaemon: 'src/entries/runDaemon.ts' }, platform: 'node', format: 'cjs', target: 'node22', external: ['./nodeProcesses.js'] },
  { entryPoints: { cli: 'src/entries/cli.ts' }, platform: 'node', format: 'cjs', target: 'node22', external: ['./nodeProcesses.js'] },
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
  console.log(`esbuild: out/extension.js out/languageClient.js out/yaml.js out/nodeProcesses.js out/server.js out/runDaemon.js out/cli.js out/slurmTask.js out/webview.js in ${Date.now() - started} ms`);
}
