// `ratchet gate` through the built CLI (out/cli.js): stdin JSONL in, a table or JSON lines out,
// exit 0 / 1 / 2 (GATES.md; src/cli/commands/gate.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const CLI = 'out/cli.js';

/** Newest modification time under the sources the CLI bundles from. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

beforeAll(() => {
  const stale = !existsSync(CLI) || statSync(CLI).mtimeMs < Math.max(newestSource('src/cli'), newestSource('src/core'));
  if (stale) {
    const r = spawnSync(process.execPath, ['scripts/build.mjs'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`build failed: ${r.stderr}`);
  }
});

function gate(args: string[], input: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'gate', ...args], { input, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

type Row = { candidateId?: string; id: string; incumbent: unknown; candidate: unknown };
const jsonl = (rows: Row[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const wins = (cid: string | undefined, k: number, from = 0): Row[] => Array.from({ length: k }, (_, i) => ({ ...(cid ? { candidateId: cid } : {}), id: `item-${from + i + 1}`, incumbent: 0, candidate: 1 }));
const losses = (cid: string | undefined, k: number, from = 0): Row[] => Array.from({ length: k }, (_, i) => ({ ...(cid ? { candidateId: cid } : {}), id: `item-${from + i + 1}`, incumbent: 1, candidate: 0 }));
const ties = (cid: string | undefined, k: number, from = 0): Row[] => Array.from({ length: k }, (_, i) => ({ ...(cid ? { candidateId: cid } : {}), id: `item-${from + i + 1}`, incumbent: 1, candidate: 1 }));

/** The PACE+ grid's wealth after w straight wins. */
const grid = (w: number): number => [0.3, 0.5, 0.7, 0.85].reduce((s, l) => s + (1 + l) ** w, 0) / 4;

describe('ratchet gate --json', () => {
  it('prints one object per candidate, in first-appearance order', () => {
    const input = jsonl([...losses('c2', 2), ...wins('c1', 6), ...ties('c1', 4, 6), ...ties('c2', 8, 2)]);
    const r = gate(['pace+', '--alpha', '0.05', '--json'], input);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const objs = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(objs).toHaveLength(2);
    expect(objs[0]).toEqual({
      candidateId: 'c2',
      gate: 'pace+',
      decision: 'reject',
      reason: 'futile',
      stoppedAt: 2,
      stoppedAtItem: 'item-2',
      items: 10,
      wins: 0,
      losses: 2,
      ties: 0,
      threshold: 20,
      evidence: expect.closeTo([0.3, 0.5, 0.7, 0.85].reduce((s, l) => s + (1 - l) ** 2, 0) / 4, 12),
      wealth: [expect.closeTo(0.4125, 12), expect.closeTo(0.213125, 12)],
    });
    expect(objs[1]).toEqual({
      candidateId: 'c1',
      gate: 'pace+',
      decision: 'commit',
      reason: 'evidence',
      stoppedAt: 6,
      stoppedAtItem: 'item-6',
      items: 10,
      wins: 6,
      losses: 0,
      ties: 0,
      threshold: 20,
      evidence: expect.closeTo(grid(6), 10),
      wealth: [1, 2, 3, 4, 5, 6].map((k) => expect.closeTo(grid(k), 10)),
    });
  });

  it('reports the sign test and greedy with their statistics and no wealth', () => {
    const input = jsonl([...wins(undefined, 5), ...ties(undefined, 3, 5)]);
    const sign = JSON.parse(gate(['sign', '--json'], input).stdout);
    expect(sign).toEqual({
      candidateId: null,
      gate: 'sign',
      decision: 'commit',
      reason: 'p-value',
      stoppedAt: 8,
      stoppedAtItem: 'item-8',
      items: 8,
      wins: 5,
      losses: 0,
      ties: 3,
      threshold: null,
      evidence: null,
      wealth: [],
      pValue: 1 / 32,
      level: 0.05,
    });
    expect(JSON.parse(gate(['greedy', '--json'], input).stdout)).toMatchObject({ decision: 'commit', candidateScore: 8, incumbentScore: 3, wealth: [] });
  });
});

