// The Slurm backend against a played cluster (fakeSlurm.ts): one array job per batch of shards,
// journaled before it is relied on; results read as tasks finish, in any order; a verdict's
// cancel (one that comes while a resume reads a finished result too); retries then an incorrect evaluation with Slurm's reason; a resume that re-attaches
// (or finds by name a job it never journaled) and submits nothing twice; an outage waited out;
// budget.clusterHours; the probe's refusal of a folder the nodes cannot see; close().
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import type { ProgramEvaluation } from '../../../src/core/code/search';
import type { EngineEvent } from '../../../src/core/journal/events';
import { SystemClock } from '../../../src/node/clock';
import { SlurmBackend } from '../../../src/node/slurm/backend';
import type { SlurmBackendOptions } from '../../../src/node/slurm/backendOptions';
import type { SlurmRunner } from '../../../src/node/slurm/cli';
import type * as TaskFiles from '../../../src/node/slurm/taskFiles';
import { FakeSlurm } from './fakeSlurm';
import { until } from '../../until';

/**
 * A read of a task's result file the test holds open (`hold(index)`), so that something (a
 * verdict) can happen while the backend awaits it, with no timing; every other read goes through.
 */
const reads = vi.hoisted(() => {
  let held: { index: number; reading: () => void; released: Promise<void> } | undefined;
  return {
    hold(index: number): { reading: Promise<void>; release: () => void } {
      let reading!: () => void;
      let release!: () => void;
      const started = new Promise<void>((r) => (reading = r));
      held = { index, reading, released: new Promise<void>((r) => (release = r)) };
      return { reading: started, release };
    },
    async before(index: number): Promise<void> {
      const h = held;
      if (h?.index !== index) return;
      held = undefined;
      h.reading();
      await h.released;
    },
  };
});
vi.mock('../../../src/node/slurm/taskFiles', async (importOriginal) => {
  const real = await importOriginal<typeof TaskFiles>();
  return {
    ...real,
    readResult: async (dir: string, index: number) => {
      await reads.before(index);
      return real.readResult(dir, index);
    },
  };
});

const RUN = '20260101-000000-abcdef';
const TEXT = 'export const x = 1;\n';

/** Each instance scores its id's length: a result the test can check came from the right shard. */
const scored = (_text: string, ids: string[] | null): ProgramEvaluation => {
  const instances = Object.fromEntries((ids ?? ['whole']).map((id) => [id, id.length]));
  return { correct: true, instances, score: 0 };
};

type Recorded = EngineEvent;
const open: SlurmBackend[] = [];
afterEach(async () => {
  for (const b of open.splice(0)) await b.close().catch(() => undefined);
});

function backend(runner: SlurmRunner, over: Partial<SlurmBackendOptions> = {}) {
  const dir = over.sharedDir ?? mkdtempSync(join(tmpdir(), 'ratchet-slurm-unit-'));
  const runnerFile = join(dir, 'built-runner.js');
  writeFileSync(runnerFile, '// the task runner\n');
  const events: Recorded[] = [];
  const run = new AbortController();
  const b = new SlurmBackend({
    runId: RUN,
    startedAt: Date.now(),
    slurm: { time: '5', cpus: 1, memoryMb: 100, sbatch: [], retries: 1, pollSeconds: 0.01 },
    setup: { programName: 'p.mjs', supportFiles: [], timeoutMs: 1000, limits: {}, env: [], network: 'off', command: 'node e.mjs {program} {results} {instances}' },
    identity: 'evaluator-1',
    sharedDir: dir,
    runnerFile,
    node: 'node',
    secrets: [],
    env: { PATH: '/usr/bin' },
    journaled: [],
    emit: async (e) => void events.push({ ...e, runId: RUN, at: Date.now() } as EngineEvent),
    clock: new SystemClock(),
    signal: run.signal,
    runner,
    backoff: { firstMs: 5, maxMs: 20 },
    ...over,
  });
  open.push(b);
  return { b, events, run, dir };
}

const ofType = <T extends EngineEvent['type']>(events: readonly EngineEvent[], type: T) => events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);

