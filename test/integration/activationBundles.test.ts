/**
 * Activation reads out/extension.js alone: the language client, the panel, the blame hover and
 * Convert to Skill are bundles of their own, loaded after activate() has returned or on first use
 * (scripts/build.mjs). A synchronous require of one of them inside activate() once put ~120 ms of
 * loading into every window's activation unnoticed; this keeps the split honest on the built bundle.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('activation of the built extension', () => {
  it('runs activate() without error and reads no bundle besides out/extension.js', () => {
    // bench/bundles/activate.cjs: a fresh process, the `vscode` module a stand-in, one JSON line.
    const line = execFileSync(process.execPath, [resolve('bench/bundles/activate.cjs'), resolve('out')], { encoding: 'utf8' });
    const result = JSON.parse(line.trim()) as { lazyLoaded: string[]; error?: string };
    expect(result.error).toBeUndefined();
    expect(result.lazyLoaded).toEqual([]);
  });
});