describe('ratchet gate table and exit codes', () => {
  it('prints a line per candidate with decision, stopping item and wealth trace; exit 0 on a commit', () => {
    const r = gate(['pace', '--alpha', '0.05'], jsonl(wins('c1', 8)));
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      'c1  commit  evidence  stopped at item 8 of 8 (item-8)  W=8 L=0 ties=0  evidence ×25.6 (needs ×20)  wealth 1.5 2.25 3.38 5.06 7.59 11.4 17.1 25.6\n' + 'pace: 1 of 1 candidate committed (α = 0.05, per candidate)\n',
    );
  });

  it('exits 1 when nothing commits, and warns when the dev set is too small', () => {
    const r = gate(['pace+'], jsonl(wins(undefined, 5)));
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('ratchet: PACE+ needs at least 6 consecutive wins at α = 0.05; your dev set has 5 items\n');
    expect(r.stdout).toContain('(candidate)  reject  infeasible  stopped before item 1 of 5');
  });

  it('five straight wins never commit at α = 0.05, six do', () => {
    expect(gate(['pace+', '--json'], jsonl([...wins('c', 5), ...ties('c', 35, 5)])).status).toBe(1);
    expect(gate(['pace+', '--json'], jsonl([...wins('c', 6), ...ties('c', 34, 6)])).status).toBe(0);
  });

  it('takes continuous scores and a custom λ', () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: `x${i}`, incumbent: 0.2, candidate: 0.9 }));
    expect(JSON.parse(gate(['pace+', '--json'], jsonl(rows)).stdout)).toMatchObject({ decision: 'commit', reason: 'evidence' });
    const paper = JSON.parse(gate(['pace', '--lambda', '0.7', '--json'], jsonl(wins(undefined, 6))).stdout);
    expect(paper).toMatchObject({ decision: 'commit', stoppedAt: 6, evidence: expect.closeTo(1.7 ** 6, 9) });
  });
});

describe('run-level control', () => {
  const input = jsonl([...wins('c1', 6), ...ties('c1', 14, 6)]);

  it('e-LOND turns a per-candidate commit into a reject (open-ended γ₁ = 6/π²: threshold 32.9)', () => {
    const per = JSON.parse(gate(['pace+', '--json'], input).stdout);
    const elond = gate(['pace+', '--run-level', 'elond', '--json'], input);
    expect(per.decision).toBe('commit');
    expect(elond.status).toBe(1);
    const obj = JSON.parse(elond.stdout);
    expect(obj).toMatchObject({ decision: 'reject', reason: 'budget', stoppedAt: 20, threshold: expect.closeTo(Math.PI ** 2 / 6 / 0.05, 9) });
  });

  it('e-LOND with a horizon lowers the threshold after a commit: 1/(α γ (R + 1))', () => {
    const two = jsonl([...wins('c1', 13), ...wins('c2', 6)]);
    const objs = gate(['pace+', '--run-level', 'elond', '--horizon', '2', '--json'], two)
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(objs.map((o) => [o.candidateId, o.decision, o.threshold])).toEqual([
      ['c1', 'commit', expect.closeTo(40, 9)],
      ['c2', 'commit', expect.closeTo(20, 9)],
    ]);
  });

  it("screened replays ratchet evolve's default: ×j(j+1)/α for the j-th candidate given, and a wealth floor of ×0.2", () => {
    const two = jsonl([...wins('c1', 8), ...losses('c2', 3, 8), ...wins('c2', 20, 11), ...wins('c3', 11)]);
    const r = gate(['pace+', '--run-level', 'screened', '--json'], two);
    const objs = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(objs.map((o) => [o.candidateId, o.decision, o.reason, o.threshold])).toEqual([
      ['c1', 'commit', 'evidence', expect.closeTo(40, 9)],
      // Three straight losses take the mixture to ×0.125: stopped there, though wins were to come.
      ['c2', 'reject', 'floor', expect.closeTo(120, 9)],
      ['c3', 'commit', 'evidence', expect.closeTo(240, 9)],
    ]);
    expect(gate(['pace+', '--run-level', 'screened'], two).stdout).toMatch(/pace\+: 2 of 3 candidates committed \(α = 0\.05, run-level\)\n$/);
    expect(gate(['pace+', '--run-level', 'screened', '--horizon', '5'], two).stderr).toBe('ratchet: --horizon applies only with --run-level elond or spending.\n');
  });

  it('α-spending applies to the sign test; e-LOND does not (p-values are not e-values)', () => {
    const spend = JSON.parse(gate(['sign', '--run-level', 'spending', '--horizon', '10', '--json'], jsonl(wins(undefined, 6))).stdout);
    expect(spend).toMatchObject({ decision: 'reject', level: expect.closeTo(0.005, 12), pValue: 1 / 64 });
    const r = gate(['sign', '--run-level', 'elond'], jsonl(wins(undefined, 6)));
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('ratchet: e-LOND needs e-values; the sign test gives p-values. Use --run-level spending, or pace / pace+.\n');
  });
});

