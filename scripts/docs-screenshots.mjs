// `npm run docs:screenshots`: the README's and docs/' pictures, taken by the e2e specs in the real
// VS Code (code-server at 1400×900), never by hand. Runs the specs that take them, then copies each
// artifact to its name under docs/images. A picture whose spec failed or no longer takes it stops
// the script naming it, so a stale image cannot hide behind a fresh one.
//
// Usage: node scripts/docs-screenshots.mjs [--skip-run]   (--skip-run: copy the artifacts of the last e2e run)
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Each picture: the spec that takes it, the artifact it writes (test/e2e/artifacts/<session>-<label>.png,
 * see `Session.screenshot`), and its name under docs/images (the README links these names).
 */
export const pictures = [
  { spec: 'firstRun', artifact: 'first-run-walkthrough-checked.png', image: 'vscode-walkthrough.png' },
  { spec: 'firstRun', artifact: 'first-run-model-origin.png', image: 'vscode-model-origin.png' },
  { spec: 'evolve', artifact: 'evolve-wealth-crosses-threshold.png', image: 'vscode-panel-wealth.png' },
  { spec: 'panelWidth', artifact: 'panel-width-glossary-hover.png', image: 'vscode-panel-hover.png' },
  { spec: 'inlineChange', artifact: 'inlinechange-inline-change.png', image: 'vscode-inline-suggestion.png' },
  { spec: 'results', artifact: 'results-results-view.png', image: 'vscode-results.png' },
  { spec: 'provenance', artifact: 'provenance-provenance-hover.png', image: 'vscode-provenance.png' },
  { spec: 'provenance', artifact: 'provenance-prompt-history.png', image: 'vscode-prompt-history.png' },
  { spec: 'diagnostics', artifact: 'diagnostics-problems-panel.png', image: 'vscode-problems.png' },
  { spec: 'codeSearchAccept', artifact: 'code-search-accept-inline-best.png', image: 'vscode-code-search-suggestion.png' },
  { spec: 'programsView', artifact: 'programs-programs-view.png', image: 'vscode-programs-view.png' },
  { spec: 'zeroData', artifact: 'zero-data-zero-data-tab.png', image: 'vscode-zero-data.png' },
  { spec: 'mcp', artifact: 'mcp-servers-list.png', image: 'vscode-mcp-servers.png' },
  { spec: 'mcp', artifact: 'mcp-judged-run-in-panel.png', image: 'vscode-mcp-judged-run.png' },
  // The same faces in the default dark theme (#29 item 9): the colours from the theme-colour table.
  { spec: 'darkTheme', artifact: 'dark-theme-inline-change.png', image: 'vscode-inline-suggestion-dark.png' },
  { spec: 'darkTheme', artifact: 'dark-theme-results.png', image: 'vscode-results-dark.png' },
  { spec: 'darkTheme', artifact: 'dark-theme-code-code-blocks.png', image: 'vscode-code-blocks-dark.png' },
  { spec: 'darkTheme', artifact: 'dark-theme-code-programs-view.png', image: 'vscode-programs-view-dark.png' },
];

const { values: opts } = parseArgs({ options: { 'skip-run': { type: 'boolean', default: false } } });

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`docs:screenshots: \`${command} ${args.join(' ')}\` failed (${result.status ?? result.signal})`);
    process.exit(1);
  }
}

const artifacts = join(root, 'test', 'e2e', 'artifacts');
if (!opts['skip-run']) {
  // An artifact left by an earlier run must not pass for one this run took.
  for (const p of pictures) rmSync(join(artifacts, p.artifact), { force: true });
  const specs = [...new Set(pictures.map((p) => `test/e2e/specs/${p.spec}.spec.ts`))];
  run('bash', ['scripts/e2e-setup.sh']);
  run('npm', ['run', '--silent', 'package']);
  run('npx', ['vitest', 'run', '-c', 'test/e2e/vitest.e2e.config.mts', ...specs]);
}

const images = join(root, 'docs', 'images');
mkdirSync(images, { recursive: true });
const missing = pictures.filter((p) => !existsSync(join(artifacts, p.artifact)));
if (missing.length > 0) {
  console.error(`docs:screenshots: no ${missing.map((p) => `${p.artifact} (from ${p.spec}.spec.ts)`).join(', ')} in test/e2e/artifacts.`);
  process.exit(1);
}
for (const p of pictures) {
  copyFileSync(join(artifacts, p.artifact), join(images, p.image));
  console.log(`docs/images/${p.image}  ←  ${p.spec}.spec.ts`);
}
