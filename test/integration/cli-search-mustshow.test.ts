// What issue #13 says code search must show, through the built CLI against the fake
// OpenAI-compatible server: circle packing rises above its seed; the ShinkaEvolve-format example
// runs unchanged; in a null world (every edit neutral) on a noisy task the gate commits no more
// than α allows while greedy commits the lucky children; and the runs commands read a search run.
import { execFileSync, execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/core/journal/events';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { CLI, journal, runCli, runIds } from './evolveCli';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

/** A fresh copy of examples/code/<folder> in a temporary folder. */
function exampleCopy(folder: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ratchet-${folder}-`));
  cpSync(join('examples/code', folder), dir, { recursive: true });
  return dir;
}

/** The JSONL events `--json` printed. */
const jsonEvents = (stdout: string): EngineEvent[] =>
  stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as EngineEvent);

const evaluated = (events: readonly EngineEvent[]) => events.flatMap((e) => (e.type === 'program/evaluated' ? [e] : []));
const decided = (events: readonly EngineEvent[]) => events.flatMap((e) => (e.type === 'decision' ? [e.record] : []));

describe('ratchet search: the must-shows of issue #13', () => {
  it('circle packing rises above its seed within 60 evaluations, and the best program is a valid packing', async () => {
    const dir = exampleCopy('circle-packing');
    const program = join(dir, 'pack.mjs');
    const server = await startFakeServer({});
    try {
      // The example's own spec (pace+, which a deterministic single score turns into a strict
      // improvement, 60 proposals, 2 islands), the run's default seed, and the nudging proposer.
      const r = await runCli(['search', program, '--base-url', server.url, '--model', 'sim-proposer', '--evaluations', '60', '--json', '--apply', '-w', dir]);
      expect(r.code, r.stderr).toBe(0);
      const events = jsonEvents(r.stdout);
      const finished = events.at(-1);
      if (finished?.type !== 'run/finished') throw new Error(`the run did not finish: ${r.stderr}`);
      const scores = new Map(evaluated(events).map((e) => [e.candidateId, e.score]));
      const seedScore = scores.get('p0')!;
      expect(seedScore).toBe(1.9169561144739518);
      expect(evaluated(events).length).toBeLessThanOrEqual(60);
      const best = scores.get(finished.incumbentId!)!;
      expect(best).toBeGreaterThan(seedScore);
      // The journal on disk says the same as what --json printed.
      const [id] = runIds(dir);
      expect(journal(dir, id!).map((e) => e.type)).toEqual(events.map((e) => e.type));
      // --apply wrote the best program; the example's evaluator, run by hand as its README says,
      // finds it a valid packing with the score the run reported.
      const metrics = JSON.parse(execFileSync(process.execPath, ['evaluate.mjs', 'pack.mjs'], { cwd: dir, encoding: 'utf8' })) as { correct: boolean; combined_score: number };
      expect(metrics).toMatchObject({ correct: true, combined_score: best });
      expect(r.stderr).toContain(`wrote ${finished.incumbentId} into ${program}`);
    } finally {
      await server.close();
    }
  }, 300_000);

  it('runs the ShinkaEvolve-format example unchanged: no run spec, evaluate.py scores every program, the folder is untouched', async () => {
    const dir = exampleCopy('shinka-sorting-network');
    const before = fingerprint(dir);
    expect([...before.keys()].sort()).toEqual(['README.md', 'evaluate.py', 'initial.py']);
    // The nudging proposer finds no decimal literal in build_network(); neutral edits (a comment)
    // give children that evaluate.py must score all the same.
    const server = await startFakeServer({ scenario: { code: { edits: 'neutral' } } });
    try {
      // As the README says: cd into the folder and `ratchet search initial.py`.
      const r = await runCli(['search', 'initial.py', '--base-url', server.url, '--model', 'sim-proposer', '--proposals', '3'], {}, dir);
      const [id] = runIds(dir);
      expect(id, r.stderr).toBeDefined();
      const events = journal(dir, id!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      const programs = evaluated(events);
      // The seed's score is evaluate.py's (29 / 45 comparators), with the feedback it wrote to metrics.json.
      expect(programs[0]).toMatchObject({ candidateId: 'p0', correct: true, score: 0.6444444444444445 });
      expect(programs[0]!.feedback).toMatch(/45 comparators/);
      const children = programs.slice(1);
      expect(children.map((p) => p.candidateId)).toEqual(['p1', 'p2', 'p3']);
      for (const child of children) expect(child).toMatchObject({ correct: true, score: 0.6444444444444445 });
      // Nothing beat the seed, and the exit code says so.
      expect(decided(events).map((d) => d.decision)).toEqual(['reject', 'reject', 'reject']);
      expect(r.code).toBe(1);
      // The run wrote its journal and caches under .ratchet/ and nothing else: the example's files are byte for byte what they were.
      const after = fingerprint(dir);
      expect([...after.keys()].filter((f) => !f.startsWith('.ratchet/')).sort()).toEqual([...before.keys()].sort());
      for (const [file, hash] of before) expect(after.get(file), file).toBe(hash);
    } finally {
      await server.close();
    }
  }, 240_000);

  it('runs list, show and export read a finished search run', async () => {
    const dir = exampleCopy('circle-packing');
    const program = join(dir, 'pack.mjs');
    const server = await startFakeServer({});
    try {
      const r = await runCli(['search', program, '--base-url', server.url, '--model', 'sim-proposer', '--proposals', '3', '-w', dir]);
      const [id] = runIds(dir);
      const events = journal(dir, id!);
      const finished = events.at(-1);
      if (finished?.type !== 'run/finished') throw new Error(`the run did not finish: ${r.stderr}`);
      const children = decided(events);
      const commits = children.filter((d) => d.decision === 'commit').length;

      const list = await runCli(['runs', 'list', dir]);
      expect(list.code, list.stderr).toBe(0);
      const row = list.stdout.split('\n').find((l) => l.startsWith(id!));
      expect(row).toMatch(new RegExp(`^${id}\\s+search\\s+finished\\s+${program.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+.*\\s${children.length}\\s+${commits}\\s`));

      const show = await runCli(['runs', 'show', id!, '--workspace', dir]);
      expect(show.code, show.stderr).toBe(0);
      expect(show.stdout).toContain(`Run ${id} · search · ${program} · finished`);
      expect(show.stdout).toMatch(/program\/evaluated\s+p0 score 1\.91696 on 1 instance/);
      for (const d of children) expect(show.stdout).toMatch(new RegExp(`decision\\s+${d.decision.toUpperCase()} ${d.candidateId} `));
      expect(show.stdout).toMatch(new RegExp(`run/finished\\s+${children.length} candidates, ${commits} commits?; incumbent ${finished.incumbentId}`));

      const exported = await runCli(['runs', 'export', id!, '--workspace', dir, '--format', 'json']);
      expect(exported.code, exported.stderr).toBe(0);
      const doc = JSON.parse(exported.stdout) as { run: { runId: string; kind: string; target: string }; events: EngineEvent[] };
      expect(doc.run).toMatchObject({ runId: id, kind: 'search', target: program });
      expect(doc.events).toEqual(events);
    } finally {
      await server.close();
    }
  }, 180_000);

  // The null world: every child is its parent with one comment changed, so every commit is a
  // false one. On the noisy task the shipped evaluator would be too slow here: it starts a worker
  // per seed (about 70 ms), 30 seeds for each of 220 evaluations. This evaluator is the same task
  // lean — the same optimise.mjs, Rastrigin and score, 500 calls to f per seed instead of 2,000 —
  // run in one process, and it seeds
  // each instance from the instance id *and the program's text*. So a comment-only child draws
  // seeds of its own: its scores differ from its parent's as much as two fresh evaluations do (the
  // noise of a timing benchmark, or of an evaluator seeded from the clock), yet every evaluation
  // is repeatable and so is this test. (The shipped evaluator seeds by the id alone: a child that
  // runs exactly as its parent ties it on every seed, and no gate, greedy included, commits it.)
  it('null world on the noisy task: PACE+ commits no more neutral children than α allows, greedy commits its lucky ones', async () => {
    const server = await startFakeServer({ scenario: { code: { edits: 'neutral' } } });
    try {
      const [pace, greedy] = await Promise.all(
        (['pace+', 'greedy'] as const).map(async (gate) => {
          const dir = leanNoisyTask();
          const r = await runCli(['search', join(dir, 'optimise.mjs'), '--base-url', server.url, '--gate', gate, '--proposals', String(PROPOSALS), '-w', dir]);
          const [id] = runIds(dir);
          const events = journal(dir, id!);
          expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
          return events;
        }),
      );
      for (const events of [pace!, greedy!]) {
        expect(decided(events).length).toBeGreaterThanOrEqual(100);
        // Neutral children are correct: every rejection is the gate's, none the evaluator's.
        expect(decided(events).filter((d) => d.reason === 'incorrect')).toEqual([]);
      }
      expect(decided(pace!).every((d) => d.gate === 'pace+')).toBe(true);
      expect(decided(greedy!).every((d) => d.gate === 'greedy')).toBe(true);
      const commits = (events: EngineEvent[]) => decided(events).filter((d) => d.decision === 'commit').length;
      // PACE+ (per-candidate, α = 0.05): each neutral child commits with probability at most α, as
      // child and seed scores on an instance are exchangeable (E[Δ] = 0). Were the 110 tests
      // independent, the commits would be Binomial(110, 0.05) and P(≥ 14) = 0.0012. They share
      // the seed's scores, so that tail is not exact, but the band is far from the edge: the run's
      // pre-flight says a commit needs about 0.14 per instance on nearly all 30, while the seed's
      // luck moves its mean by 0.012 (sd, measured: the per-instance sd is 0.070). None commit.
      expect(commits(pace!)).toBeLessThanOrEqual(13);
      // Greedy commits a child whose mean beats its island's incumbent's. It commits none only if
      // the seed's mean beats all 110 children's; the 111 means are exchangeable, so that happens
      // with probability 1/111 = 0.009. Not half the children, as one comparison against a fresh
      // parent each would (bench:search's design): the incumbent is the luckiest program so far,
      // so the commits are records, about ln(55) per island — and each lucky child becomes the
      // bar the next must beat (ShinkaEvolve#119).
      expect(commits(greedy!)).toBeGreaterThanOrEqual(1);
      // What the user is told: a better program, scored above the seed, that is the seed with a
      // comment changed.
      const finished = greedy!.at(-1);
      if (finished?.type !== 'run/finished') throw new Error('the greedy run did not finish');
      const scores = new Map(evaluated(greedy!).map((e) => [e.candidateId, e.score!]));
      expect(scores.get(finished.incumbentId!)).toBeGreaterThan(scores.get('p0')!);
      const textOf = (id: string) => greedy!.flatMap((e) => (e.type === 'candidate/proposed' && e.candidateId === id ? [e.text] : []))[0]!;
      const code = (text: string) => text.split('\n').filter((l) => !l.trimStart().startsWith('//'));
      expect(textOf(finished.incumbentId!)).not.toBe(textOf('p0'));
      expect(code(textOf(finished.incumbentId!))).toEqual(code(textOf('p0')));
    } finally {
      await server.close();
    }
  }, 600_000); // 220 evaluator runs: about 85 s of CPU, minutes of wall time on a loaded two-core machine
});

const PROPOSALS = 110;

// The noisy task's evaluator, lean (see above): one process, Math.random seeded per instance by
// mulberry32 of a hash of the program's text and the instance id.
const LEAN_EVALUATOR = `
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [program, , instancesFile] = process.argv.slice(2);
const text = readFileSync(program, 'utf8');
const ids = readFileSync(instancesFile, 'utf8').split('\\n').filter((l) => l.trim() !== '');
const { run } = await import(pathToFileURL(program).href);
const problem = { dim: 3, lower: -5.12, upper: 5.12, budget: 500 };
const SPENT = new Error('budget spent');
function mulberry32(s) {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const instances = {};
for (const id of ids) {
  Math.random = mulberry32(createHash('sha256').update(text + '\\0' + id).digest().readUInt32LE(0));
  let calls = 0;
  let best = Infinity;
  const f = (x) => {
    if (calls++ >= problem.budget) throw SPENT;
    let y = 10 * problem.dim;
    for (const v of x) y += v * v - 10 * Math.cos(2 * Math.PI * v);
    best = Math.min(best, y);
    return y;
  };
  try {
    run(f, problem);
  } catch (e) {
    if (e !== SPENT) throw e;
  }
  instances[id] = 1 / (1 + best);
}
const scores = Object.values(instances);
console.log(JSON.stringify({ correct: true, combined_score: scores.reduce((a, b) => a + b, 0) / scores.length, instances }));
`;

/** optimise.mjs as shipped, beside the lean evaluator and a spec like the example's (see the test). */
function leanNoisyTask(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-noisy-'));
  cpSync('examples/code/noisy-optimiser/optimise.mjs', join(dir, 'optimise.mjs'));
  writeFileSync(join(dir, 'evaluate.mjs'), LEAN_EVALUATOR);
  writeFileSync(
    join(dir, 'optimise.mjs.ratchet.yaml'),
    [
      'kind: code',
      'evaluator:',
      '  command: node evaluate.mjs {program} {results} {instances}',
      '  supportFiles: [evaluate.mjs]',
      '  timeoutSeconds: 60',
      '  repeats: 30',
      'gate: pace+',
      'models:',
      '  proposer: { model: sim-proposer }',
      // No migration: every child is gated against its own island's incumbent, as stated above.
      'islands: 2',
      'search: { migrationRate: 0 }',
      '',
    ].join('\n'),
  );
  return dir;
}

/** Every file under `dir`, by relative path, with its SHA-256. */
function fingerprint(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}