describe('malformed input exits 2 with the line number and nothing on stdout', () => {
  const good = JSON.stringify({ id: 'a', incumbent: 0, candidate: 1 });
  it.each([
    ['not JSON', [good, good.replace('"a"', '"b"'), '{not json'], /^ratchet: outcomes line 3: not valid JSON \(.+\)\.\n$/],
    ['missing field', [good, JSON.stringify({ id: 'b', incumbent: 0 })], /^ratchet: outcomes line 2: "candidate" is missing; it must be a number in \[0, 1\]\.\n$/],
    ['score outside [0, 1] (blank lines still count)', ['', good, JSON.stringify({ id: 'b', incumbent: 1.5, candidate: 0 })], /^ratchet: outcomes line 3: "incumbent" must be a number in \[0, 1\], got 1\.5\.\n$/],
    ['non-numeric score', [good, JSON.stringify({ id: 'b', incumbent: '1', candidate: 0 })], /^ratchet: outcomes line 2: "incumbent" must be a number in \[0, 1\], got "1"\.\n$/],
    ['missing id', [good, JSON.stringify({ incumbent: 1, candidate: 0 })], /^ratchet: outcomes line 2: "id" is missing; it must be a non-empty string\.\n$/],
    ['not an object', [good, '[1, 2]'], /^ratchet: outcomes line 2: expected a JSON object/],
    ['duplicate item', [good, good], /^ratchet: outcomes line 2: item "a" appears twice \(first on line 1\); each item is tested once\.\n$/],
    ['candidateId on some lines only', [good, JSON.stringify({ candidateId: 'c1', id: 'b', incumbent: 0, candidate: 1 })], /^ratchet: outcomes line 2: "candidateId" appears, but earlier lines have none/],
    ['empty input', [], /^ratchet: No outcomes on stdin/],
  ] as [string, string[], RegExp][])('%s', (_label, lines, message) => {
    const r = gate(['pace+'], lines.join('\n') + '\n');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('names line 7 and the bad value, as a user sees it', () => {
    const rows = [...Array.from({ length: 6 }, (_, i) => JSON.stringify({ id: `item-${i + 1}`, incumbent: 0, candidate: 1 })), JSON.stringify({ id: 'item-7', incumbent: 0, candidate: 'yes' })];
    const r = gate(['pace+', '--json'], rows.join('\n') + '\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('ratchet: outcomes line 7: "candidate" must be a number in [0, 1], got "yes".\n');
  });

  it('rejects bad options with exit 2', () => {
    expect(gate(['pace+', '--alpha', '1.5'], jsonl(wins(undefined, 6))).stderr).toBe('ratchet: α must be a number in (0, 1), got 1.5.\n');
    expect(gate(['pace+', '--horizon', '3'], jsonl(wins(undefined, 6))).status).toBe(2);
    expect(gate(['pace+', '--scores', 'binary'], jsonl([{ id: 'a', incumbent: 0.5, candidate: 1 }])).stderr).toBe('ratchet: outcomes line 1: "incumbent" must be 0 or 1 with --scores binary, got 0.5.\n');
    expect(gate(['bogus'], '').status).toBe(2);
  });
});

describe('ratchet gate --population', () => {
  it('finite: four straight wins out of four items commit (no better on these items is ruled out); the population null needs six', () => {
    const input = jsonl(wins(undefined, 4));
    const finite = gate(['pace+', '--population', 'finite', '--json'], input);
    expect(finite.status, finite.stderr).toBe(0);
    expect(JSON.parse(finite.stdout)).toMatchObject({ decision: 'commit', reason: 'evidence', stoppedAt: 4 });
    const infinite = gate(['pace+', '--json'], input);
    expect(infinite.status).toBe(1);
    expect(JSON.parse(infinite.stdout)).toMatchObject({ decision: 'reject' });
  });

  it('is refused for gates without an e-process', () => {
    const r = gate(['sign', '--population', 'finite'], jsonl(wins(undefined, 4)));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--population finite applies to pace and pace\+, not sign\./);
  });
});
