// `ratchet search` through the built CLI against the fake OpenAI-compatible server, whose proposer
// answers code-search requests in ShinkaEvolve's formats (nudging a numeric literal inside the
// EVOLVE-BLOCK). The evaluator is a real command run in the sandbox: it scores the program on 40
// instances. Checked: the run journals programs and gate decisions, every child keeps the frozen
// text, the evaluator never sees the API key, and --apply writes the best program only into a file
// that still holds the text the run started from.
import { execSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { frozenSegments, parseBlocks } from '../../src/core/code/blocks';
import type { EngineEvent } from '../../src/core/journal/events';
import { EXIT_NOTHING_ACCEPTED } from '../../src/cli/exitCodes';
import { CLI, evolveThenKill, journal, runCli, runIds } from './evolveCli';
import { EVALUATOR, PROGRAM, searchWorkspace } from './searchWorkspace';
import type { SearchWorkspace } from './searchWorkspace';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

const workspace = (): SearchWorkspace => searchWorkspace();

describe('ratchet search', () => {
  it('journals proposals and gate decisions, keeps the frozen text, hides the key, and --apply writes the best program', async () => {
    const ws = workspace();
    const server = await startFakeServer({});
    try {
      const r = await runCli(['search', ws.program, '--base-url', server.url, '--proposals', '6', '--apply', '-w', ws.dir], { OPENAI_API_KEY: 'sk-test-secret' });
      const [id] = runIds(ws.dir);
      expect(id, r.stderr).toBeDefined();
      const events: EngineEvent[] = journal(ws.dir, id!);
      expect(events[0]?.type).toBe('run/started');
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      const children = events.flatMap((e) => (e.type === 'candidate/proposed' && e.candidateId !== 'p0' ? [e.text] : []));
      const decisions = events.filter((e) => e.type === 'decision');
      expect(children.length).toBeGreaterThan(0);
      expect(decisions.length).toBe(children.length);
      const frozen = frozenSegments(PROGRAM, parseBlocks(PROGRAM));
      for (const text of children) expect(frozenSegments(text, parseBlocks(text))).toEqual(frozen);
      // The evaluator ran in the sandbox: no variable that looks like a key reached it.
      const feedback = events.flatMap((e) => (e.type === 'program/evaluated' && e.feedback !== undefined ? [e.feedback] : []));
      expect(feedback.length).toBeGreaterThan(0);
      for (const f of feedback) expect(f).toBe('env keys: ');
      expect(readFileSync(join(ws.dir, '.ratchet', 'runs', id!, 'events.jsonl'), 'utf8')).not.toContain('sk-test-secret');
      // A nudge of `rate` toward 0.5 is better on every instance by a margin the gate sees.
      const commits = decisions.filter((e) => e.type === 'decision' && e.record.decision === 'commit').length;
      expect(commits).toBeGreaterThan(0);
      expect(r.code).toBe(0);
      // --apply wrote the best program, frozen text and all, into the file nobody touched meanwhile.
      const now = readFileSync(ws.program, 'utf8');
      expect(now).not.toBe(PROGRAM);
      expect(Number(/rate = ([\d.]+)/.exec(now)![1])).toBeGreaterThan(0.3);
      expect(frozenSegments(now, parseBlocks(now))).toEqual(frozen);
    } finally {
      await server.close();
    }
  }, 180_000);

  it('--evaluator naming a script beside the program runs it in the sandbox, and an edited evaluator is run again, not read from the cache', async () => {
    const ws = workspace();
    // No spec at all: the flag alone names the evaluator, by its file name beside the program.
    rmSync(join(ws.dir, 'step.mjs.ratchet.yaml'));
    const server = await startFakeServer({});
    try {
      const args = ['search', ws.program, '--base-url', server.url, '--model', 'sim-proposer', '--proposals', '2', '--evaluator', 'node evaluate.mjs {program} {results}', '-w', ws.dir, '--json'];
      const first = await runCli(args);
      const [a] = runIds(ws.dir);
      const seedOf = (id: string) => journal(ws.dir, id).find((e): e is Extract<EngineEvent, { type: 'program/evaluated' }> => e.type === 'program/evaluated' && e.candidateId === 'p0');
      expect(seedOf(a!)?.correct, first.stderr).toBe(true);
      expect(seedOf(a!)?.feedback).toBe('env keys: ');
      // The same search again, with the evaluator's feedback changed: its seed is evaluated anew.
      writeFileSync(join(ws.dir, 'evaluate.mjs'), readFileSync(join(ws.dir, 'evaluate.mjs'), 'utf8').replace("'env keys: '", "'edited, env keys: '"));
      await runCli(args);
      const b = runIds(ws.dir).find((id) => id !== a);
      expect(seedOf(b!)?.feedback).toBe('edited, env keys: ');
    } finally {
      await server.close();
    }
  }, 180_000);

  it('a proposer whose answers can never be read stops the search after search.stopAfterFailedProposals in a row, and the CLI says why with the first failure’s words', async () => {
    const ws = workspace();
    // No decimal literal in the block: the fake proposer finds nothing to nudge and answers with a name and no edit.
    writeFileSync(ws.program, PROGRAM.replace('const rate = 0.300;', 'const rate = 3 / 10;'));
    writeFileSync(join(ws.dir, 'step.mjs.ratchet.yaml'), `${readFileSync(join(ws.dir, 'step.mjs.ratchet.yaml'), 'utf8')}search: { stopAfterFailedProposals: 3 }\n`);
    const server = await startFakeServer({});
    try {
      const r = await runCli(['search', ws.program, '--base-url', server.url, '--proposals', '40', '-w', ws.dir]);
      const [id] = runIds(ws.dir);
      const events: EngineEvent[] = journal(ws.dir, id!);
      const finished = events.at(-1);
      expect(finished?.type, r.stderr).toBe('run/finished');
      const first = events.find((e): e is Extract<EngineEvent, { type: 'proposal/failed' }> => e.type === 'proposal/failed');
      expect(first?.reason).toBe('format');
      const why = finished?.type === 'run/finished' ? finished.stopped : undefined;
      expect(why).toMatch(/^3 proposals in a row came to nothing \(search\.stopAfterFailedProposals\); the first could not be read: /);
      // Its words are the first failure's own.
      expect(first!.message.replace(/\s+/g, ' ')).toContain(why!.split('could not be read: ')[1]!.replace(/…?\.$/, ''));
      expect(r.stderr).toContain(`stopped early: ${why}`);
      // Three proposals, and the few already in flight beside them: far from the 40 the budget allows.
      const proposals = new Set(events.flatMap((e) => (e.type === 'proposal/failed' ? [`${e.parentId}:${e.attempt}`] : []))).size;
      expect(proposals).toBeGreaterThan(0);
      expect(server.calls.filter((c) => c.role === 'proposer').length).toBeLessThan(40);
      expect(r.code).toBe(EXIT_NOTHING_ACCEPTED);
    } finally {
      await server.close();
    }
  }, 180_000);

  it('refuses a file with unpaired markers at its line, before any call', async () => {
    const ws = workspace();
    writeFileSync(ws.program, PROGRAM.replace('  // EVOLVE-BLOCK-END\n', ''));
    const server = await startFakeServer({});
    try {
      const r = await runCli(['search', ws.program, '--base-url', server.url, '--proposals', '2', '-w', ws.dir]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/step\.mjs:3: EVOLVE-BLOCK-START/);
      expect(server.calls.length).toBe(0);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('a dollar budget needs the price of every model the search calls: each proposer model, the meta and judge models, the embedding model', async () => {
    const ws = workspace();
    const spec = (search: string[], models = '  proposer: { model: sim-proposer, price: { input: 1, output: 1 } }'): void =>
      writeFileSync(
        join(ws.program + '.ratchet.yaml'),
        ['kind: code', 'evaluator:', '  command: node evaluate.mjs {program} {results}', '  supportFiles: [evaluate.mjs]', 'models:', models, 'budget: { dollars: 1 }', 'islands: 1', 'search:', ...search, ''].join('\n'),
      );
    const server = await startFakeServer({});
    try {
      const refused = async (field: string, model: string): Promise<void> => {
        const r = await runCli(['search', ws.program, '--base-url', server.url, '--proposals', '1', '-w', ws.dir]);
        expect(r.code, r.stderr).not.toBe(0);
        // A role's model is refused as a prompt run's is (setup/pricing.ts, at the spec's line); a listed model by the search.
        expect(r.stderr).toMatch(new RegExp(`budget.dollars needs a price for ${model}|budget.dollars is \\$1, but the \\w+ role's model ${model} has no known price`));
        expect(r.stderr).toContain(field);
        expect(server.calls.length).toBe(0);
      };
      spec(['  proposerModels:', '    - { model: sim-proposer-a, price: { input: 1, output: 1 } }', '    - sim-proposer-b']);
      await refused('search.proposerModels', 'sim-proposer-b');
      spec(['  novelty: { embedding: sim-embedding }']);
      await refused('search.novelty.embedding', 'sim-embedding');
      spec(['  metaEvery: 0'], '  proposer: { model: sim-proposer, price: { input: 1, output: 1 } }\n  validator: sim-validator');
      await refused('models.validator.price', 'sim-validator');
      spec(['  metaEvery: 0', '  novelty: { judge: false }'], '  proposer: { model: sim-proposer, price: { input: 1, output: 1 } }\n  validator: sim-validator');
      const r = await runCli(['search', ws.program, '--base-url', server.url, '--proposals', '1', '-w', ws.dir]);
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await server.close();
    }
  }, 120_000);

  // The shipped examples start: the seed is evaluated in the sandbox through each one's own spec
  // (a deterministic single score; 120 instances read through an empty {instances} file).
  it.each([
    ['circle-packing', 'pack.mjs', 1],
    ['bin-packing', 'binpack.mjs', 120],
  ])(
    'examples/code/%s runs as shipped',
    async (folder, file, instances) => {
      const dir = mkdtempSync(join(tmpdir(), 'ratchet-example-'));
      cpSync(join('examples/code', folder), dir, { recursive: true });
      const server = await startFakeServer({});
      try {
        const r = await runCli(['search', join(dir, file), '--base-url', server.url, '--model', 'sim-proposer', '--proposals', '1', '-w', dir]);
        const [id] = runIds(dir);
        const events = journal(dir, id!);
        expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
        const seed = events.find((e) => e.type === 'program/evaluated' && e.candidateId === 'p0');
        expect(seed).toMatchObject({ correct: true, instances });
      } finally {
        await server.close();
      }
    },
    180_000,
  );

  it('killed with SIGKILL mid-run and resumed: the same decisions as an uninterrupted run, and no finished evaluation runs again', async () => {
    // The evaluator notes each run of itself in a log the spec lets through (env: [EVAL_LOG]); the
    // log is a file of the test's, which a jailed evaluator could not reach: isolation off.
    const counted = (ws: { dir: string; program: string }) => {
      const spec = join(ws.dir, 'step.mjs.ratchet.yaml');
      writeFileSync(spec, readFileSync(spec, 'utf8').replace('  timeoutSeconds: 60\n', '  timeoutSeconds: 60\n  env: [EVAL_LOG]\n  isolation: off\n'));
      writeFileSync(join(ws.dir, 'evaluate.mjs'), `import { appendFileSync } from 'node:fs';\nappendFileSync(process.env.EVAL_LOG, 'run\\n');\n${EVALUATOR}`);
      return join(ws.dir, 'evals.log');
    };
    const reference = workspace();
    const resumed = workspace();
    const logA = counted(reference);
    const logB = counted(resumed);
    const server = await startFakeServer({});
    const decisionsOf = (dir: string, id: string) => journal(dir, id).flatMap((e) => (e.type === 'decision' ? [`${e.record.candidateId} ${e.record.decision} ${e.record.itemsConsumed}`] : []));
    try {
      const args = (ws: { dir: string; program: string }) => ['search', ws.program, '--base-url', server.url, '--proposals', '8', '-w', ws.dir];
      const a = await runCli(args(reference), { EVAL_LOG: logA });
      expect(a.code, a.stderr).toBe(0);
      const [idA] = runIds(reference.dir);
      process.env.EVAL_LOG = logB;
      const { runId } = await evolveThenKill(args(resumed), resumed.dir, 2);
      const before = readFileSync(logB, 'utf8').split('\n').filter(Boolean).length;
      const r = await runCli(['search', '--resume', runId, '--base-url', server.url, '-w', resumed.dir], { EVAL_LOG: logB });
      expect(r.code, r.stderr).toBe(0);
      expect(decisionsOf(resumed.dir, runId)).toEqual(decisionsOf(reference.dir, idA!));
      const events = journal(resumed.dir, runId);
      expect(events.filter((e) => e.type === 'run/resumed')).toHaveLength(1);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      // Every evaluation the killed process finished came from the cache; at most those in flight at
      // the kill ran again — one per evaluator slot (the workspace's spec has concurrency: 2).
      const runsA = readFileSync(logA, 'utf8').split('\n').filter(Boolean).length;
      const runsB = readFileSync(logB, 'utf8').split('\n').filter(Boolean).length;
      expect(before).toBeGreaterThan(0);
      expect(runsB).toBeLessThanOrEqual(runsA + 2);
    } finally {
      delete process.env.EVAL_LOG;
      await server.close();
    }
  }, 240_000);

  it('--gate pairwise: each child is judged against its incumbent by the validator model in both orders, journaled like a prompt run', async () => {
    const ws = workspace();
    const spec = join(ws.dir, 'step.mjs.ratchet.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('  proposer: { model: sim-proposer }\n', '  proposer: { model: sim-proposer }\n  validator: { model: sim-validator }\nsearch: { parentSelection: bt }\n'));
    const server = await startFakeServer({});
    try {
      const r = await runCli(['search', ws.program, '--gate', 'pairwise', '--base-url', server.url, '--proposals', '4', '--json', '-w', ws.dir]);
      // The fake validator sees no quality in a program's diff (it has no prompt-version marker), so
      // every comparison is a tie: nothing commits, and the CLI says so by its exit code.
      expect(r.code, r.stderr).toBe(EXIT_NOTHING_ACCEPTED);
      const [id] = runIds(ws.dir);
      const events: EngineEvent[] = journal(ws.dir, id!);
      expect(events.some((e) => e.type === 'log' && e.message.startsWith('Gate pairwise') && e.message.includes('no e-process'))).toBe(true);
      const decisions = events.flatMap((e) => (e.type === 'decision' ? [e.record] : []));
      expect(decisions.length).toBeGreaterThan(0);
      for (const d of decisions) {
        expect(d).toMatchObject({ gate: 'pairwise', reason: 'validator', logWealth: 0, ties: 1, decision: 'reject' });
        const verdicts = events.filter((e) => e.type === 'verdict' && e.candidateId === d.candidateId);
        expect(verdicts.map((v) => v.type === 'verdict' && v.order)).toEqual(['child-first', 'parent-first']);
      }
      // The --json stream carries the same decisions, and the comparisons went to the validator's model.
      const printed = r.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as EngineEvent);
      expect(printed.filter((e) => e.type === 'decision').length).toBe(decisions.length);
      const judged = server.calls.filter((c) => c.model === 'sim-validator');
      expect(judged.length).toBe(2 * decisions.length);
    } finally {
      await server.close();
    }
  }, 180_000);
});
