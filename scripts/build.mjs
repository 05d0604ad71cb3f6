// Bundles the entry points with esbuild. Node bundles are CommonJS with `vscode` external
// (VS Code provides it); the webview bundle targets the browser. Then copies the panel's assets.
import * as esbuild from 'esbuild';
import { copyWebviewAssets } from './copy-webview-assets.mjs';

import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
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
  // Non-ASCII text (the messages' dashes, arrows and quotes) as UTF-8, not six-byte \u escapes.
  charset: 'utf8',
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

// zod (the MCP server's schemas) exports every one of its ~50 locales from its index, which puts
// 260 KB of translated error messages nobody selects into out/nodeProcesses.js: Ratchet never calls
// `z.config(z.locales.…())`, so zod stays on its default, English. The locale index resolves to a
// module that exports English alone; a call for another locale would find it undefined.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /locales\/index\.js$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)) return undefined;
      return { path: join(dirname(args.importer), args.path.replace(/index\.js$/, 'en.js')), namespace: 'zod-english-only' };
    });
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({ contents: `export { default as en } from ${JSON.stringify(args.path)};`, loader: 'js', resolveDir: dirname(args.path) }));
  },
};

// In the extension host, a module imported with `import()` is a bundle of its own, loaded on its
// first use: the import becomes a require of the sibling file in out/ (a require, so VS Code's
// extension host resolves `vscode` for it as for every CommonJS module). A dynamic import of any
// other module fails the build, so none is silently inlined (and read at activation) again.
const bundledApart = {
  'src/extension/panel/ratchetPanel.ts': 'panel',
  'src/extension/provenance/hoverAt.ts': 'provenance',
  'src/extension/commands/skillCommands.ts': 'skillCommands',
};
const root = fileURLToPath(new URL('..', import.meta.url));
const loadedOnFirstUse = {
  name: 'loaded-on-first-use',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const target = await build.resolve(args.path, { resolveDir: args.resolveDir, kind: 'import-statement' });
      const bundle = bundledApart[relative(root, target.path)];
      if (bundle === undefined) return { errors: [{ text: `import('${args.path}') in the extension host: name its bundle in scripts/build.mjs (bundledApart)` }] };
      return { path: bundle, namespace: 'loaded-on-first-use' };
    });
    build.onLoad({ filter: /.*/, namespace: 'loaded-on-first-use' }, (args) => ({ contents: `module.exports = require('./${args.path}.js');`, loader: 'js' }));
  },
};
// In the extension host's bundles only: the core's portable SHA-256 is Node's built-in one
// (src/extension/lazy/nodeSha256.ts, same digests).
const nodeHashesInExtensionHost = {
  name: 'node-hashes-in-extension-host',
  setup(build) {
    build.onResolve({ filter: /^@noble\/hashes\/(sha2|utils)\.js$/ }, () => ({ path: fileURLToPath(new URL('../src/extension/lazy/nodeSha256.ts', import.meta.url)) }));
  },
};
// Every module of the extension host imports `vscode`; esbuild's CommonJS interop would copy the
// API's ~400 names into a fresh namespace object at each of those imports, as the bundle loads
// (some 40 ms of activation). They import one ESM re-export instead, built once.
const vscodeNamespaceOnce = {
  name: 'vscode-namespace-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-namespace-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-namespace-once' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-namespace-once' }, () => ({ contents: `export * from 'vscode';`, loader: 'js' }));
  },
};
const extensionHost = {
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  external: ['vscode', './languageClient.js', './yaml.js', ...Object.values(bundledApart).map((b) => `./${b}.js`)],
  plugins: [vscodeNamespaceOnce, lazyInExtensionHost, nodeHashesInExtensionHost, loadedOnFirstUse],
};

// For the Node processes' shared bundle: `yaml` is out/yaml.js, required at run time.
const yamlFromItsBundle = {
  name: 'yaml-from-its-bundle',
  setup(build) {
    build.onResolve({ filter: /^yaml$/ }, () => ({ path: './yaml.js', external: true }));
  },
};

// The LSP's protocol packages are one bundle, out/lspProtocol.js (src/entries/lspProtocol.ts),
// required by both the language client and the language server; each import of one of them in
// those bundles becomes its entry there. A specifier the table lacks fails the build.
const lspProtocolFromItsBundle = {
  name: 'lsp-protocol-from-its-bundle',
  setup(build) {
    build.onResolve({ filter: /^vscode-(jsonrpc|languageserver-protocol|languageserver-types|languageserver-textdocument)(\/|$)/ }, (args) => ({ path: args.path, namespace: 'lsp-protocol' }));
    build.onLoad({ filter: /.*/, namespace: 'lsp-protocol' }, (args) => ({
      contents: `const packages = require('./lspProtocol.js').LSP_PACKAGES; if (!(${JSON.stringify(args.path)} in packages)) throw new Error('lspProtocol.js lacks ${args.path}'); module.exports = packages[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
  },
};

const builds = [
  { entryPoints: { extension: 'src/extension/main.ts' }, ...extensionHost },
  // The panel (webview host, controller, evidence, results, program detail), imported when first opened (panel/register.ts).
  { entryPoints: { panel: 'src/extension/panel/ratchetPanel.ts' }, ...extensionHost },
  // The blame hover's line diff and words, imported on the first hover (provenance/provenanceHover.ts).
  { entryPoints: { provenance: 'src/extension/provenance/hoverAt.ts' }, ...extensionHost },
  // Convert to Skill, imported when first run (commands/index.ts).
  { entryPoints: { skillCommands: 'src/extension/commands/skillCommands.ts' }, ...extensionHost },
  // yaml for the extension host, required on first use (src/extension/lazy/yamlOnDemand.ts).
  { entryPoints: { yaml: 'node_modules/yaml/dist/index.js' }, platform: 'node', format: 'cjs', target: 'node22' },
  // vscode-languageclient and its protocol packages (~380 KB of CommonJS esbuild cannot tree-shake)
  // go in their own bundle, required when the server starts, after activation (lazyClient.ts).
  { entryPoints: { languageClient: 'src/extension/server/client.ts' }, platform: 'node', format: 'cjs', target: 'node22', external: ['vscode', './lspProtocol.js'], plugins: [lspProtocolFromItsBundle] },
  // The protocol packages both ends of the LSP connection share (lspProtocolFromItsBundle).
  { entryPoints: { lspProtocol: 'src/entries/lspProtocol.ts' }, platform: 'node', format: 'cjs', target: 'node22' },
  // The language server, the run daemon (started detached by the server, so runs outlive the
  // extension host) and the CLI share one bundle; each process's own file is a stub that starts
  // its role there (src/entries/nodeProcesses.ts).
  // yaml and the LSP's protocol packages are not bundled again here: they require out/yaml.js (the
  // extension host's copy) and out/lspProtocol.js (the language client's), one of each in the .vsix.
  {
    entryPoints: { nodeProcesses: 'src/entries/nodeProcesses.ts' },
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    define: { RATCHET_VERSION: JSON.stringify(pkg.version) },
    external: ['./lspProtocol.js'],
    plugins: [yamlFromItsBundle, lspProtocolFromItsBundle, zodEnglishOnly],
  },
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
  console.log(`esbuild: ${builds.flatMap((b) => Object.keys(b.entryPoints).map((name) => `out/${name}.js`)).join(' ')} in ${Date.now() - started} ms`);
}
