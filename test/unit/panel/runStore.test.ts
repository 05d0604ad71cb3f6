import { describe, expect, it } from 'vitest';
import { buildEvidence, MAX_EVIDENCE_ITEMS } from '../../../src/extension/panel/evidence';
import { RunStore } from '../../../src/extension/panel/runStore';
import type { PanelEvent } from '../../../src/protocol/webview';
import { RUN, decided, ev, eventClock, proposed, started, step } from '../webview/events';

const evaluated = (candidateId: string, itemId: string, score: number, output?: string) => ev('item/evaluated', { candidateId, itemId, score, cached: false, ...(output ? { output } : {}) });
const verdict = (itemId: string, order: 'child-first' | 'parent-first', winner: 'child' | 'parent' | 'tie', rationale?: string) =>
  ev('verdict', { candidateId: 'c1', parentId: 'c0', itemId, order, winner, ...(rationale ? { rationale } : {}) });

function store(events: PanelEvent[]): RunStore {
  const s = new RunStore();
  s.appendAll(events);
  return s;
}

describe('RunStore', () => {
  it('folds events per run and lists runs newest first', () => {
    const s = store([started(), ev('run/started', { runId: 'run-2', info: { kind: 'evolve', target: 'b.md', gate: 'greedy', alpha: 0.1, mode: 'autopilot', seed: 2 } })]);
    expect(s.runs()).toEqual([
      { runId: 'run-2', target: 'b.md', status: 'running', startedAt: expect.any(Number) },
      { runId: RUN, target: 'p/x.prompt.md', status: 'running', startedAt: expect.any(Number) },
    ]);
    expect(s.latestRunId()).toBe('run-2');
  });

  it('hands out snapshots the host keeps folding independently of', () => {
    const s = store([started(), proposed('c1', undefined)]);
    const snap = s.snapshot(RUN)!;
    s.append(decided('c1', 'commit'));
    expect(snap.decisions).toHaveLength(0);
    expect(s.snapshot(RUN)!.decisions).toHaveLength(1);
  });

  it('forgets the oldest runs past its limit', () => {
    const s = new RunStore(2);
    for (const id of ['a', 'b', 'c']) s.append(ev('log', { runId: id, level: 'info', message: id }));
    expect(s.runs().map((r) => r.runId)).toEqual(['c', 'b']);
  });

  it('tells listeners about each event and whether it opened a new run', () => {
    const s = new RunStore();
    const seen: [string, string, boolean][] = [];
    const off = s.onEvent((runId, e, isNew) => seen.push([runId, e.type, isNew]));
    s.appendAll([started(), proposed('c1', undefined)]);
    off();
    s.append(decided('c1', 'commit'));
    expect(seen).toEqual([
      [RUN, 'run/started', true],
      [RUN, 'candidate/proposed', false],
    ]);
  });
});

describe('interrupted runs', () => {
  it('lists a run the server called interrupted as such until its events go on, and never one that ended', () => {
    const s = store([started(), ev('run/started', { runId: 'run-2', info: { kind: 'evolve', target: 'b.md', gate: 'greedy', alpha: 0.1, mode: 'autopilot', seed: 2 } }), ev('run/cancelled', { runId: 'run-2' })]);
    let changes = 0;
    s.onListChanged(() => (changes += 1));
    // Later than the events so far and the few this test adds before it says the run went on.
    const listedAt = eventClock() + 50_000;
    s.setInterrupted(new Set([RUN, 'run-2']), listedAt);
    expect(s.runs().map((r) => [r.runId, r.status, r.interrupted])).toEqual([
      ['run-2', 'cancelled', undefined],
      [RUN, 'running', true],
    ]);
    expect(changes).toBe(1);
    // The same listing again changes nothing; the journal's older events keep it interrupted.
    s.setInterrupted([RUN, 'run-2'], listedAt);
    s.append(proposed('c1', undefined));
    expect([changes, s.runs()[1]!.interrupted]).toEqual([1, true]);
    // Resumed: an event past the listing.
    s.append(ev('log', { level: 'info', message: 'resumed', at: listedAt + 1 }));
    expect([changes, s.runs()[1]!.interrupted]).toEqual([2, undefined]);
  });
});

