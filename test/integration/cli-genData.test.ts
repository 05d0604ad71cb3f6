// `ratchet gen-data` (zero-data, issue #17) through the built CLI against the fake OpenAI-compatible
// server, whose challenger writes <question> blocks (some empty, unclosed or repeated), splits and
// composes tasks, and whose judge scores answers and orders pairs. Checked: the dev set and the
// test split are valid JSONL datasets whose items passed the filters, with provenance; the journal
// holds each round's counts, reliability and exemplars; an existing file is never replaced without
// --force; and a run killed with -9 and run again pays for no call a second time beyond those in flight.
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseDataset } from '../../src/core/data/dataset';
import type { EventOf } from '../../src/core/journal/events';
import { symmetricBleu } from '../../src/core/zero/bleu';
import { DEFAULT_DUPLICATE_BLEU } from '../../src/core/zero/dedup';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { ScenarioInput } from '../fixtures/fakeOpenAI/scenario';
import { CLI, journal, journalSoFar, runCli, runIds, startCli } from './evolveCli';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

// A noisy Solver (each sample right with probability ½) so most tasks have spread; a good judge.
const SCENARIO: ScenarioInput = { seed: 3, agent: { baseAccuracy: 0.5, noise: 1 }, validator: { accuracy: 0.85, positionBias: 0, tieRate: 1 } };
const CONCURRENCY = 4;
/**
 * Calls a kill -9 can catch in flight: one per concurrency slot, since a slot is freed only once
 * its answer is durable in the response cache (an answer received and not yet written still holds
 * its slot). Counted by request body, so a body the run sends twice by design counts twice.
 */
const IN_FLIGHT = CONCURRENCY;

function workspace(): { dir: string; prompt: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-gendata-'));
  const prompt = join(dir, 'sums.prompt.md');
  writeFileSync(prompt, '---\ndescription: arithmetic word problems\n---\nYou solve arithmetic problems.\n\nQuestion: {{question}}\n\nEnd with "The answer is N".\n');
  writeFileSync(join(dir, 'sums.ratchet.yaml'), ['models:', '  agent: { model: sim-agent }', '  validator: { model: sim-validator }', '  challenger: { model: sim-challenger }', 'seed: 5', `concurrency: ${CONCURRENCY}`].join('\n') + '\n');
  return { dir, prompt };
}

const ARGS = ['--tasks', '8', '--keep', '3', '--samples', '4', '--rounds', '2'];

// For `ratchet evolve` without a dataset: a proposer with scripted edits, a judge with a position
// bias (so some known-order pairs split and become exemplars), the reward-free gate.
const EVOLVE_SCENARIO: ScenarioInput = {
  ...SCENARIO,
  validator: { accuracy: 0.85, positionBias: 0.4, tieRate: 1 },
  proposer: {
    edits: [
      { id: '1', text: 'Check the arithmetic twice.', effect: { kind: 'gain', delta: 0.4 } },
      { id: '2', text: 'Be brief.', effect: { kind: 'neutral', churn: 0.2 } },
      { id: '3', text: 'Show the steps.', effect: { kind: 'neutral', churn: 0.2 } },
      { id: '4', text: 'Use a table.', effect: { kind: 'harm', delta: 0.2 } },
    ],
  },
};

function evolveWorkspace(): { dir: string; prompt: string } {
  const ws = workspace();
  writeFileSync(
    join(ws.dir, 'sums.ratchet.yaml'),
    [
      'models:',
      '  agent: { model: sim-agent }',
      '  proposer: { model: sim-proposer }',
      '  validator: { model: sim-validator }',
      '  meta: { model: sim-meta }',
      '  challenger: { model: sim-challenger }',
      'gate: { name: pace-rf, alpha: 0.1 }',
      'budget: { candidates: 4 }',
      'seed: 5',
      `concurrency: ${CONCURRENCY}`,
    ].join('\n') + '\n',
  );
  return ws;
}

function records(path: string) {
  const text = readFileSync(path, 'utf8');
  const parsed = parseDataset(path, text);
  expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return {
    items: parsed.items,
    raw: text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { vars: { question: string }; metadata: { zeroData: Record<string, unknown> } }),
  };
}

const rounds = (dir: string, id: string) => journal(dir, id).filter((e): e is EventOf<'zero/round'> => e.type === 'zero/round');

