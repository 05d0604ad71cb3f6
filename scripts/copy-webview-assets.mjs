// Copies the codicon font and its stylesheet into out/codicons/, where the panel's webview may load
// them (its localResourceRoots are out/ and media/ only). scripts/build.mjs calls this after bundling;
// run it alone with `node scripts/copy-webview-assets.mjs`.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

export function copyWebviewAssets(outDir = join(root, 'out')) {
  const codicons = dirname(require.resolve('@vscode/codicons/dist/codicon.css'));
  const target = join(outDir, 'codicons');
  mkdirSync(target, { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(join(codicons, file), join(target, file));
  return target;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`codicons: ${copyWebviewAssets()}`);
}
