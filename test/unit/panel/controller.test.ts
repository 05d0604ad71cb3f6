import { describe, expect, it } from 'vitest';
import { PanelController, lightEvent, type PanelActions } from '../../../src/extension/panel/controller';
import { RunStore } from '../../../src/extension/runs/runStore';
import type { HostMessage, ViewMessage } from '../../../src/protocol/webview';
import { RUN, decided, ev, proposed, started } from '../webview/events';
import { exemplar, zeroRound } from '../webview/zeroRound';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';

function setup(events = [started(), proposed('c0', undefined), proposed('c1', 'c0', 'long text', 'why'), decided('c1', 'commit', { parentId: 'c0' })]) {
  const store = new RunStore();
  store.appendAll(events);
  const posted: HostMessage[] = [];
  const calls: string[] = [];
  const timers: (() => void)[] = [];
  const actions: PanelActions = {
    cancel: (id) => void calls.push(`cancel ${id}`),
    resume: async (id) => {
      calls.push(`resume ${id}`);
      throw new Error('server is down');
    },
    openCandidate: (id, c, as) => void calls.push(`open ${id} ${c} ${as}`),
    loadRun: (id) => void calls.push(`load ${id}`),
    saveExport: (name, text) => void calls.push(`save ${name} ${text.length}`),
    openDocs: () => void calls.push('docs'),
    reportError: (m) => void calls.push(`error ${m}`),
  };
  const controller = new PanelController(store, { post: (m) => posted.push(structuredClone(m)) }, actions, {
    setTimer: (fn) => timers.push(fn),
    clearTimer: () => undefined,
  });
  const flush = () => timers.splice(0).forEach((t) => t());
  return { store, posted, calls, controller, flush };
}

