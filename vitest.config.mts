import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Files that must have a fresh module registry: they mock modules (`vi.mock('vscode')`) or run in
 * another environment (happy-dom). Every other file shares its worker's modules with the files run
 * before it (`isolate: false`), which spares a worker start and a module graph load per file.
 */
const ISOLATED = [
  'test/unit/extension/commandHandlers.test.ts',
  'test/unit/extension/evidenceCommand.test.ts',
  'test/unit/extension/errorMessage.test.ts',
  'test/unit/panel/ratchetPanel.test.ts',
  'test/unit/webview/panelApp.test.ts',
  'test/unit/webview/programsSections.test.ts',
  'test/unit/webview/virtualList.test.ts',
  'test/unit/webview/zeroDataView.test.ts',
];

export default defineConfig({
  test: {
    // Most of the suite's wall time is spent waiting on child processes (the built CLI, the
    // server, the daemon, the fake endpoint), not on this process's CPU: a file per core plus one
    // keeps both cores busy where vitest's default (cores − 1: one file at a time on 2 cores) idles one.
    maxWorkers: availableParallelism() + 1,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'], exclude: ISOLATED, isolate: false },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED },
      },
    ],
  },
});
