// A module scorer that cannot load, through the built CLI: the error points at the run spec's
// line that names the module (scorer.path), as every other spec error does, and no call is made.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { CLI, runCli, runIds } from './evolveCli';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

describe('a module scorer that cannot load', () => {
  it("is refused before the first call, naming the spec's file:line of scorer.path", async () => {
    const w = makeWorkspace({ seed: 2, items: 30, candidates: 1, split: { feedback: 5, dev: 20, test: 5 } });
    const specPath = join(w.dir, 'task.ratchet.yaml');
    const spec = readFileSync(specPath, 'utf8').replace('scorer:\n  type: numeric\n', 'scorer:\n  type: module\n  path: score.mjs\n');
    writeFileSync(specPath, spec);
    writeFileSync(join(w.dir, 'score.mjs'), 'export function score(output, item) {\n  return output ===\n}\n');
    const pathLine = spec.split('\n').indexOf('  path: score.mjs') + 1;
    const server = await startFakeServer({ scenario: scenarioFor(w, { seed: 2 }) });
    try {
      const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^ratchet: ${specPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${pathLine}:\\d+: scorer\\.path: could not load .*score\\.mjs`));
      expect(server.calls).toHaveLength(0);
      expect(runIds(w.dir)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
