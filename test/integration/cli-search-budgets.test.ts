// A code search's budgets are limits, through the built CLI against the fake OpenAI-compatible
// server (issue #27): --evaluations N runs the evaluator at most N times whatever the slots (the
// evaluator counts itself), a dollar budget is not passed by more than one call, a wall budget
// stops an evaluation that is still running, and the estimate is said before the first call.
// Fix mode on a single-score evaluator repairs a broken seed and goes on.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { EngineEvent, EventOf } from '../../src/core/journal/events';
import { CLI, journal, runCli, runIds } from './evolveCli';
import { EVALUATOR, searchWorkspace } from './searchWorkspace';
import type { SearchWorkspace } from './searchWorkspace';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

const specPath = (ws: SearchWorkspace) => join(ws.dir, 'step.mjs.ratchet.yaml');

/** The spec with `lines` added at its top level. */
function addToSpec(ws: SearchWorkspace, ...lines: string[]): void {
  writeFileSync(specPath(ws), `${readFileSync(specPath(ws), 'utf8')}${lines.join('\n')}\n`);
}

/**
 * The evaluator notes each run of itself in a log the spec lets through (env: [EVAL_LOG]); the log
 * is a file of the test's, which a jailed evaluator could not reach: isolation off. `evaluator`
 * replaces the workspace's scoring script.
 */
function countedEvaluations(ws: SearchWorkspace, evaluator = EVALUATOR): string {
  writeFileSync(specPath(ws), readFileSync(specPath(ws), 'utf8').replace('  timeoutSeconds: 60\n', '  timeoutSeconds: 60\n  env: [EVAL_LOG]\n  isolation: off\n'));
  writeFileSync(join(ws.dir, 'evaluate.mjs'), `import { appendFileSync } from 'node:fs';\nappendFileSync(process.env.EVAL_LOG, 'run\\n');\n${evaluator}`);
  return join(ws.dir, 'evals.log');
}

const linesOf = (file: string): number => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);