describe('PanelController', () => {
  it('answers view/ready with a full snapshot of the remembered run, else the latest', () => {
    const { posted, controller } = setup();
    controller.receive({ type: 'view/ready', runId: 'unknown-run' });
    expect(posted).toHaveLength(1);
    const snap = posted[0] as Extract<HostMessage, { type: 'run/snapshot' }>;
    expect(snap.type).toBe('run/snapshot');
    expect(snap.run?.runId).toBe(RUN);
    expect(snap.run?.decisions.map((d) => d.candidateId)).toEqual(['c1']);
    expect(snap.runs.map((r) => r.runId)).toEqual([RUN]);
  });

  it('posts nothing before view/ready, then batches the selected run’s events without their heavy texts', () => {
    const { store, posted, controller, flush } = setup();
    store.append(proposed('c2', 'c1', 'x'.repeat(10_000), 'secret reasoning'));
    flush();
    expect(posted).toEqual([]);
    controller.receive({ type: 'view/ready', runId: RUN });
    store.append(proposed('c3', 'c1', 'y'.repeat(10_000), 'r'));
    store.append(ev('item/evaluated', { candidateId: 'c3', itemId: 'i1', score: 1, cached: false, output: 'big output' }));
    expect(posted).toHaveLength(1);
    flush();
    const batch = posted[1] as Extract<HostMessage, { type: 'run/events' }>;
    expect(batch.type).toBe('run/events');
    expect(batch.events.map((e) => e.type)).toEqual(['candidate/proposed', 'item/evaluated']);
    expect(JSON.stringify(batch)).not.toMatch(/yyyy|big output/);
  });

  it('follows a newly started run unless the one on screen is still running', () => {
    const { store, posted, controller } = setup([started(), ev('run/finished', { commits: 0, candidates: 0, incumbentId: undefined })]);
    controller.receive({ type: 'view/ready', runId: undefined });
    store.append(ev('run/started', { runId: 'run-2', info: { kind: 'evolve', target: 'b.md', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 } }));
    expect(controller.selectedRunId).toBe('run-2');
    expect(posted.at(-1)).toMatchObject({ type: 'run/snapshot', run: { runId: 'run-2' } });
    store.append(ev('run/started', { runId: 'run-3', info: { kind: 'evolve', target: 'c.md', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 } }));
    expect(controller.selectedRunId).toBe('run-2');
    expect(posted.at(-1)).toMatchObject({ type: 'runs/updated' });
  });

  it('shows the run the user just started, even when the view (re)loads remembering another', () => {
    // The run's first event reached the store while the panel was hidden (its view torn down); the
    // command then reveals it, and the view comes back asking for the run it showed before.
    const { store, posted, controller } = setup([started(), ev('run/finished', { commits: 0, candidates: 0, incumbentId: undefined })]);
    store.append(ev('run/started', { runId: 'run-2', info: { kind: 'evolve', target: 'b.md', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 } }));
    controller.showRun('run-2');
    controller.receive({ type: 'view/ready', runId: RUN });
    expect(controller.selectedRunId).toBe('run-2');
    expect(posted.at(-1)).toMatchObject({ type: 'run/snapshot', run: { runId: 'run-2' } });
  });

  it('shows a run asked for before its first event, even while the run on screen is still running', () => {
    const { store, posted, controller } = setup();
    controller.receive({ type: 'view/ready', runId: RUN });
    controller.showRun('run-2');
    expect(controller.selectedRunId).toBe(RUN);
    store.append(ev('run/started', { runId: 'run-2', info: { kind: 'evolve', target: 'b.md', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 } }));
    expect(controller.selectedRunId).toBe('run-2');
    expect(posted.at(-1)).toMatchObject({ type: 'run/snapshot', run: { runId: 'run-2' } });
  });

  it('shows a run the user just started at once, as starting on its file, before its first event', () => {
    // The engine takes a moment to start (daemon, spec, data): the panel must not go on showing the old run.
    const { store, posted, controller, flush } = setup();
    controller.receive({ type: 'view/ready', runId: RUN });
    store.begin('run-2', 'arith/task.prompt.md');
    controller.showRun('run-2');
    expect(controller.selectedRunId).toBe('run-2');
    expect(posted.at(-1)).toMatchObject({ type: 'run/snapshot', run: { runId: 'run-2', status: 'pending', requestedTarget: 'arith/task.prompt.md' } });
    expect(store.runs()[0]).toMatchObject({ runId: 'run-2', target: 'arith/task.prompt.md', status: 'pending' });
    // Its events then stream into the run on screen, as for any run.
    store.append(ev('run/started', { runId: 'run-2', info: { kind: 'evolve', target: 'arith/task.prompt.md', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 } }));
    flush();
    expect(posted.at(-1)).toMatchObject({ type: 'run/events', runId: 'run-2', events: [{ type: 'run/started' }] });
  });

  it('opens “How Ratchet decides” when the view asks', () => {
    const { calls, controller } = setup();
    controller.receive({ type: 'docs/open' });
    expect(calls).toEqual(['docs']);
  });

  it('a view restored after a reload asks for the run it showed from its journal, and shows it once read', () => {
    // The run ended while the window reloaded: no server hosts it, so only its journal has it.
    const { store, posted, calls, controller } = setup([]);
    controller.receive({ type: 'view/ready', runId: 'run-9' });
    expect(calls).toEqual(['load run-9']);
    expect(posted.at(-1)).toMatchObject({ type: 'run/snapshot', run: undefined });
    store.appendAll([ev('run/started', { runId: 'run-9', info: { kind: 'evolve', target: 'b.md', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 } })]);
    expect(controller.selectedRunId).toBe('run-9');
    expect(posted.at(-1)).toMatchObject({ type: 'run/snapshot', run: { runId: 'run-9' } });
  });

  it('handles every view message', async () => {
    const { posted, calls, controller } = setup();
    const messages: ViewMessage[] = [
      { type: 'view/ready', runId: RUN },
      { type: 'run/select', runId: RUN },
      { type: 'run/cancel', runId: RUN },
      { type: 'run/resume', runId: RUN },
      { type: 'evidence/request', runId: RUN, candidateId: 'c1' },
      { type: 'evidence/request', runId: RUN, candidateId: 'ghost' },
      { type: 'candidate/open', runId: RUN, candidateId: 'c1', as: 'diff' },
      { type: 'view/error', message: 'boom' },
    ];
    for (const m of messages) controller.receive(m);
    await Promise.resolve();
    expect(posted.map((m) => m.type)).toEqual(['run/snapshot', 'run/snapshot', 'evidence/show', 'evidence/missing']);
    expect(posted[2]).toMatchObject({ evidence: { candidateId: 'c1', candidateText: 'long text', parentText: 'text of c0', reasoning: 'why' } });
    expect(calls).toEqual([`cancel ${RUN}`, `resume ${RUN}`, `open ${RUN} c1 diff`, 'error Ratchet panel: boom', `error Resuming run ${RUN} failed: server is down`]);
    expect(() => controller.receive({ type: 'view/unknown' } as unknown as ViewMessage)).toThrow(/Unexpected view message/);
  });

  it('tells the view when the selected run is interrupted, so it can offer Resume', () => {
    const { store, posted, controller } = setup();
    store.setInterrupted([{ runId: RUN, events: 1 }]);
    expect(posted).toEqual([]);
    controller.receive({ type: 'view/ready', runId: RUN });
    expect((posted[0] as Extract<HostMessage, { type: 'run/snapshot' }>).runs).toEqual([expect.objectContaining({ runId: RUN, interrupted: true })]);
    store.setInterrupted([]);
    expect(posted.at(-1)).toEqual({ type: 'runs/updated', runs: [{ runId: RUN, target: 'p/x.prompt.md', status: 'running', startedAt: expect.any(Number) }] });
  });

  it('holds the Evidence command’s focus until the view is ready, then sends that run and the focus', () => {
    const { store, posted, controller } = setup();
    store.append(ev('run/started', { runId: 'run-2', info: { kind: 'evolve', target: 'b.md', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 } }));
    controller.focus(RUN, 'c1');
    expect(posted).toEqual([]);
    // The view restores the run it showed last; the focus wins.
    controller.receive({ type: 'view/ready', runId: 'run-2' });
    expect(posted.map((m) => m.type)).toEqual(['run/snapshot', 'focus']);
    expect(posted[0]).toMatchObject({ run: { runId: RUN } });
    expect(posted[1]).toEqual({ type: 'focus', runId: RUN, candidateId: 'c1' });
    // Once ready, a focus is sent at once: a snapshot first when it names another run.
    controller.focus('run-2', 'c9');
    expect(posted.slice(2).map((m) => [m.type, m.type === 'run/snapshot' ? m.run?.runId : undefined])).toEqual([
      ['run/snapshot', 'run-2'],
      ['focus', undefined],
    ]);
    controller.focus('no-such-run', 'c1');
    expect(posted).toHaveLength(4);
  });

  it('sends the selected run’s pending events before a focus on it', () => {
    const { store, posted, controller } = setup();
    controller.receive({ type: 'view/ready', runId: RUN });
    store.append(proposed('c2', 'c1'));
    store.append(decided('c2', 'commit', { parentId: 'c1' }));
    controller.focus(RUN, 'c2');
    expect(posted.map((m) => m.type)).toEqual(['run/snapshot', 'run/events', 'focus']);
  });

  it('stops posting when the view goes away and starts again on view/ready', () => {
    const { store, posted, controller, flush } = setup();
    controller.receive({ type: 'view/ready', runId: RUN });
    controller.detach();
    store.append(proposed('c9', 'c1'));
    flush();
    expect(posted).toHaveLength(1);
    controller.receive({ type: 'view/ready', runId: RUN });
    expect((posted.at(-1) as Extract<HostMessage, { type: 'run/snapshot' }>).run?.candidateOrder).toContain('c9');
  });
});

