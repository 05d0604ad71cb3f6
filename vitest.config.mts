import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Files that must have a fresh module registry: they mock modules (`vi.mock('vscode')`), run in
 * another environment (happy-dom), or set the environment a once-per-process probe reads (the
 * sandbox's capabilities). Every other file shares its worker's modules with the files run
 * before it (`isolate: false`), which spares a worker start and a module graph load per file.
 */
const ISOLATED = [
  'test/unit/extension/commandHandlers.test.ts',
  'test/unit/extension/evidenceCommand.test.ts',
  'test/unit/extension/errorMessage.test.ts',
  'test/unit/node/slurmBackend.test.ts',
  'test/unit/node/sandboxNoSeccomp.test.ts',
  'test/unit/node/sandboxMaskVanished.test.ts',
  'test/unit/panel/ratchetPanel.test.ts',
  'test/unit/webview/panelApp.test.ts',
  'test/unit/webview/programsSections.test.ts',
  'test/unit/webview/virtualList.test.ts',
  'test/unit/webview/zeroDataView.test.ts',
];

/**
 * Left out of the everyday tier (`npm run test:unit`, `vitest --mode unit`): each takes 10 s or
 * more of one core because it simulates thousands of seeded runs (the gates' error rates), spawns
 * real processes (the sandbox, examples' evaluators) or lints the tree. `npm test` runs them all.
 */
const SLOW_UNIT = [
  'test/unit/gates/finiteSimulation.test.ts',
  'test/unit/gates/nullValidity.test.ts',
  'test/unit/gates/finite.test.ts',
  'test/unit/gates/futility.test.ts',
  'test/unit/gates/abstentions.test.ts',
  'test/unit/gates/pairwise.test.ts',
  'test/unit/gates/bradleyTerry.test.ts',
  'test/unit/node/sandbox.test.ts',
  'test/unit/node/process.test.ts',
  'test/unit/examples/codeExamples.test.ts',
  'test/unit/lintBoundary.test.ts',
];

export default defineConfig(({ mode }) => {
  // The fast tier: the unit tests without the slow files above and without the integration tests
  // (which drive the built CLI and server), so it needs no build.
  const fastTier = mode === 'unit';
  return {
    test: {
      // Most of the suite's wall time is spent waiting on child processes (the built CLI, the
      // server, the daemon, the fake endpoint), not on this process's CPU: a file per core plus one
      // keeps both cores busy where vitest's default (cores − 1: one file at a time on 2 cores) idles one.
      maxWorkers: availableParallelism() + 1,
      testTimeout: 60_000,
      hookTimeout: 60_000,
      // One scratch folder for the run's throwaway workspaces, removed at its end.
      globalSetup: ['test/integration/scratchSetup.ts'],
      projects: [
        {
          extends: true,
          test: {
            name: 'shared',
            include: fastTier ? ['test/unit/**/*.test.ts'] : ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
            exclude: fastTier ? [...ISOLATED, ...SLOW_UNIT] : ISOLATED,
            isolate: false,
          },
        },
        {
          extends: true,
          test: { name: 'isolated', include: ISOLATED },
        },
      ],
    },
  };
});
