// A running code search in the status bar: best score, evaluations done of the budget, evaluator
// slots busy, and the cost, from the live status the daemon pushes and the run's folded events.
import { describe, expect, it } from 'vitest';
import { foldStatus, startingStatus, StatusFeed } from '../../../src/core/journal/runStatus';
import type { EngineEvent } from '../../../src/core/journal/events';
import type { LiveRunStatus } from '../../../src/core/journal/runStatus';
import { RunStore } from '../../../src/extension/runs/runStore';
import { statusView } from '../../../src/extension/views/statusText';
import type { Clock } from '../../../src/core/ports';
import { RUN, cost, ev } from '../webview/events';
import type { RunState } from '../../../src/panelState/types';

const at = 1;
const searchEvents: EngineEvent[] = [
  { type: 'run/started', runId: RUN, at, info: { kind: 'search', target: '/w/pack.mjs', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 0 } },
  { type: 'candidate/proposed', runId: RUN, at, candidateId: 'p0', parentId: undefined, contentHash: 'h0', text: 'seed' },
  { type: 'program/evaluated', runId: RUN, at, candidateId: 'p0', island: 0, correct: true, score: 1.9169561, instances: 1 },
];

function fold(events: EngineEvent[]): RunState {
  const store = new RunStore();
  store.appendAll([...events, ev('cost/update', { cost: cost(12), llmCalls: 12 })] as never);
  return store.get(RUN)!.state;
}

const statusOf = (events: EngineEvent[]): LiveRunStatus => events.reduce(foldStatus, startingStatus(RUN));
const view = (s: LiveRunStatus, events = searchEvents) => statusView({ runId: RUN, status: { uri: 'file:///w/pack.mjs', workspace: '/w', status: s }, state: fold(events) }, 'running', undefined);

describe('a code search in the status bar', () => {
  it('shows the best score (the starting program’s until a child commits), with evaluations of the budget, slots busy and cost', () => {
    const seeded = { ...statusOf(searchEvents), evaluator: { busy: 2, slots: 3, runs: 7, budget: 200 } };
    expect(view(seeded).text).toBe('$(sync~spin) pack.mjs · best 1.917 · 7/200 evals · 2/3 busy · $0.01');

    const committed: EngineEvent[] = [
      ...searchEvents,
      { type: 'candidate/proposed', runId: RUN, at, candidateId: 'p3', parentId: 'p0', contentHash: 'h3', text: 'better' },
      { type: 'decision', runId: RUN, at, record: { candidateId: 'p3', decision: 'commit' } as never },
      { type: 'program/evaluated', runId: RUN, at, candidateId: 'p3', island: 0, correct: true, score: 2.21, instances: 1 },
    ];
    const best = { ...statusOf(committed), evaluator: { busy: 0, slots: 3, runs: 12 } };
    const shown = view(best, committed);
    expect(shown.text).toBe('$(sync~spin) pack.mjs · best 2.21 · 12 evals · 0/3 busy · $0.01');
    expect(shown.tooltip).toContain('Best program p3: 2.21 (the starting program scored 1.917).');
    expect(shown.tooltip).toContain('12 evaluations run; 0 of 3 evaluator slots busy now.');
  });

  it('on Slurm, shows the array jobs in flight (or that Slurm is paused), with the tasks and cluster time in the tooltip', () => {
    const cluster = { queued: 5, running: 2, finished: 40, jobs: 3, clusterSeconds: 5400, clusterHoursBudget: 10 };
    const onSlurm = { ...statusOf(searchEvents), evaluator: { busy: 2, slots: 7, runs: 47, budget: 200, cluster } };
    const shown = view(onSlurm);
    expect(shown.text).toBe('$(sync~spin) pack.mjs · best 1.917 · 47/200 evals · 3 jobs in flight · $0.01');
    expect(shown.tooltip).toContain('47 evaluations run of a budget of 200.');
    expect(shown.tooltip).toContain('On Slurm: 3 array jobs in flight, 5 tasks queued, 2 running, 40 over; 1.50 cluster-hours used of a budget of 10 cluster-hours.');
    const paused = { ...onSlurm, evaluator: { ...onSlurm.evaluator, cluster: { ...cluster, paused: 'Slurm does not answer (sbatch: error: Unable to contact slurm controller); trying again in 8 s.' } } };
    expect(view(paused).text).toBe('$(sync~spin) pack.mjs · best 1.917 · 47/200 evals · Slurm paused · $0.01');
    expect(view(paused).tooltip).toContain('Submissions wait: Slurm does not answer (sbatch: error: Unable to contact slurm controller); trying again in 8 s.');
  });

  it('says what it does before the starting program has a score', () => {
    const s = statusOf(searchEvents.slice(0, 2));
    expect(view(s, searchEvents.slice(0, 2)).text).toBe('$(sync~spin) pack.mjs · evaluating the starting program · $0.01');
  });

  it('keeps the evaluator load across the events that follow, and drops it once the run is over', () => {
    const pushed: LiveRunStatus[] = [];
    const clock: Clock = { now: () => 0, sleep: () => new Promise(() => undefined) } as unknown as Clock;
    const feed = new StatusFeed(startingStatus(RUN), (s) => pushed.push(s), clock);
    for (const e of searchEvents) feed.event(e);
    feed.evaluator({ busy: 1, slots: 2, runs: 1 });
    feed.event({ type: 'candidate/proposed', runId: RUN, at, candidateId: 'p1', parentId: 'p0', contentHash: 'h1', text: 'x' });
    expect(feed.current.evaluator).toEqual({ busy: 1, slots: 2, runs: 1 });
    feed.event({ type: 'run/finished', runId: RUN, at, commits: 0, candidates: 1, incumbentId: 'p0' });
    const count = pushed.length;
    feed.evaluator({ busy: 0, slots: 2, runs: 1 });
    expect(pushed.length).toBe(count);
    expect(view(feed.current).text).toBe('$(check) pack.mjs · finished, 0 commits · $0.01');
  });
});
