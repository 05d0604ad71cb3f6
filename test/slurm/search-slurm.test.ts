// What issue #18 says code search on Slurm must show, on the local cluster (scripts/slurm-local.sh)
// with the real sbatch, squeue, sacct and scancel, through the built CLI against the fake
// OpenAI-compatible server: the per-instance example decides on Slurm as it does locally; an early
// commit cancels the shards it did not need; a task killed by its time limit is retried, then
// counts as incorrect with Slurm's reason; a CLI killed with SIGKILL and resumed takes up its jobs
// again without submitting any twice; Cancel leaves no job in squeue.
//
// Races are held open by evaluators that park until the test creates a file (slurmWorkspace.ts),
// never by sleeps; the test waits on states (the journal, squeue).
import { execSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/core/journal/events';
import { isIncidental } from '../../src/core/journal/eventClasses';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { CLI, journal, journalSoFar, runCli, runIds, startCli } from '../integration/evolveCli';
import { binPacking, queued, sacctRows, slurmWorkspace } from './slurmWorkspace';

beforeAll(() => {
  if (!existsSync(CLI) || !existsSync(CLI.replace('cli.js', 'slurmTask.js'))) execSync('npm run build', { stdio: 'inherit' });
  // The cluster must be up: `npm run test:slurm` starts it.
  execSync('sinfo -h -o %t', { stdio: 'pipe' });
});

const ofType = <T extends EngineEvent['type']>(events: readonly EngineEvent[], type: T) => events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);
const decisions = (events: readonly EngineEvent[]) => ofType(events, 'decision').map((e) => e.record);