describe('ratchet search: budgets are limits', () => {
  const cases = [1, 2, 3, 5].flatMap((n) => [1, 2, 4].map((slots) => [n, slots] as const));
  it.each(cases)(
    '--evaluations %i with %i slots runs the evaluator at most that often, and the run finishes',
    async (n, slots) => {
      const ws = searchWorkspace();
      const log = countedEvaluations(ws);
      const server = await startFakeServer({});
      try {
        const r = await runCli(['search', ws.program, '--base-url', server.url, '--proposals', '12', '--evaluations', String(n), '--concurrency', String(slots), '-w', ws.dir], { EVAL_LOG: log });
        const [id] = runIds(ws.dir);
        const events = journal(ws.dir, id!);
        expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
        expect(linesOf(log)).toBeGreaterThan(0);
        expect(linesOf(log)).toBeLessThanOrEqual(n);
        // The CLI's own count says the same.
        expect(Number(/(\d+) evaluations/.exec(r.stderr)?.[1])).toBeLessThanOrEqual(n);
      } finally {
        await server.close();
      }
    },
    180_000,
  );

  it('a priced search says its estimate first and never passes its dollar budget by more than one call', async () => {
    const ws = searchWorkspace();
    // About $0.3 a call: the budget allows three, and eight slots would send eight at once if their
    // input were not counted before they are sent (the slow endpoint keeps them all in flight).
    writeFileSync(specPath(ws), readFileSync(specPath(ws), 'utf8').replace('  proposer: { model: sim-proposer }', '  proposer: { model: sim-proposer, price: { input: 1000, output: 1000 } }'));
    addToSpec(ws, 'budget: { dollars: 1 }', 'search: { metaEvery: 0, novelty: { judge: false } }');
    const server = await startFakeServer({ latencyMs: 1000 });
    try {
      const r = await runCli(['search', ws.program, '--base-url', server.url, '--proposals', '40', '--concurrency', '8', '-w', ws.dir]);
      expect(r.stderr.split('\n')[1], r.stderr).toMatch(/^estimate: ≈ \d+ calls?, ≈ [\d.]+k? tok, ≈ \$\d+\.\d+ \(an upper estimate\)$/);
      const [id] = runIds(ws.dir);
      const events = journal(ws.dir, id!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      const started = events[0] as EventOf<'run/started'>;
      expect(started.info.estimate).toMatchObject({ calls: expect.any(Number), dollars: expect.any(Number) });
      const cost = events.filter((e): e is EventOf<'cost/update'> => e.type === 'cost/update').at(-1)!.cost.proposer;
      expect(cost.calls).toBe(server.calls.filter((c) => c.model === 'sim-proposer').length);
      // Every call sent was answered and counted: what the meter says is what was spent.
      const spent = cost.dollars!;
      const perCall = spent / cost.calls;
      expect(spent).toBeGreaterThan(0);
      expect(spent).toBeLessThanOrEqual(1 + perCall);
      expect(events.some((e) => e.type === 'log' && /budget is spent/.test(e.message))).toBe(true);
    } finally {
      await server.close();
    }
  }, 180_000);

  it('a wall budget stops an evaluation that is still running: the child is stopped, and the run ends with its seed', async () => {
    const ws = searchWorkspace();
    // Every child's evaluation hangs for ten minutes; the seed's does not.
    writeFileSync(join(ws.dir, 'evaluate.mjs'), `${EVALUATOR.replace('const rate = step();', 'const rate = step();\nif (rate !== 0.3) await new Promise((r) => setTimeout(r, 600_000));')}`);
    addToSpec(ws, 'budget: { wallTimeMinutes: 0.3 }');
    const server = await startFakeServer({});
    try {
      const began = Date.now();
      const r = await runCli(['search', ws.program, '--base-url', server.url, '--proposals', '4', '--concurrency', '1', '-w', ws.dir]);
      // 18 s of budget; the sandbox, the seed and a loaded machine take the rest, far from ten minutes.
      expect(Date.now() - began).toBeLessThan(120_000);
      const [id] = runIds(ws.dir);
      const events: EngineEvent[] = journal(ws.dir, id!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      const stopped = events.filter((e): e is EventOf<'candidate/stopped'> => e.type === 'candidate/stopped');
      expect(stopped.length).toBeGreaterThan(0);
      expect(stopped[0]).toMatchObject({ reason: 'budget', budget: '0.3 minutes of wall time' });
    } finally {
      await server.close();
    }
  }, 180_000);
});

describe('ratchet search: fix mode on a single-score evaluator', () => {
  it('a broken seed, then a correct child: the child repairs the island and the search goes on', async () => {
    const ws = searchWorkspace();
    // One score, no instances; the seed (rate 0.3) is incorrect, every nudged child is correct.
    writeFileSync(
      join(ws.dir, 'evaluate.mjs'),
      `
import { pathToFileURL } from 'node:url';
const [program] = process.argv.slice(2);
const { step } = await import(pathToFileURL(program).href);
const rate = step();
if (rate === 0.3) {
  console.error('rate 0.3 is not allowed');
  console.log(JSON.stringify({ correct: false, error: 'rate 0.3 is not allowed' }));
} else console.log(JSON.stringify({ correct: true, combined_score: Math.max(0, 1 - Math.abs(rate - 0.5)) }));
`,
    );
    const server = await startFakeServer({});
    try {
      const r = await runCli(['search', ws.program, '--base-url', server.url, '--proposals', '5', '--concurrency', '1', '-w', ws.dir]);
      const [id] = runIds(ws.dir);
      const events = journal(ws.dir, id!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/\d+ repaired/);
      const evaluated = events.filter((e): e is EventOf<'program/evaluated'> => e.type === 'program/evaluated');
      expect(evaluated[0]).toMatchObject({ candidateId: 'p0', correct: false });
      const repair = evaluated.find((e) => e.correct);
      expect(repair?.score).toEqual(expect.any(Number));
      expect(Number.isFinite(repair!.score)).toBe(true);
      expect(events.some((e) => e.type === 'log' && e.message.includes(`${repair!.candidateId} repairs island 0`))).toBe(true);
      // After the repair the search goes on: later children are tested against the repaired incumbent.
      const later = events.filter((e) => e.type === 'decision');
      expect(later.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 180_000);
});