describe('ratchet gen-data', () => {
  it('writes a dev set and a held-out test split whose items passed the filters, with provenance, and journals each round', async () => {
    const ws = workspace();
    const server = await startFakeServer({ scenario: SCENARIO });
    try {
      const r = await runCli(['gen-data', ws.prompt, ...ARGS, '--base-url', server.url, '-w', ws.dir]);
      expect(r.code, r.stderr).toBe(0);
      // The pre-flight states the estimate before any call; the summary has a row per round.
      expect(r.stderr).toMatch(/estimate: ≈ \d+ calls/);
      expect(r.stderr).toMatch(/^round\s+written\s+format\s+duplicate/m);
      const devPath = join(ws.dir, 'sums.dev.jsonl');
      const testPath = join(ws.dir, 'sums.test.jsonl');
      expect(r.stdout.trim()).toBe(devPath);
      const dev = records(devPath);
      const test = records(testPath);
      expect(dev.items.length).toBeGreaterThan(0);
      expect(dev.items.length).toBeLessThanOrEqual(2 * 3);
      expect(test.items.length).toBeGreaterThan(0);
      const all = [...dev.raw, ...test.raw];
      for (const rec of all) {
        // Well-formed (no empty or unclosed block made it), one variable, no label invented.
        expect(rec.vars.question).toMatch(/^What is \d+ [+\-×] \d+\?$/);
        expect(Object.keys(rec)).toEqual(['vars', 'metadata']);
        const p = rec.metadata.zeroData;
        expect([1, 2]).toContain(p['round']);
        expect(p['challengerModel']).toBe('sim-challenger');
        expect(p['difficulty']).toBeGreaterThanOrEqual(0);
        expect(p['difficulty']).toBeLessThanOrEqual(1);
      }
      for (const rec of dev.raw) {
        expect(rec.metadata.zeroData['split']).toBe('dev');
        expect(rec.metadata.zeroData['dispersion']).toBeGreaterThan(0);
      }
      for (const rec of test.raw) expect(rec.metadata.zeroData['split']).toBe('test');
      // No two items are near-duplicates, across rounds and splits.
      for (let i = 0; i < all.length; i++) for (let j = i + 1; j < all.length; j++) expect(symmetricBleu(all[i]!.vars.question, all[j]!.vars.question)).toBeLessThan(DEFAULT_DUPLICATE_BLEU);

      const [id] = runIds(ws.dir);
      const events = rounds(ws.dir, id!);
      expect(events.map((e) => e.round)).toEqual([1, 2]);
      for (const e of events) {
        // The fake Challenger's empty, unclosed and repeated blocks are counted by reason.
        expect(e.discarded.format.empty).toBe(1);
        expect(e.discarded.format.unclosedTag).toBe(1);
        expect(e.discarded.duplicate).toBeGreaterThanOrEqual(1);
        expect(e.reliability.map((x) => x.type)).toEqual(['roleAsymmetry', 'amplification']);
        for (const rel of e.reliability) expect(rel.pairs).toBeGreaterThan(0);
        const format = Object.values(e.discarded.format).reduce((a, b) => a + b, 0);
        expect(format).toBe(2);
        expect(e.difficultyHistogram.reduce((n, b) => n + b.count, 0)).toBe(e.written - format - e.discarded.duplicate - e.discarded.unjudged - e.heldOut.length);
      }
      // The kept tasks the journal names are the dev set's, by the loader's own ids.
      expect(events.flatMap((e) => e.kept.map((k) => k.id)).sort()).toEqual(dev.items.map((i) => i.id).sort());
      // The second round's judge was shown the exemplars the first round chose.
      expect(events[1]!.exemplarsUsed).toEqual(events[0]!.exemplars.map((x) => x.pairId));
    } finally {
      await server.close();
    }
  }, 180_000);

  it('says nothing of listeners with the default concurrency (the run’s one signal is watched by every call in flight)', async () => {
    const ws = workspace();
    // The spec without its concurrency line: the default lets more than 10 calls wait on the signal.
    writeFileSync(join(ws.dir, 'sums.ratchet.yaml'), ['models:', '  agent: { model: sim-agent }', '  validator: { model: sim-validator }', '  challenger: { model: sim-challenger }', 'seed: 5', ''].join('\n'));
    const server = await startFakeServer({ scenario: SCENARIO });
    try {
      const r = await runCli(['gen-data', ws.prompt, '--tasks', '8', '--keep', '3', '--samples', '4', '--rounds', '1', '--base-url', server.url, '-w', ws.dir]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/MaxListenersExceeded|Warning:/);
    } finally {
      await server.close();
    }
  });

  it('writes nothing when no task passes the filters (a model that cannot write the tasks), leaving a dev set it was told to replace as it was', async () => {
    const ws = workspace();
    // One model for every role, as a single local model is: it answers, but never in <question> blocks.
    writeFileSync(join(ws.dir, 'sums.ratchet.yaml'), ['models:', '  default: { model: sim-agent }', 'seed: 5', `concurrency: ${CONCURRENCY}`, ''].join('\n'));
    const devPath = join(ws.dir, 'sums.dev.jsonl');
    const mine = '{"vars":{"question":"What is 1 + 1?"}}\n';
    writeFileSync(devPath, mine);
    const server = await startFakeServer({ scenario: SCENARIO });
    try {
      const r = await runCli(['gen-data', ws.prompt, ...ARGS, '--force', '--base-url', server.url, '-w', ws.dir]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('No generated task passed the filters in 2 rounds, so nothing was written');
      expect(r.stderr).toContain('Check that the challenger model (sim-agent) writes the <question> blocks it is asked for.');
      expect(r.stderr).toContain(`nothing written: ${devPath} and ${join(ws.dir, 'sums.test.jsonl')} are as they were`);
      expect(r.stdout).toBe('');
      expect(readFileSync(devPath, 'utf8')).toBe(mine);
      expect(existsSync(join(ws.dir, 'sums.test.jsonl'))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('refuses to replace an existing dev set, naming it, before any call; --force replaces it', async () => {
    const ws = workspace();
    const devPath = join(ws.dir, 'sums.dev.jsonl');
    writeFileSync(devPath, '{"vars":{"question":"mine"}}\n');
    const server = await startFakeServer({ scenario: SCENARIO });
    try {
      const refused = await runCli(['gen-data', ws.prompt, ...ARGS, '--base-url', server.url, '-w', ws.dir]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${devPath} already exists; pass --force`);
      expect(server.calls.length).toBe(0);
      expect(readFileSync(devPath, 'utf8')).toBe('{"vars":{"question":"mine"}}\n');
      const forced = await runCli(['gen-data', ws.prompt, ...ARGS, '--rounds', '1', '--force', '--base-url', server.url, '-w', ws.dir]);
      expect(forced.code, forced.stderr).toBe(0);
      expect(readFileSync(devPath, 'utf8')).toContain('"zeroData"');
    } finally {
      await server.close();
    }
  }, 180_000);

  it('--force with a test split that cannot be written puts the dev set back, and says both files are as they were', async () => {
    const ws = workspace();
    const devPath = join(ws.dir, 'sums.dev.jsonl');
    const testPath = join(ws.dir, 'sums.test.jsonl');
    const mine = '{"vars":{"question":"mine"}}\n';
    writeFileSync(devPath, mine);
    // A folder where the test split goes: its write fails after the dev set's has succeeded.
    mkdirSync(testPath);
    writeFileSync(join(testPath, 'keep.txt'), 'kept');
    const server = await startFakeServer({ scenario: SCENARIO });
    try {
      const r = await runCli(['gen-data', ws.prompt, ...ARGS, '--rounds', '1', '--force', '--base-url', server.url, '-w', ws.dir]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${testPath} could not be written (`);
      expect(r.stderr).toContain(`${devPath} was put back, so both files are as they were.`);
      expect(r.stderr).toContain(`nothing written: ${devPath} and ${testPath} are as they were`);
      expect(r.stdout).toBe('');
      expect(readFileSync(devPath, 'utf8')).toBe(mine);
      expect(readFileSync(join(testPath, 'keep.txt'), 'utf8')).toBe('kept');
    } finally {
      await server.close();
    }
  }, 180_000);

  it('killed with -9 in its second round and run again, pays for no call twice beyond those in flight, and writes the same dev set', async () => {
    const server = await startFakeServer({ scenario: SCENARIO });
    const key = (body: unknown) => JSON.stringify(body);
    try {
      // An uninterrupted run: what the files should be, and how many requests round 1 makes.
      const ref = workspace();
      const done = await runCli(['gen-data', ref.prompt, ...ARGS, '--base-url', server.url, '-w', ref.dir]);
      expect(done.code, done.stderr).toBe(0);
      const writers = server.calls.flatMap((c, i) => (JSON.stringify(c.body).includes('You write test tasks') ? [i] : []));
      expect(writers.length).toBe(2);
      const roundOne = writers[1]!;
      server.resetStats();

      // The same run elsewhere, held at a request of round 2 (parked), then killed without warning.
      const ws = workspace();
      server.inject({ kind: 'park', skip: roundOne + 3, times: Infinity });
      const { child, done: killed } = startCli(['gen-data', ws.prompt, ...ARGS, '--base-url', server.url, '-w', ws.dir]);
      await server.untilParked(1);
      child.kill('SIGKILL');
      await killed;
      const [id] = runIds(ws.dir);
      expect(rounds(ws.dir, id!).map((e) => e.round)).toEqual([1]);
      expect(journalSoFar(ws.dir, id!).some((e) => e.type === 'run/finished')).toBe(false);
      server.clearFaults();
      server.releaseParked();
      const first = server.calls.map((c) => key(c.body));
      server.resetStats();

      const again = await runCli(['gen-data', ws.prompt, ...ARGS, '--base-url', server.url, '-w', ws.dir]);
      expect(again.code, again.stderr).toBe(0);
      const paidTwice = server.calls.filter((c) => first.includes(key(c.body))).length;
      // Never round 1's answered calls; at most those in flight at the kill (IN_FLIGHT).
      expect(first.length).toBeGreaterThan(roundOne);
      expect(paidTwice).toBeLessThanOrEqual(IN_FLIGHT);
      expect(readFileSync(join(ws.dir, 'sums.dev.jsonl'), 'utf8')).toBe(readFileSync(join(ref.dir, 'sums.dev.jsonl'), 'utf8'));
      expect(readFileSync(join(ws.dir, 'sums.test.jsonl'), 'utf8')).toBe(readFileSync(join(ref.dir, 'sums.test.jsonl'), 'utf8'));
    } finally {
      await server.close();
    }
  }, 240_000);

  it('killed with -9 and taken up by `ratchet runs resume`: the same run finishes, pays for no call twice beyond those in flight, and writes the same files', async () => {
    const server = await startFakeServer({ scenario: SCENARIO });
    const key = (body: unknown) => JSON.stringify(body);
    try {
      const ref = workspace();
      const done = await runCli(['gen-data', ref.prompt, ...ARGS, '--base-url', server.url, '-w', ref.dir]);
      expect(done.code, done.stderr).toBe(0);
      const total = server.calls.length;
      server.resetStats();

      const ws = workspace();
      server.inject({ kind: 'park', skip: Math.floor(total / 2), times: Infinity });
      const { child, done: killed } = startCli(['gen-data', ws.prompt, ...ARGS, '--base-url', server.url, '-w', ws.dir]);
      await server.untilParked(1);
      child.kill('SIGKILL');
      await killed;
      server.clearFaults();
      server.releaseParked();
      const first = server.calls.map((c) => key(c.body));
      server.resetStats();
      const [id] = runIds(ws.dir);

      const resumed = await runCli(['runs', 'resume', id!, '--base-url', server.url, '-w', ws.dir]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain(`run ${id}: finished`);
      expect(runIds(ws.dir)).toEqual([id]);
      const events = journal(ws.dir, id!);
      expect(events.filter((e) => e.type === 'run/started')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'run/resumed')).toHaveLength(1);
      expect(rounds(ws.dir, id!).map((e) => e.round)).toEqual([1, 2]);
      expect(events.at(-1)?.type).toBe('run/finished');
      const paidTwice = server.calls.filter((c) => first.includes(key(c.body))).length;
      expect(first.length).toBeGreaterThan(total / 2);
      expect(paidTwice).toBeLessThanOrEqual(IN_FLIGHT);
      expect(readFileSync(join(ws.dir, 'sums.dev.jsonl'), 'utf8')).toBe(readFileSync(join(ref.dir, 'sums.dev.jsonl'), 'utf8'));
      expect(readFileSync(join(ws.dir, 'sums.test.jsonl'), 'utf8')).toBe(readFileSync(join(ref.dir, 'sums.test.jsonl'), 'utf8'));
    } finally {
      await server.close();
    }
  }, 240_000);
});

describe('ratchet evolve without a dataset (zero-data)', () => {
  it("runs generation rounds and reward-free candidates to the end in one journal, with reliability per round and the judge's exemplars", async () => {
    const ws = evolveWorkspace();
    const server = await startFakeServer({ scenario: EVOLVE_SCENARIO });
    try {
      const r = await runCli(['evolve', ws.prompt, '--base-url', server.url, '-w', ws.dir]);
      const [id] = runIds(ws.dir);
      expect(id, r.stderr).toBeDefined();
      const events = journal(ws.dir, id!);
      expect(events[0]?.type).toBe('run/started');
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      // Estimated before any call, with the Challenger among the models.
      const started = events[0]!.type === 'run/started' ? events[0]!.info : undefined;
      expect(started?.estimate?.calls).toBeGreaterThan(0);
      expect(started?.models?.map((m) => m.role)).toContain('challenger');
      const zero = rounds(ws.dir, id!);
      expect(zero.map((e) => e.round)).toEqual([1, 2]);
      for (const e of zero) for (const rel of e.reliability) expect(rel.pairs).toBeGreaterThan(0);
      expect(zero[0]!.exemplars.length).toBeGreaterThan(0);
      expect(zero[1]!.exemplarsUsed).toEqual(zero[0]!.exemplars.map((x) => x.pairId));
      // Candidates were tested by the reward-free gate between the rounds, on the kept tasks.
      const decisions = events.flatMap((e) => (e.type === 'decision' ? [e] : []));
      expect(decisions.length).toBeGreaterThan(0);
      for (const d of decisions) expect(d.record.gate).toBe('pace-rf');
      const firstDecision = events.findIndex((e) => e.type === 'decision');
      expect(events.findIndex((e) => e.type === 'zero/round')).toBeLessThan(firstDecision);
      const loaded = events.flatMap((e) => (e.type === 'dataset/loaded' ? [e] : []));
      // One per round whose items the run went on with (a round whose held-out score did not rise ends it).
      expect(loaded.length).toBeGreaterThanOrEqual(1);
      expect(new Set(loaded[0]!.items.filter((i) => i.split === 'dev').map((i) => i.itemId))).toEqual(new Set(zero[0]!.kept.map((k) => k.id)));
    } finally {
      await server.close();
    }
  }, 180_000);

  it('killed with -9 and resumed with `ratchet runs resume`, repeats no paid call beyond those in flight and ends as an uninterrupted run does', async () => {
    const server = await startFakeServer({ scenario: EVOLVE_SCENARIO });
    const key = (body: unknown) => JSON.stringify(body);
    try {
      const ref = evolveWorkspace();
      await runCli(['evolve', ref.prompt, '--base-url', server.url, '-w', ref.dir]);
      const [refId] = runIds(ref.dir);
      const reference = journal(ref.dir, refId!);
      const total = server.calls.length;
      server.resetStats();

      const ws = evolveWorkspace();
      server.inject({ kind: 'park', skip: Math.floor(total / 2), times: Infinity });
      const { child, done } = startCli(['evolve', ws.prompt, '--base-url', server.url, '-w', ws.dir]);
      await server.untilParked(1);
      child.kill('SIGKILL');
      await done;
      server.clearFaults();
      server.releaseParked();
      const first = server.calls.map((c) => key(c.body));
      server.resetStats();
      const [id] = runIds(ws.dir);
      expect(journalSoFar(ws.dir, id!).some((e) => e.type === 'run/finished')).toBe(false);

      const resumed = await runCli(['runs', 'resume', id!, '--base-url', server.url, '-w', ws.dir]);
      const events = journal(ws.dir, id!);
      expect(events.at(-1)?.type, resumed.stderr).toBe('run/finished');
      const paidTwice = server.calls.filter((c) => first.includes(key(c.body))).length;
      expect(first.length).toBeGreaterThan(4 * IN_FLIGHT);
      expect(paidTwice).toBeLessThanOrEqual(IN_FLIGHT);
      // The same rounds and the same decisions as the run never interrupted.
      const digest = (es: typeof events) => es.flatMap((e) => (e.type === 'zero/round' ? [`r${e.round}:${e.kept.map((k) => k.id).join(',')}`] : e.type === 'decision' ? [`${e.record.candidateId}:${e.record.decision}`] : []));
      expect(digest(events)).toEqual(digest(reference));
    } finally {
      await server.close();
    }
  }, 240_000);
});
