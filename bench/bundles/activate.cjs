// One measurement, in a fresh process: loads out/extension.js against the `vscode` stand-in and
// calls activate(). Prints one JSON line: load ms (reading and running the bundle), the
// synchronous part of activate() (what VS Code's "Activation" figure adds to loading), and whether
// any lazily loaded bundle was read. Usage: node bench/bundles/activate.cjs <out folder>
const Module = require('node:module');
const { resolve } = require('node:path');
const { api, standIn } = require('./vscodeStub.cjs');

const outDir = resolve(process.argv[2] ?? 'out');
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? api : load.call(this, request, ...rest);
};
const context = new Proxy(
  { subscriptions: [], asAbsolutePath: (p) => resolve(outDir, '..', p), extensionPath: resolve(outDir, '..') },
  {
    get: (target, prop) => (prop in target ? target[prop] : standIn(`context.${String(prop)}`)),
  },
);
const t0 = process.hrtime.bigint();
const extension = require(resolve(outDir, 'extension.js'));
const t1 = process.hrtime.bigint();
let error;
try {
  void Promise.resolve(extension.activate(context)).catch(() => undefined);
} catch (err) {
  error = err instanceof Error ? err.message : String(err);
}
const t2 = process.hrtime.bigint();
const lazy = Object.keys(require.cache)
  .filter((f) => f.startsWith(outDir) && !f.endsWith('extension.js'))
  .map((f) => f.slice(outDir.length + 1));
process.stdout.write(`${JSON.stringify({ loadMs: Number(t1 - t0) / 1e6, activateMs: Number(t2 - t1) / 1e6, lazyLoaded: lazy, error })}\n`);
process.exit(0);
