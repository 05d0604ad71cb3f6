// The .vsix is an allow-list (.vscodeignore): a bundle the build writes but the list leaves out
// is missing from the installed extension, and only fails when a user reaches it.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');

describe('the packaged extension', () => {
  it('carries every bundle the build writes', () => {
    const build = readFileSync(resolve(root, 'scripts/build.mjs'), 'utf8');
    const bundles = [...build.matchAll(/entryPoints: \{ (\w+):/g)].map((m) => m[1]);
    expect(bundles).toEqual(expect.arrayContaining(['extension', 'languageClient', 'server', 'runDaemon', 'cli', 'webview']));
    const allowed = readFileSync(resolve(root, '.vscodeignore'), 'utf8').split('\n');
    for (const name of bundles) expect(allowed, `out/${name}.js in .vscodeignore`).toContain(`!out/${name}.js`);
  });

  it('carries the page the panel\'s "How Ratchet decides" link opens', () => {
    const register = readFileSync(resolve(root, 'src/extension/panel/register.ts'), 'utf8');
    const page = /HOW_RATCHET_DECIDES = '([^']+)'/.exec(register)?.[1];
    expect(page).toBeDefined();
    expect(existsSync(resolve(root, page!))).toBe(true);
    expect(readFileSync(resolve(root, '.vscodeignore'), 'utf8').split('\n')).toContain(`!${page}`);
  });
});