describe('lightEvent', () => {
  it('drops texts the view does not fold and keeps what it does', () => {
    const rubric = ev('rubric/updated', { version: 1, rubric: 'keep me' });
    expect(lightEvent(rubric)).toBe(rubric);
    expect(lightEvent(ev('verdict', { candidateId: 'c', parentId: 'p', itemId: 'i', order: 'child-first', winner: 'child', rationale: 'long' }))).not.toHaveProperty('rationale');
  });
});

describe('zero-data rounds', () => {
  it('reach the view as counts only; the judge’s exemplars come with their texts when asked for', () => {
    const round = zeroRound(1, { exemplars: [exemplar('r1:a:role', { task: 'What is 2 + 2?', better: 'The answer is 4', worse: 'The answer is 5' })] });
    const light = lightEvent(round) as typeof round;
    expect([...light.kept, ...light.heldOut].map((t) => t.text)).toEqual(['', '', '', '', '']);
    expect(light.exemplars).toEqual([{ pairId: 'r1:a:role', type: 'roleAsymmetry', judgement: 'wrong', betterSlot: 'A', task: '', better: '', worse: '' }]);
    // What the view folds is the same either way.
    expect(foldEvents(emptyRunState(RUN), [light]).zeroRounds).toEqual(foldEvents(emptyRunState(RUN), [round]).zeroRounds);

    const { store, posted, controller } = setup();
    store.append(round);
    controller.receive({ type: 'view/ready', runId: RUN });
    controller.receive({ type: 'zero/request', runId: RUN, round: 1 });
    expect(posted.at(-1)).toEqual({ type: 'zero/exemplars', runId: RUN, round: 1, exemplars: round.exemplars });
    controller.receive({ type: 'zero/request', runId: RUN, round: 2 });
    expect(posted.at(-1)).toEqual({ type: 'zero/exemplars', runId: RUN, round: 2, exemplars: [], why: 'the run has no round 2.' });
  });
});
