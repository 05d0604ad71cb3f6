// The e2e suite: the real VS Code (code-server) in a real browser. One file at a time in one
// forked worker: each session starts a code-server and a chromium, and two at once on a 2-core
// machine would only make both slow and flaky. Timeouts cover a cold code-server start (~10 s)
// plus the steps; waits inside the specs are bounded on their own and name what they waited for.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export default defineConfig({
  test: {
    root: repoRoot,
    include: ['test/e2e/**/*.spec.ts'],
    exclude: ['**/node_modules/**', 'test/e2e/artifacts/**'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    sequence: { concurrent: false, shuffle: false },
    testTimeout: 180_000,
    hookTimeout: 240_000,
    teardownTimeout: 60_000,
    retry: 0,
    reporters: ['verbose'],
  },
});