describe('Slurm backend', () => {
  it("submits a batch as one array job, journaled first, and resolves each shard from its task's result in any order", async () => {
    const fake = new FakeSlurm(2);
    const { b, events } = backend(fake);
    await b.open();
    expect(ofType(events, 'slurm/status').map((e) => e.state)).toEqual(['probing', 'ready']);
    const results = b.evaluateShards(TEXT, [['a', 'bb'], ['ccc'], ['dddd']], new AbortController().signal);
    await until('the submission', () => fake.submissions().length === 1);
    const [job] = fake.submissions();
    const sbatch = fake.calls.filter((c) => c.command === 'sbatch').at(-1)!.args;
    expect(sbatch).toContain('--array=0-2');
    expect(sbatch).toContain(`--job-name=ratchet-${RUN}`);
    expect(sbatch).toContain('--export=NONE');
    const submitted = ofType(events, 'slurm/submitted');
    expect(submitted).toHaveLength(1);
    expect(submitted[0]).toMatchObject({
      jobId: job!.jobId,
      attempt: 1,
      tasks: [
        { index: 0, instances: ['a', 'bb'] },
        { index: 1, instances: ['ccc'] },
        { index: 2, instances: ['dddd'] },
      ],
    });
    // Journaled before any task ran, let alone finished.
    expect(events.findIndex((e) => e.type === 'slurm/submitted')).toBeLessThan(events.findIndex((e) => e.type === 'slurm/task') === -1 ? Infinity : events.findIndex((e) => e.type === 'slurm/task'));
    fake.start(job!.tasks[2]!);
    await until('task 2 running', () => ofType(events, 'slurm/task').some((e) => e.index === 2 && e.state === 'RUNNING'));
    await fake.complete(job!.tasks[2]!, scored, 3);
    expect(await results[2]).toEqual({ correct: true, instances: { dddd: 4 }, score: 0 });
    await fake.complete(job!.tasks[0]!, scored, 1);
    await fake.complete(job!.tasks[1]!, scored, 2);
    expect(await Promise.all(results)).toEqual([
      { correct: true, instances: { a: 1, bb: 2 }, score: 0 },
      { correct: true, instances: { ccc: 3 }, score: 0 },
      { correct: true, instances: { dddd: 4 }, score: 0 },
    ]);
    // Cluster-seconds: ElapsedRaw × AllocCPUS (2 CPUs each), task by task.
    expect(
      ofType(events, 'slurm/task')
        .filter((e) => e.outcome === 'done')
        .map((e) => [e.index, e.clusterSeconds]),
    ).toEqual([
      [2, 6],
      [0, 2],
      [1, 4],
    ]);
    expect(b.load()).toMatchObject({ queued: 0, running: 0, finished: 3, jobs: 0, clusterSeconds: 12 });
  });

  it('a verdict cancels the tasks not yet over, running or pending, and still accounts what they ran', async () => {
    const fake = new FakeSlurm();
    const { b, events } = backend(fake);
    const gate = new AbortController();
    const results = b.evaluateShards(TEXT, [['a'], ['b'], ['c']], gate.signal);
    results.forEach((p) => p.catch(() => undefined));
    await until('the submission', () => fake.submissions().length === 1);
    const [job] = fake.submissions();
    fake.start(job!.tasks[0]!);
    fake.start(job!.tasks[1]!);
    await fake.complete(job!.tasks[0]!, scored);
    await results[0];
    gate.abort(new RatchetError('cancelled', 'The gate decided before this shard finished.'));
    await expect(results[1]).rejects.toThrow('The gate decided');
    await until('the cancel', () => fake.live().length === 0);
    expect(ofType(events, 'slurm/cancelled')).toMatchObject([{ jobId: job!.jobId, indices: [1, 2], why: 'verdict' }]);
    expect(fake.calls.filter((c) => c.command === 'scancel').map((c) => c.args)).toEqual([[`${job!.jobId}_1`, `${job!.jobId}_2`]]);
    // Task 1 ran until cancelled (its own sacct record); task 2 never started (no record of its own).
    fake.task(job!.jobId, 1).elapsed = 4;
    await until('both accounted', () => ofType(events, 'slurm/task').filter((e) => e.outcome === 'cancelled').length === 2);
    expect(
      ofType(events, 'slurm/task')
        .filter((e) => e.outcome === 'cancelled')
        .map((e) => [e.index, e.state, e.clusterSeconds])
        .sort(),
    ).toEqual([
      [1, 'CANCELLED', 4],
      [2, 'CANCELLED', 0],
    ]);
  });

  it('a task Slurm ends at its time limit is submitted again, then counts as an incorrect evaluation with the reason', async () => {
    const fake = new FakeSlurm();
    const { b, events } = backend(fake);
    const [result] = b.evaluateShards(TEXT, [['a']], new AbortController().signal);
    await until('the submission', () => fake.submissions().length === 1);
    fake.end(fake.submissions()[0]!.tasks[0]!, 'TIMEOUT', 60);
    await until('the retry', () => fake.submissions().length === 2);
    expect(ofType(events, 'slurm/submitted').map((e) => [e.attempt, e.tasks.map((t) => t.instances)])).toEqual([
      [1, [['a']]],
      [2, [['a']]],
    ]);
    fake.end(fake.submissions()[1]!.tasks[0]!, 'TIMEOUT', 60);
    const r = await result!;
    expect(r).toEqual({ correct: false, error: "Slurm ended the evaluation's task TIMEOUT at its time limit (evaluator.slurm.time: 5), on each of its 2 attempts" });
    expect(
      ofType(events, 'slurm/task')
        .filter((e) => e.outcome)
        .map((e) => [e.attempt, e.state, e.outcome, e.clusterSeconds]),
    ).toEqual([
      [1, 'TIMEOUT', 'retry', 60],
      [2, 'TIMEOUT', 'incorrect', 60],
    ]);
  });

  /**
   * A first process submits three shards; task 0 finishes, task 1 starts, task 2 waits in the queue,
   * and the process dies (its tools never answer again). Then the resumed process, from that
   * journal and the same shared folder, opened.
   */
  async function diedMidBatch() {
    const fake = new FakeSlurm();
    let dead = false;
    const first = backend({ run: (c, a) => (dead ? new Promise(() => undefined) : fake.run(c, a)) });
    const shards = [['a'], ['b'], ['c']];
    first.b.evaluateShards(TEXT, shards, new AbortController().signal).forEach((p) => p.catch(() => undefined));
    await until('the submission', () => fake.submissions().length === 1);
    const [job] = fake.submissions();
    await fake.complete(job!.tasks[0]!, scored);
    await until('task 0 done', () => ofType(first.events, 'slurm/task').some((e) => e.outcome === 'done'));
    fake.start(job!.tasks[1]!);
    dead = true;
    open.splice(open.indexOf(first.b), 1);
    const second = backend(fake, { journaled: first.events, sharedDir: first.dir });
    await second.b.open();
    return { fake, job: job!, shards, second };
  }

  it('a resume re-attaches to the tasks its journal submitted, reads the finished ones, and submits nothing again', async () => {
    const { fake, job, shards, second } = await diedMidBatch();
    expect(ofType(second.events, 'slurm/attached')).toMatchObject([{ jobId: job.jobId, indices: [1, 2] }]);
    expect(ofType(second.events, 'slurm/status')).toEqual([]); // the probe passed before: not again
    const results = second.b.evaluateShards(TEXT, shards, new AbortController().signal);
    expect(await results[0]).toEqual({ correct: true, instances: { a: 1 }, score: 0 });
    await fake.complete(job.tasks[1]!, scored);
    await fake.complete(job.tasks[2]!, scored);
    expect(await Promise.all(results)).toEqual([
      { correct: true, instances: { a: 1 }, score: 0 },
      { correct: true, instances: { b: 1 }, score: 0 },
      { correct: true, instances: { c: 1 }, score: 0 },
    ]);
    expect(fake.submissions()).toHaveLength(1);
    expect(ofType(second.events, 'slurm/submitted')).toEqual([]);
  });

  it('a verdict that comes while a resume reads a finished shard’s result still cancels the tasks on the cluster', async () => {
    const { fake, job, shards, second } = await diedMidBatch();
    // The read of shard 0's result is held open; the replayed gate decides meanwhile.
    const read = reads.hold(0);
    const gate = new AbortController();
    const results = second.b.evaluateShards(TEXT, shards, gate.signal);
    results.forEach((p) => p.catch(() => undefined));
    await read.reading;
    gate.abort(new RatchetError('cancelled', 'The gate decided before this shard finished.'));
    read.release();
    await expect(results[1]).rejects.toThrow('The gate decided');
    await expect(results[2]).rejects.toThrow('The gate decided');
    await until('the cancel', () => fake.live().length === 0);
    expect(ofType(second.events, 'slurm/cancelled')).toMatchObject([{ jobId: job.jobId, indices: [1, 2], why: 'verdict' }]);
    expect(fake.submissions()).toHaveLength(1);
  });

  it('a resume does not submit again the shards its journal says a verdict cancelled, unless the replayed gate comes to need them', async () => {
    const fake = new FakeSlurm();
    const first = backend(fake);
    const gate = new AbortController();
    const shards = [['a'], ['b'], ['c']];
    const results = first.b.evaluateShards(TEXT, shards, gate.signal);
    results.forEach((p) => p.catch(() => undefined));
    await until('the submission', () => fake.submissions().length === 1);
    await fake.complete(fake.submissions()[0]!.tasks[0]!, scored);
    await results[0];
    gate.abort(new RatchetError('cancelled', 'The gate decided before this shard finished.'));
    await until('the cancelled tasks accounted', () => ofType(first.events, 'slurm/task').filter((e) => e.outcome === 'cancelled').length === 2);
    await first.b.close();
    // The replay reaches the same verdict after shard 0: nothing is submitted.
    const replay = backend(fake, { journaled: first.events, sharedDir: first.dir });
    const again = new AbortController();
    const replayed = replay.b.evaluateShards(TEXT, shards, again.signal);
    replayed.forEach((p) => p.catch(() => undefined));
    expect(await replayed[0]).toEqual({ correct: true, instances: { a: 1 }, score: 0 });
    again.abort(new RatchetError('cancelled', 'The gate decided before this shard finished.'));
    await Promise.allSettled(replayed);
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    expect(fake.submissions()).toHaveLength(1);
    // A gate that goes on (it did not decide there this time) gets them, each once the ones before it are in.
    const onward = backend(fake, { journaled: first.events, sharedDir: first.dir });
    const more = onward.b.evaluateShards(TEXT, shards, new AbortController().signal);
    await until('shard 1 submitted', () => fake.submissions().length === 2);
    await fake.complete(fake.submissions()[1]!.tasks[0]!, scored);
    await until('shard 2 submitted after shard 1', () => fake.submissions().length === 3);
    await fake.complete(fake.submissions()[2]!.tasks[0]!, scored);
    expect((await Promise.all(more)).map((r) => Object.keys(r.instances!))).toEqual([['a'], ['b'], ['c']]);
    expect(ofType(onward.events, 'slurm/submitted').map((e) => [e.attempt, e.tasks.map((t) => t.instances)])).toEqual([
      [2, [['b']]],
      [2, [['c']]],
    ]);
  });

  it("a resume finds by the run's job name a job its journal never recorded (the process died between sbatch and the journal)", async () => {
    const fake = new FakeSlurm();
    let dead = false;
    const first = backend({ run: (c, a) => (dead ? new Promise(() => undefined) : fake.run(c, a)) });
    first.b.evaluateShards(TEXT, [['a'], ['b']], new AbortController().signal).forEach((p) => p.catch(() => undefined));
    await until('the submission', () => ofType(first.events, 'slurm/submitted').length === 1);
    dead = true;
    open.splice(open.indexOf(first.b), 1);
    const journal = first.events.filter((e) => e.type !== 'slurm/submitted');
    const second = backend(fake, { journaled: journal, sharedDir: first.dir });
    await second.b.open();
    const [adopted] = ofType(second.events, 'slurm/submitted');
    expect(adopted).toMatchObject({
      jobId: fake.submissions()[0]!.jobId,
      adopted: true,
      tasks: [
        { index: 0, instances: ['a'] },
        { index: 1, instances: ['b'] },
      ],
    });
    const results = second.b.evaluateShards(TEXT, [['a'], ['b']], new AbortController().signal);
    for (const t of fake.submissions()[0]!.tasks) await fake.complete(t, scored);
    expect((await Promise.all(results)).map((r) => r.correct)).toEqual([true, true]);
    expect(fake.submissions()).toHaveLength(1);
  });

  it('while Slurm does not answer, it says so once, waits, and goes on when Slurm answers', async () => {
    const fake = new FakeSlurm();
    const loads: (string | undefined)[] = [];
    const { b, events } = backend(fake, { onLoad: (l) => loads.push(l.paused) });
    const [result] = b.evaluateShards(TEXT, [['a']], new AbortController().signal);
    await until('the submission', () => fake.submissions().length === 1);
    fake.down = true;
    await until('the pause', () => ofType(events, 'slurm/status').some((e) => e.state === 'paused'));
    expect(loads.some((p) => p?.startsWith('Slurm does not answer'))).toBe(true);
    await fake.complete(fake.submissions()[0]!.tasks[0]!, scored);
    fake.down = false;
    expect((await result!).correct).toBe(true);
    expect(ofType(events, 'slurm/status').map((e) => e.state)).toEqual(['probing', 'ready', 'paused', 'resumed']);
  });

  it('budget.clusterHours: once spent, the tasks in flight are cancelled and every evaluation is refused', async () => {
    const fake = new FakeSlurm();
    const { b, events } = backend(fake, { clusterHours: 3 / 3600 });
    const results = b.evaluateShards(TEXT, [['a'], ['b'], ['c']], new AbortController().signal);
    results.forEach((p) => p.catch(() => undefined));
    await until('the submission', () => fake.submissions().length === 1);
    const [job] = fake.submissions();
    await fake.complete(job!.tasks[0]!, scored, 2);
    await results[0];
    expect(b.exceeded()).toBeUndefined();
    await fake.complete(job!.tasks[1]!, scored, 2);
    await results[1];
    await until('the budget', () => b.exceeded() !== undefined);
    expect(b.exceeded()).toBe('0.00111 of 0.0008333333333333334 cluster hours');
    const stopped = await results[2]!.catch((e: unknown) => e);
    expect(RatchetError.is(stopped, 'budgetExhausted')).toBe(true);
    expect(ofType(events, 'slurm/cancelled')).toMatchObject([{ indices: [2], why: 'budget' }]);
    const later = await b.evaluateShards(TEXT, [['d']], new AbortController().signal)[0]!.catch((e: unknown) => e);
    expect(RatchetError.is(later, 'budgetExhausted')).toBe(true);
    expect(fake.submissions()).toHaveLength(1);
  });

  it('refuses a shared folder the nodes cannot see before anything is submitted, saying what to set', async () => {
    const fake = new FakeSlurm();
    fake.nodesSeeFolder = false;
    const { b } = backend(fake);
    const err = await b.open().catch((e: unknown) => e);
    expect(RatchetError.is(err, 'badInput')).toBe(true);
    expect((err as RatchetError).details.field).toBe('evaluator.slurm.sharedDir');
    expect((err as Error).message).toMatch(/^The nodes cannot use the shared run folder .*: the probe job \d+ ended COMPLETED without writing its answer there .*Set evaluator\.slurm\.sharedDir to a folder every node mounts/);
    expect(fake.submissions()).toEqual([]);
  });

  it('close() cancels what the run still has on the cluster, by id and by name, and returns once the queue holds none of it', async () => {
    const fake = new FakeSlurm();
    const { b, events } = backend(fake);
    b.evaluateShards(TEXT, [['a'], ['b']], new AbortController().signal).forEach((p) => p.catch(() => undefined));
    await until('the submission', () => fake.submissions().length === 1);
    fake.start(fake.submissions()[0]!.tasks[0]!);
    await b.close();
    expect(fake.live()).toEqual([]);
    expect(ofType(events, 'slurm/cancelled')).toMatchObject([{ indices: [0, 1], why: 'run' }]);
    expect(fake.calls.some((c) => c.command === 'scancel' && c.args[0] === '--name' && c.args[1] === `ratchet-${RUN}`)).toBe(true);
    expect(b.load()).toMatchObject({ queued: 0, running: 0, finished: 2 });
  });
});