describe('evidence for one decision', () => {
  it('lists the e-process’s discordant items with input, both outputs and who won', () => {
    const s = store([
      started(),
      ev('dataset/loaded', { items: [{ itemId: 'i1', input: 'What is 2+2?', split: 'dev' }] }),
      ev('rubric/updated', { version: 4, rubric: 'Prefer correct answers.' }),
      proposed('c0', undefined, 'old prompt'),
      proposed('c1', 'c0', 'new prompt', 'Be precise.'),
      evaluated('c1', 'i1', 1, '4'),
      evaluated('c0', 'i1', 0, '5'),
      step('c1', 1, 1, 0.4),
      evaluated('c1', 'i2', 1, 'x'),
      evaluated('c0', 'i2', 1, 'x'),
      step('c1', 2, 0, 0.4),
      decided('c1', 'reject', { parentId: 'c0', incumbentId: 'c0', rubricVersion: 4 }),
    ]);
    const e = buildEvidence(s.get(RUN)!, 'c1')!;
    expect(e).toEqual({
      runId: RUN,
      candidateId: 'c1',
      parentId: 'c0',
      incumbentId: 'c0',
      record: expect.objectContaining({ decision: 'reject', rubricVersion: 4 }),
      candidateText: 'new prompt',
      parentText: 'old prompt',
      reasoning: 'Be precise.',
      rubric: { version: 4, text: 'Prefer correct answers.' },
      items: [{ itemId: 'i1', k: 1, delta: 1, winner: 'candidate', input: 'What is 2+2?', candidateOutput: '4', incumbentOutput: '5' }],
      omittedItems: 0,
    });
  });

  it('shows the validator’s rationale in both orders and whether they agreed, disagreements last', () => {
    const s = store([
      started(),
      proposed('c0', undefined),
      proposed('c1', 'c0'),
      verdict('a', 'child-first', 'child', 'A is clearer'),
      verdict('a', 'parent-first', 'child', 'B is clearer'),
      verdict('b', 'child-first', 'child', 'A'),
      verdict('b', 'parent-first', 'parent', 'A'),
      decided('c1', 'reject', { gate: 'pairwise', parentId: 'c0', logWealth: 0 }),
    ]);
    const e = buildEvidence(s.get(RUN)!, 'c1')!;
    expect(e.items).toEqual([
      { itemId: 'a', winner: 'candidate', childFirst: { winner: 'child', rationale: 'A is clearer' }, parentFirst: { winner: 'child', rationale: 'B is clearer' }, agreed: true },
      { itemId: 'b', winner: 'tie', childFirst: { winner: 'child', rationale: 'A' }, parentFirst: { winner: 'parent', rationale: 'A' }, agreed: false },
    ]);
  });

  it('falls back to differing scores for gates without an e-process', () => {
    const s = store([started(), proposed('c0', undefined), proposed('c1', 'c0'), evaluated('c1', 'i1', 0.9), evaluated('c0', 'i1', 0.4), evaluated('c1', 'i2', 1), evaluated('c0', 'i2', 1), decided('c1', 'commit', { gate: 'greedy', reason: 'greedy', logWealth: 0 })]);
    expect(buildEvidence(s.get(RUN)!, 'c1')!.items).toEqual([{ itemId: 'i1', delta: 0.9 - 0.4, winner: 'candidate' }]);
  });

  it('caps the items it sends and says how many it left out', () => {
    const events: PanelEvent[] = [started(), proposed('c1', undefined)];
    for (let k = 1; k <= MAX_EVIDENCE_ITEMS + 7; k++) events.push(step('c1', k, -1, -k * 0.1));
    const e = buildEvidence(store(events).get(RUN)!, 'c1')!;
    expect(e.items).toHaveLength(MAX_EVIDENCE_ITEMS);
    expect(e.omittedItems).toBe(7);
  });

  it('has nothing for a candidate the run never mentioned', () => {
    expect(buildEvidence(store([started()]).get(RUN)!, 'ghost')).toBeUndefined();
  });
});
