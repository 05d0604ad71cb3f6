// `ratchet check` on a real git repository (checkRepo.ts) against the fake endpoint over HTTP: the
// verdicts per policy, the exit codes, the Markdown report, the evidence that replays with no
// request at the endpoint and fails once altered, and the repository's ledger.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { FakeServer } from '../fixtures/fakeOpenAI/server';
import { runCli } from './evolveCli';
import { scenario } from './judgeWorld';
import { checkRepo, git } from './checkRepo';

interface FileJson {
  file: string;
  policy: string;
  policyFrom: string;
  verdict: string;
  passed: boolean;
  threshold: number;
  wins: number;
  losses: number;
  replayProblems?: string[];
  reused?: boolean;
}
interface CheckJson {
  passed: boolean;
  files: FileJson[];
  skipped: { file: string }[];
  ledger?: { tested: number; commits: number; sentence: string };
}

// The ledger the repository commits: e-LOND over 10 tests, so each test here needs evidence ×200 or less.
const LEDGER = JSON.stringify({ version: 1, schedule: 'e-lond', alpha: 0.05, horizon: 10, tested: 0, commits: 0, history: [] });
const LIMITS = ['--calls', '400', '--evaluations', '400'];

describe('ratchet check', () => {
  let fake: FakeServer;
  let repo: ReturnType<typeof checkRepo>;
  const check = async (...args: string[]) => {
    const r = await runCli(['check', '--base', 'main', '--json', ...LIMITS, ...args], { OPENAI_BASE_URL: fake.url }, repo.dir);
    return { ...r, json: r.stdout.trim() === '' ? undefined : (JSON.parse(r.stdout) as CheckJson) };
  };
  const byFile = (j: CheckJson | undefined) => Object.fromEntries((j?.files ?? []).map((f) => [f.file.replace(/^(prompts|programs)\//, '').replace('.prompt.md', ''), f]));

  beforeAll(async () => {
    repo = checkRepo(LEDGER);
    fake = await startFakeServer({ scenario: scenario(repo, 1) });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('--require better: the better prompt passes, the neutral and the worse ones fail (exit 1); the report says so', async () => {
    const r = await check('--head', 'pr', '--require', 'better', '--markdown', join(repo.dir, 'report.md'));
    expect(r.code, r.stderr).toBe(1);
    const f = byFile(r.json);
    expect(f['better']).toMatchObject({ verdict: 'better', passed: true, losses: 0 });
    expect(f['neutral']).toMatchObject({ verdict: 'not shown better', passed: false });
    expect(f['worse']).toMatchObject({ verdict: 'not shown better', passed: false, wins: 0 });
    expect(f['step.mjs']).toMatchObject({ verdict: 'better', passed: true, losses: 0 });
    expect(r.json!.skipped.map((s) => s.file)).toEqual(['prompts/notes.prompt.md']);
    const md = readFileSync(join(repo.dir, 'report.md'), 'utf8');
    expect(md).toContain('Better: head is shown better than base.');
    expect(md).toContain('<details><summary>prompts/worse.prompt.md');
    expect(r.json!.ledger).toMatchObject({ tested: 4, commits: 2 });
  });

  it('--require not-worse: the neutral prompt passes, the worse one fails; without the worse commit it passes (exit 0)', async () => {
    const all = await check('--head', 'pr', '--require', 'not-worse');
    expect(all.code, all.stderr).toBe(1);
    const f = byFile(all.json);
    expect(f['better']).toMatchObject({ verdict: 'not shown worse', passed: true });
    expect(f['neutral']).toMatchObject({ verdict: 'not shown worse', passed: true });
    expect(f['worse']).toMatchObject({ verdict: 'worse', passed: false });
    expect(f['step.mjs']).toMatchObject({ verdict: 'not shown worse', passed: true });
    // pr~1 holds the same texts of these two files: their verdicts are replayed, not bought again.
    const before = fake.calls.length;
    const firstCommit = await check('--head', 'pr~1', '--require', 'not-worse');
    expect(firstCommit.code, firstCommit.stderr).toBe(0);
    expect(firstCommit.json!.files.map((x) => [x.file, x.verdict, x.reused])).toEqual([
      ['programs/step.mjs', 'not shown worse', true],
      ['prompts/better.prompt.md', 'not shown worse', true],
      ['prompts/neutral.prompt.md', 'not shown worse', true],
    ]);
    expect(fake.calls.length - before).toBe(0);
    expect(firstCommit.json!.ledger).toMatchObject({ tested: 8 });
  });

  it('--replay recomputes each verdict with no request at the endpoint, and fails on a tampered bundle', async () => {
    const before = fake.calls.length;
    const replay = await check('--head', 'pr~1', '--require', 'not-worse', '--replay');
    expect(replay.code, replay.stderr).toBe(0);
    expect(fake.calls.length - before).toBe(0);
    expect(replay.json!.files.map((x) => x.replayProblems)).toEqual([[], [], []]);

    const dir = join(repo.dir, '.ratchet', 'evidence');
    const name = readdirSync(dir).find((n) => n.startsWith('prompts_neutral') && n.endsWith('.not-worse.json'))!;
    const bundle = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { steps: { delta: number }[] };
    const flipped = bundle.steps.findIndex((s) => s.delta !== 0);
    bundle.steps[flipped]!.delta = -bundle.steps[flipped]!.delta;
    writeFileSync(join(dir, name), JSON.stringify(bundle));
    const tampered = await check('--head', 'pr~1', '--require', 'not-worse', '--replay');
    expect(tampered.code).toBe(1);
    expect(fake.calls.length - before).toBe(0);
    const neutral = byFile(tampered.json)['neutral']!;
    expect(neutral.replayProblems!.join(' ')).toMatch(/step \d+/);
    expect(byFile(tampered.json)['better']!.replayProblems).toEqual([]);
    // Nor can an altered bundle pass a plain check: its verdict is reused only after it replays.
    const reused = await check('--head', 'pr~1', '--require', 'not-worse');
    expect(reused.code).toBe(1);
    expect(byFile(reused.json)['neutral']).toMatchObject({ reused: true, passed: false });
    expect(fake.calls.length - before).toBe(0);
  });

  it('the ledger advances with every test and refuses a check it cannot pay for', async () => {
    const path = join(repo.dir, '.ratchet', 'ledger.json');
    const ledger = JSON.parse(readFileSync(path, 'utf8')) as { tested: number; history: unknown[] };
    // 4 + 4 tests so far; the reused verdicts and the replays spent nothing.
    expect(ledger.tested).toBe(8);
    expect(ledger.history).toHaveLength(8);
    // A new head with two new texts, against a budget with one test left.
    writeFileSync(path, JSON.stringify({ ...ledger, tested: 9 }));
    git(repo.dir, 'checkout', '-q', '-b', 'pr2', 'main');
    for (const f of repo.files.slice(0, 2)) writeFileSync(join(repo.dir, f), `${readFileSync(join(repo.dir, f), 'utf8')}\nAnswer with the number only.\n`);
    git(repo.dir, 'commit', '-q', '-am', 'two new texts');
    const before = fake.calls.length;
    const refused = await check('--head', 'pr2', '--require', 'not-worse');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('1 test left and this check needs 2');
    expect(fake.calls.length - before).toBe(0);
    expect((JSON.parse(readFileSync(path, 'utf8')) as { tested: number }).tested).toBe(9);
  });
});

describe("ratchet check: a file's own policy wins over --require", () => {
  it('the neutral prompt, whose run spec says check: { require: better }, fails where --require not-worse alone passes (exit 1)', async () => {
    const repo = checkRepo(LEDGER, { 'prompts/neutral.prompt.md': 'better' });
    const fake = await startFakeServer({ scenario: scenario(repo, 1) });
    try {
      const report = join(repo.dir, 'report.md');
      const r = await runCli(['check', '--base', 'main', '--head', 'pr~1', '--require', 'not-worse', '--json', '--markdown', report, ...LIMITS], { OPENAI_BASE_URL: fake.url }, repo.dir);
      expect(r.code, r.stderr).toBe(1);
      const json = JSON.parse(r.stdout) as CheckJson;
      expect(json.files.map((f) => [f.file, f.policy, f.policyFrom, f.verdict, f.passed])).toEqual([
        ['programs/step.mjs', 'not-worse', '--require', 'not shown worse', true],
        ['prompts/better.prompt.md', 'not-worse', '--require', 'not shown worse', true],
        ['prompts/neutral.prompt.md', 'better', 'prompts/neutral.ratchet.yaml:14', 'not shown better', false],
      ]);
      expect(r.stderr).toContain('FAIL prompts/neutral.prompt.md: not shown better under better (prompts/neutral.ratchet.yaml:14)');
      const md = readFileSync(report, 'utf8');
      expect(md).toContain('(policy per file, --require not-worse by default)');
      expect(md).toContain('| `prompts/neutral.prompt.md` | better (prompts/neutral.ratchet.yaml:14) | ❌ fail: Not shown better');
      expect(md).toContain('| `prompts/better.prompt.md` | not-worse (--require) | ✅ pass: Not shown worse');
      // Its evidence is kept under the policy it was held to, so a replay finds it.
      expect(
        readdirSync(join(repo.dir, '.ratchet', 'evidence'))
          .filter((n) => n.startsWith('prompts_neutral'))
          .map((n) => n.split('.').at(-2)),
      ).toEqual(['better']);

      // A pull request that loosens its own file's policy is still held to the base's: the
      // stricter of the two governs, and the report says where each came from.
      git(repo.dir, 'checkout', '-q', '-b', 'loosen', 'pr~1');
      const sidecar = join(repo.dir, 'prompts', 'neutral.ratchet.yaml');
      writeFileSync(sidecar, readFileSync(sidecar, 'utf8').replace('require: better', 'require: not-worse'));
      git(repo.dir, 'commit', '-q', '-am', "loosen the neutral prompt's policy");
      const loosened = await runCli(['check', '--base', 'main', '--head', 'loosen', '--require', 'not-worse', '--json', ...LIMITS], { OPENAI_BASE_URL: fake.url }, repo.dir);
      expect(loosened.code, loosened.stderr).toBe(1);
      const neutral = (JSON.parse(loosened.stdout) as CheckJson).files.find((f) => f.file === 'prompts/neutral.prompt.md');
      expect(neutral).toMatchObject({ policy: 'better', policyFrom: 'prompts/neutral.ratchet.yaml:14 at base (head asks only not-worse)', verdict: 'not shown better', passed: false });
    } finally {
      await fake.close();
    }
  });
});

describe('ratchet check refuses what it cannot check, with exit 2', () => {
  it('outside a git repository, and with a base that names no commit', async () => {
    const repo = checkRepo();
    const notGit = await runCli(['check', '--base', 'main'], {}, join(repo.dir, '..'));
    expect(notGit.code).toBe(2);
    expect(notGit.stderr).toMatch(/^ratchet: git rev-parse --show-toplevel failed in .*/m);
    const noBase = await runCli(['check', '--base', 'no-such-branch'], {}, repo.dir);
    expect(noBase.code).toBe(2);
    expect(noBase.stderr).toContain('no-such-branch names no commit in this repository');
  });
});