/** Waits until `condition` holds of what the run has journaled so far (checked every 100 ms, as a user would watch a log). */
async function journalUntil(dir: string, condition: (events: EngineEvent[]) => boolean, what: string, limitMs = 300_000): Promise<EngineEvent[]> {
  const end = Date.now() + limitMs;
  for (;;) {
    const [id] = runIds(dir);
    const events = id ? journalSoFar(dir, id) : [];
    if (condition(events)) return events;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; journal so far: ${events.map((e) => e.type).join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The run's submissions for other programs than its seed (the first submitted, for the seed's whole evaluation). */
const childJobs = (events: readonly EngineEvent[]) => {
  const all = ofType(events, 'slurm/submitted');
  return all.filter((e) => e.programHash !== all[0]?.programHash);
};

describe('code search on Slurm: the must-shows of issue #18', () => {
  it('the per-instance example (bin packing, 120 instances in shards of 10) makes the same decisions on Slurm as locally, for the same seed', async () => {
    const server = await startFakeServer({ scenario: { code: { edits: 'neutral' } } });
    try {
      const runs: Record<'local' | 'slurm', EngineEvent[]> = { local: [], slurm: [] };
      for (const backend of ['local', 'slurm'] as const) {
        const ws = binPacking(backend, 3);
        const r = await runCli(['search', ws.program, '--base-url', server.url, '--model', 'sim-proposer', '--seed', '11', '-w', ws.dir]);
        const [id] = runIds(ws.dir);
        runs[backend] = journal(ws.dir, id!);
        expect(runs[backend].at(-1)?.type, r.stderr).toBe('run/finished');
      }
      const { local, slurm } = runs;
      expect(decisions(local)).toHaveLength(3);
      expect(decisions(slurm)).toEqual(decisions(local));
      // The same programs proposed and scored, in the same order: every engine event but the logs
      // (the Slurm run says where it runs) and the incidental ones (the cluster's own).
      const shape = (events: EngineEvent[]) => events.filter((e) => !isIncidental(e) && !['log', 'cost/update', 'run/started'].includes(e.type)).map(({ runId: _r, at: _a, seq: _s, ...rest }) => rest);
      expect(shape(slurm)).toEqual(shape(local));
      // On Slurm each child was one array job of 12 tasks (120 instances / 10), the seed one task.
      expect(childJobs(slurm).map((e) => e.tasks.length)).toEqual([12, 12, 12]);
      expect(ofType(slurm, 'slurm/task').filter((e) => e.outcome === 'done').length).toBeGreaterThanOrEqual(1 + 3 * 12 - 3);
      expect(ofType(local, 'slurm/submitted')).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('an early commit cancels the shards the gate did not need: sacct has them CANCELLED, none COMPLETED', async () => {
    // Seed 4: the first child's nudge moves rate up, so it wins every instance and commits after 7
    // (the second shard of 4). Its tasks from index 2 on park until cancelled: the gate never needs them.
    const ws = slurmWorkspace();
    const server = await startFakeServer({});
    try {
      const r = await runCli(['search', ws.program, '--base-url', server.url, '--proposals', '1', '--seed', '4', '-w', ws.dir], { PARK: 'late' });
      expect(r.code, r.stderr).toBe(0);
      const [id] = runIds(ws.dir);
      const events = journal(ws.dir, id!);
      const [d] = decisions(events);
      expect(d).toMatchObject({ candidateId: 'p1', decision: 'commit', reason: 'evidence', itemsConsumed: 7 });
      const [job] = childJobs(events);
      expect(job!.tasks).toHaveLength(10);
      const cancelled = ofType(events, 'slurm/cancelled').filter((e) => e.jobId === job!.jobId);
      expect(cancelled.map((e) => e.why)).toEqual(['verdict']);
      expect(cancelled[0]!.indices).toEqual(expect.arrayContaining([2, 3, 4, 5, 6, 7, 8, 9]));
      // sacct: the two shards the gate consumed COMPLETED; every later one CANCELLED, on its own
      // record (it had started, and parked) or on the array's record of tasks that never started.
      const rows = sacctRows(id!).filter((row) => row.id.split('_')[0] === job!.jobId);
      const state = (i: number) => rows.find((row) => row.id === `${job!.jobId}_${i}`)?.state;
      expect([state(0), state(1)]).toEqual(['COMPLETED', 'COMPLETED']);
      const grouped = rows.filter((row) => !/^\d+_\d+$/.test(row.id));
      for (let i = 2; i < 10; i++) expect(state(i) ?? grouped.map((g) => g.state)[0], `task ${i}`).toBe('CANCELLED');
      expect(
        rows
          .filter((row) => row.state === 'COMPLETED')
          .map((row) => row.id)
          .sort(),
      ).toEqual([`${job!.jobId}_0`, `${job!.jobId}_1`]);
      expect(queued(id!)).toEqual([]);
      // What the gate saved is accounted too: the cancelled tasks' cluster-seconds are journaled.
      expect(ofType(events, 'slurm/task').filter((e) => e.jobId === job!.jobId && e.outcome === 'cancelled').length).toBe(8);
    } finally {
      await server.close();
    }
  });

  it("a task killed by its time limit is retried, then counted as an incorrect evaluation with Slurm's reason", async () => {
    // One task per evaluation (no shards); the child parks, so Slurm's 1-minute limit ends it, twice.
    const ws = slurmWorkspace({ shards: false, slurm: ["time: '1'", 'retries: 1'] });
    const server = await startFakeServer({});
    try {
      const r = await runCli(['search', ws.program, '--base-url', server.url, '--proposals', '1', '--seed', '4', '-w', ws.dir], { PARK: 'all' });
      const [id] = runIds(ws.dir);
      const events = journal(ws.dir, id!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      expect(decisions(events)).toMatchObject([{ candidateId: 'p1', decision: 'reject', reason: 'incorrect' }]);
      const p1 = ofType(events, 'program/evaluated').find((e) => e.candidateId === 'p1')!;
      expect(p1.correct).toBe(false);
      expect(p1.error).toMatch(/^Slurm ended the evaluation's task TIMEOUT at its time limit \(evaluator\.slurm\.time: 1\), on each of its 2 attempts; its error output: .*CANCELLED AT .* DUE TO TIME LIMIT/);
      const jobs = childJobs(events);
      expect(jobs.map((e) => e.attempt)).toEqual([1, 2]);
      expect(
        ofType(events, 'slurm/task')
          .filter((e) => e.outcome !== undefined && jobs.some((j) => j.jobId === e.jobId))
          .map((e) => [e.state, e.outcome]),
      ).toEqual([
        ['TIMEOUT', 'retry'],
        ['TIMEOUT', 'incorrect'],
      ]);
      const rows = sacctRows(id!);
      for (const j of jobs) expect(rows.find((row) => row.id === `${j.jobId}_0`)?.state).toBe('TIMEOUT');
    } finally {
      await server.close();
    }
  });

  it('killed with SIGKILL mid-search and resumed: the jobs still queued or running are taken up again, and no shard is submitted twice', async () => {
    const ws = slurmWorkspace();
    const server = await startFakeServer({});
    try {
      const args = ['search', ws.program, '--base-url', server.url, '--proposals', '1', '--seed', '4', '-w', ws.dir];
      const env = { PARK: 'all', RELEASE_FILE: ws.release };
      const first = startCli(args, env);
      // Killed once the child's array job is journaled and one of its tasks runs (parked).
      const before = await journalUntil(
        ws.dir,
        (events) => {
          const job = childJobs(events)[0];
          return job !== undefined && ofType(events, 'slurm/task').some((e) => e.jobId === job.jobId && e.state === 'RUNNING');
        },
        'a running task of the child',
      );
      first.child.kill('SIGKILL');
      await first.done;
      const [id] = runIds(ws.dir);
      const [job] = childJobs(before);
      // The process is gone; its tasks are not.
      expect(queued(id!).length).toBeGreaterThan(0);
      const second = startCli(['search', '--resume', id!, '--base-url', server.url, '-w', ws.dir], env);
      await journalUntil(ws.dir, (events) => ofType(events, 'slurm/attached').length > 0, 'the resume to re-attach');
      writeFileSync(ws.release, 'go\n');
      const r = await second.done;
      expect(r.code, r.stderr).toBe(0);
      const events = journal(ws.dir, id!);
      expect(events.at(-1)?.type).toBe('run/finished');
      expect(ofType(events, 'slurm/attached')).toMatchObject([{ jobId: job!.jobId }]);
      expect(decisions(events)).toMatchObject([{ candidateId: 'p1', decision: 'commit' }]);
      // Submissions counted both ways: the journal's and the cluster's (sacct, but for the probe job).
      const submitted = ofType(events, 'slurm/submitted');
      const clusterJobs = new Set(
        sacctRows(id!)
          .filter((row) => !row.workDir.includes('/probe-'))
          .map((row) => row.id.split('_')[0]),
      );
      expect(clusterJobs.size).toBe(submitted.length);
      expect([...clusterJobs].sort()).toEqual(submitted.map((e) => e.jobId).sort());
      // The seed's job and the child's: each evaluation submitted once.
      expect(submitted).toHaveLength(2);
      const keys = submitted.flatMap((e) => e.tasks.map((t) => t.key));
      expect(new Set(keys).size).toBe(keys.length);
      expect(queued(id!)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('Cancel (Ctrl+C) cancels every job of the run: none is left in squeue', async () => {
    const ws = slurmWorkspace();
    const server = await startFakeServer({});
    try {
      const run = startCli(['search', ws.program, '--base-url', server.url, '--proposals', '1', '--seed', '4', '-w', ws.dir], { PARK: 'all', RELEASE_FILE: ws.release });
      const running = await journalUntil(
        ws.dir,
        (events) => {
          const job = childJobs(events)[0];
          return job !== undefined && ofType(events, 'slurm/task').filter((e) => e.jobId === job.jobId && e.state === 'RUNNING').length >= 2;
        },
        "two of the child's tasks running",
      );
      const [job] = childJobs(running);
      const [id] = runIds(ws.dir);
      expect(queued(id!).length).toBeGreaterThan(0);
      run.child.kill('SIGINT');
      const r = await run.done;
      // The moment the CLI is gone, so is every job of its run.
      expect(queued(id!)).toEqual([]);
      const events = journal(ws.dir, id!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/cancelled');
      expect(ofType(events, 'slurm/cancelled')).toMatchObject([{ jobId: job!.jobId, why: 'run' }]);
      // Every task of the child's job ended CANCELLED in the journal, each with what it cost (sacct's
      // ElapsedRaw × AllocCPUS: whole seconds, so a task cancelled in its first second cost 0).
      const ended = ofType(events, 'slurm/task').filter((e) => e.jobId === job!.jobId && e.outcome !== undefined);
      expect(ended.map((e) => [e.index, e.state, e.outcome]).sort()).toEqual(job!.tasks.map((t) => [t.index, 'CANCELLED', 'cancelled']).sort());
      for (const e of ended) expect(typeof e.clusterSeconds).toBe('number');
      // And sacct agrees: nothing of the run is pending or running; the tasks that ran are CANCELLED.
      const rows = sacctRows(id!).filter((row) => row.id.split('_')[0] === job!.jobId);
      expect(rows.filter((row) => row.state === 'RUNNING' || row.state === 'PENDING')).toEqual([]);
      expect(rows.filter((row) => /^\d+_\d+$/.test(row.id)).map((row) => row.state)).toEqual(expect.arrayContaining(['CANCELLED', 'CANCELLED']));
    } finally {
      await server.close();
    }
  });
});
