import { defineConfig } from 'vitest/config';

/**
 * The Slurm tests (`npm run test:slurm`): the built CLI on the local one-node cluster that
 * scripts/slurm-local.sh starts. One file at a time, one test at a time: they share the cluster's
 * two CPUs, and each one counts the jobs its own run left in squeue and sacct.
 */
export default defineConfig({
  test: {
    include: ['test/slurm/**/*.test.ts'],
    fileParallelism: false,
    // A task killed by its time limit takes Slurm over a minute, twice (one retry).
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
