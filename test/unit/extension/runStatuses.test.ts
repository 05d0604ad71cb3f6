import { describe, expect, it } from 'vitest';
import type { LiveRunStatus } from '../../../src/core/journal/runStatus';
import { RunStatuses } from '../../../src/extension/runs/runStatuses';
import type { StatusChange } from '../../../src/extension/runs/runStatuses';
import type { RunListEntry, RunStatusParams } from '../../../src/protocol/lsp';

const at = (runId: string, over: Partial<LiveRunStatus> = {}): RunStatusParams => ({
  uri: `file:///w/${runId}.prompt.md`,
  workspace: '/w',
  status: { runId, state: 'running', tested: 0, commits: 0, line: 'starting', ...over },
});

function listed(runId: string, status: RunListEntry['status'], hosted = false): RunListEntry {
  return {
    runId,
    kind: 'evolve',
    target: `/w/${runId}.prompt.md`,
    status,
    started: 1,
    lastEventAt: 2,
    events: 10,
    candidates: 2,
    commits: 1,
    cost: undefined,
    gate: 'pace+',
    alpha: 0.05,
    tornTail: false,
    workspace: '/w',
    hosted,
    resumable: status === 'interrupted',
  };
}

function watched(statuses = new RunStatuses()) {
  const changes: StatusChange[] = [];
  statuses.onChange((c) => changes.push(c));
  return { statuses, changes };
}

const ids = (ps: readonly RunStatusParams[]) => ps.map((p) => p.status.runId);

describe('RunStatuses', () => {
  it('keeps the latest status of each run, and says what it replaced', () => {
    const { statuses, changes } = watched();
    statuses.set(at('r1'));
    statuses.set(at('r1', { line: 'testing v1' }));
    statuses.set(at('r1', { tested: 1, commits: 1, line: '1 tested · 1 committed' }));
    expect(statuses.get('r1')).toEqual(at('r1', { tested: 1, commits: 1, line: '1 tested · 1 committed' }));
    expect(changes.map((c) => [c.previous?.line, c.status?.status.line])).toEqual([
      [undefined, 'starting'],
      ['starting', 'testing v1'],
      ['testing v1', '1 tested · 1 committed'],
    ]);
  });

  it('lists the runs newest first, the live ones apart; a resumed run is the newest again', () => {
    const statuses = new RunStatuses();
    statuses.set(at('r1'));
    statuses.set(at('r2'));
    statuses.set(at('r1', { state: 'finished' }));
    expect(ids(statuses.all())).toEqual(['r2', 'r1']);
    expect(ids(statuses.live())).toEqual(['r2']);
    statuses.set(at('r1', { line: 'testing v3' }));
    expect(ids(statuses.all())).toEqual(['r1', 'r2']);
    expect(ids(statuses.live())).toEqual(['r1', 'r2']);
  });

  it('keeps how a run ended, up to a limit of ended runs; live runs are never forgotten', () => {
    const statuses = new RunStatuses(2);
    statuses.set(at('live'));
    for (const [runId, state] of [
      ['a', 'finished'],
      ['b', 'failed'],
      ['c', 'cancelled'],
    ] as const)
      statuses.set(at(runId, { state }));
    expect(ids(statuses.all())).toEqual(['c', 'b', 'live']);
    expect(statuses.get('b')?.status.state).toBe('failed');
  });

  it('forgets the live statuses when the server that relayed them goes, and keeps the ended ones', () => {
    const { statuses, changes } = watched();
    statuses.set(at('r1'));
    statuses.set(at('r2', { state: 'finished' }));
    changes.length = 0;
    statuses.forgetLive();
    expect(ids(statuses.all())).toEqual(['r2']);
    expect(changes).toEqual([{ runId: 'r1', status: undefined, previous: at('r1').status }]);
  });

  it('ends a run the listing says was interrupted (its daemon died), and drops one whose journal says it ended', () => {
    const statuses = new RunStatuses();
    statuses.set(at('lost', { line: 'rate limited, waiting 12 s', wait: { ms: 12_000, then: 'testing v2' } }));
    statuses.set(at('done'));
    statuses.set(at('elsewhere'));
    statuses.settle([listed('lost', 'interrupted'), listed('done', 'finished'), listed('elsewhere', 'running')]);
    expect(statuses.get('lost')?.status).toEqual({ runId: 'lost', state: 'interrupted', tested: 0, commits: 0, line: 'testing v2' });
    expect(statuses.get('done')).toBeUndefined();
    expect(statuses.get('elsewhere')?.status.state).toBe('running');
  });

  it('leaves the runs the server hosts and the ended ones to their own statuses', () => {
    const statuses = new RunStatuses();
    statuses.set(at('hosted'));
    statuses.set(at('ended', { state: 'failed', error: 'boom' }));
    statuses.settle([listed('hosted', 'interrupted', true), listed('ended', 'interrupted')]);
    expect(statuses.get('hosted')?.status.state).toBe('running');
    expect(statuses.get('ended')?.status).toMatchObject({ state: 'failed', error: 'boom' });
  });
});
