// A stand-in for the `vscode` module, enough for out/extension.js to load and activate() to run
// outside VS Code: every property is a callable, constructible stand-in again; `then` is absent so
// awaiting one resolves at once. It answers nothing real, so the figure it gives is the bundle's own
// cost (code loading and activate()'s synchronous work), not VS Code's.
function standIn(name) {
  const fn = function () {};
  return new Proxy(fn, {
    get(_t, prop) {
      if (prop === 'then') return undefined;
      if (prop === Symbol.toPrimitive) return () => name;
      if (prop === Symbol.iterator) return function* () {};
      if (prop === 'toString') return () => name;
      return standIn(`${name}.${String(prop)}`);
    },
    set: () => true,
    apply: () => standIn(`${name}()`),
    construct: () => standIn(`new ${name}`),
  });
}
// esbuild's CommonJS interop copies the module's own properties, so the stand-in lists the API's
// top-level names (classes, namespaces, enums, functions) from its declarations.
const { readFileSync } = require('node:fs');
const declarations = readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
const api = {};
for (const m of declarations.matchAll(/^\t(?:export )?(?:class|namespace|enum|function|const|let) (\w+)/gm)) api[m[1]] = standIn(m[1]);
module.exports = { api, standIn };
