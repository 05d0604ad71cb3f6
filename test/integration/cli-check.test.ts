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
import { checkRepo } from './checkRepo';

interface FileJson {
  file: string;
  verdict: string;
  passed: boolean;
  threshold: number;
  wins: number;
  losses: number;
  replayProblems?: string[];
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
  const byFile = (j: CheckJson | undefined) => Object.fromEntries((j?.files ?? []).map((f) => [f.file.replace('prompts/', '').replace('.prompt.md', ''), f]));

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
    expect(r.json!.skipped.map((s) => s.file)).toEqual(['prompts/notes.prompt.md']);
    const md = readFileSync(join(repo.dir, 'report.md'), 'utf8');
    expect(md).toContain('Better: head is shown better than base.');
    expect(md).toContain('<details><summary>prompts/worse.prompt.md');
    expect(r.json!.ledger).toMatchObject({ tested: 3, commits: 1 });
  });

  it('--require not-worse: the neutral prompt passes, the worse one fails; without the worse commit it passes (exit 0)', async () => {
    const all = await check('--head', 'pr', '--require', 'not-worse');
    expect(all.code, all.stderr).toBe(1);
    const f = byFile(all.json);
    expect(f['better']).toMatchObject({ verdict: 'not shown worse', passed: true });
    expect(f['neutral']).toMatchObject({ verdict: 'not shown worse', passed: true });
    expect(f['worse']).toMatchObject({ verdict: 'worse', passed: false });
    const firstCommit = await check('--head', 'pr~1', '--require', 'not-worse');
    expect(firstCommit.code, firstCommit.stderr).toBe(0);
    expect(firstCommit.json!.files.map((x) => x.file)).toEqual(['prompts/better.prompt.md', 'prompts/neutral.prompt.md']);
  });

  it('--replay recomputes each verdict with no request at the endpoint, and fails on a tampered bundle', async () => {
    const before = fake.calls.length;
    const replay = await check('--head', 'pr~1', '--require', 'not-worse', '--replay');
    expect(replay.code, replay.stderr).toBe(0);
    expect(fake.calls.length - before).toBe(0);
    expect(replay.json!.files.map((x) => x.replayProblems)).toEqual([[], []]);

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
  });

  it('the ledger advances with every test and refuses a check it cannot pay for', async () => {
    const ledger = JSON.parse(readFileSync(join(repo.dir, '.ratchet', 'ledger.json'), 'utf8')) as { tested: number; history: unknown[] };
    // 3 + 3 + 2 tests so far; the replays spent nothing.
    expect(ledger.tested).toBe(8);
    expect(ledger.history).toHaveLength(8);
    const before = fake.calls.length;
    const refused = await check('--head', 'pr', '--require', 'not-worse');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('2 tests left and this check needs 3');
    expect(fake.calls.length - before).toBe(0);
  });
});
