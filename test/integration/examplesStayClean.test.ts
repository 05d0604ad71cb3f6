// Running the shipped examples leaves Source Control clean: the runs, the response cache and the
// provenance a run writes under examples/.ratchet are ignored by the repository's own .gitignore.
// Two Evolve runs of examples/math, one of the skill in examples/skills, and a Generate Dev Set on
// examples/mental-math through the built CLI, against the fake endpoint playing one model for every role (as a user's single local model
// does), in a git repository holding a copy of this repository's .gitignore and examples/,
// committed; then `git status` lists nothing.
import { execFileSync, execSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { ScriptedEdit } from '../fixtures/fakeOpenAI/scenario';
import { CLI, runCli } from './evolveCli';

const REPO = resolve(__dirname, '../..');

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8' });

describe('the examples stay clean', () => {
  it('two Evolve runs on examples/math and a dev set generated for examples/mental-math leave `git status` empty', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'ratchet-clean-'));
    cpSync(join(REPO, '.gitignore'), join(repo, '.gitignore'));
    cpSync(join(REPO, 'examples'), join(repo, 'examples'), { recursive: true, filter: (src) => !src.split(/[\\/]/).includes('.ratchet') });
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'examples');

    const items = readFileSync(join(repo, 'examples', 'math', 'data', 'problems.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { id: string; question: string; answer: number });
    const edits: ScriptedEdit[] = Array.from({ length: 25 }, (_, i) => ({
      id: String(i + 1),
      text: `Hint ${i + 1}: write each quantity down before adding.`,
      effect: i === 0 ? { kind: 'gain', delta: 0.35 } : { kind: 'neutral', churn: 0 },
    }));
    const server = await startFakeServer({ scenario: { seed: 0, items, generalists: ['llama3.1'], agent: { baseAccuracy: 0.55, noise: 0 }, proposer: { edits } }, latencyMs: 0 });
    try {
      const workspace = join(repo, 'examples');
      for (const apply of [[], ['--apply']]) {
        const r = await runCli(['evolve', 'math/word-problems.prompt.md', '-w', '.', '--base-url', server.url, '--model', 'llama3.1', ...apply], {}, workspace);
        expect(r.code, r.stderr).toBeLessThanOrEqual(1);
      }
      // The skill example: its sidecar, its data folder and its run leave nothing new either.
      const skill = await runCli(['evolve', 'skills/unit-conversion/SKILL.md', '-w', '.', '--base-url', server.url, '--model', 'llama3.1', '--candidates', '1'], {}, workspace);
      expect(skill.code, skill.stderr).toBeLessThanOrEqual(1);
      // Generate Dev Set on the zero-data example writes its two files next to its prompt. The same
      // one model plays every role; its answers vary from sample to sample, so some tasks spread.
      const sampling = await startFakeServer({ scenario: { seed: 0, generalists: ['llama3.1'], agent: { baseAccuracy: 0.5, noise: 1 } }, latencyMs: 0 });
      const gen = await runCli(['gen-data', 'mental-math/mental-math.prompt.md', '-w', '.', '--base-url', sampling.url, '--model', 'llama3.1', '--rounds', '1'], {}, workspace).finally(() => sampling.close());
      expect(gen.code, gen.stderr).toBe(0);
      expect(readFileSync(join(workspace, 'mental-math', 'mental-math.dev.jsonl'), 'utf8')).toMatch(/^\{"vars":\{"question":/);
      expect(readdirSync(join(workspace, 'mental-math')).sort()).toEqual(['mental-math.dev.jsonl', 'mental-math.prompt.md', 'mental-math.test.jsonl']);
      // Four runs journaled (and the cache and provenance written), all of it under .ratchet/.
      expect(readdirSync(join(workspace, '.ratchet', 'runs'))).toHaveLength(4);
      expect(readdirSync(join(workspace, '.ratchet')).length).toBeGreaterThan(1);
      // The second run applied its commit: the prompt changed, and that is the one change git sees.
      expect(git(repo, 'status', '--porcelain')).toBe(' M examples/math/word-problems.prompt.md\n');
      git(repo, 'checkout', '--', 'examples/math/word-problems.prompt.md');
      expect(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    } finally {
      await server.close();
    }
    // Four runs of the built CLI, one after another: minutes on a loaded two-core machine.
  }, 180_000);
});
