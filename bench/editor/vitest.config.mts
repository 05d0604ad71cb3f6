// bench:editor runs in the e2e harness (code-server in Chromium, one session at a time) but is a
// benchmark: it prints a table and asserts no timing.
import { defineConfig } from 'vitest/config';
import e2e from '../../test/e2e/vitest.e2e.config.mjs';

export default defineConfig({ ...e2e, test: { ...e2e.test, include: ['bench/editor/*.bench.ts'], testTimeout: 1_800_000 } });
