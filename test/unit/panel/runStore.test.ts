import { describe, expect, it } from 'vitest';
import { buildEvidence, MAX_EVIDENCE_ITEMS } from '../../../src/extension/panel/evidence';
import { RunStore } from '../../../src/extension/runs/runStore';
import { RUN, decided, ev, proposed, started, step } from '../webview/events';
import type { PanelEvent } from '../../../src/panelState/types';
import type { EngineEvent } from '../../../src/core/journal/events';

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

describe('events in seq order', () => {
  // Numbered as the journal numbers them: the nth event of the run has seq n.
  const numbered = (events: EngineEvent[]) => events.map((e, i) => ({ ...e, seq: i + 1 }));
  const run = () => numbered([started(), proposed('c0', undefined), proposed('c1', 'c0'), step('c1', 1, 1, Math.log(1.5)), decided('c1', 'commit'), ev('run/finished', { commits: 1, candidates: 2, incumbentId: 'c1' })]);
  const folded = (events: PanelEvent[]) => store(events).snapshot(RUN);

  it('drops an event it already holds, and tells listeners only of the first', () => {
    const [a, b, c] = run();
    const s = new RunStore();
    const seen: number[] = [];
    s.onEvent((_runId, e) => seen.push(e.seq!));
    expect([s.append(a!), s.append(b!), s.append(b!), s.append(a!), s.append(c!)]).toEqual(['folded', 'folded', 'duplicate', 'duplicate', 'folded']);
    expect(seen).toEqual([1, 2, 3]);
    expect(s.lastSeq(RUN)).toBe(3);
    expect(s.snapshot(RUN)).toEqual(folded([a!, b!, c!]));
  });

  it('keeps an early event back until the gap before it is filled, then folds all in order', () => {
    const events = run();
    const s = new RunStore();
    const seen: number[] = [];
    s.onEvent((_runId, e) => seen.push(e.seq!));
    s.append(events[0]!);
    expect([s.append(events[4]!), s.append(events[3]!)]).toEqual(['gap', 'gap']);
    expect([s.lastSeq(RUN), s.hasGap(RUN), seen]).toEqual([1, true, [1]]);
    // The journal's events after seq 1 (as the feed reads them), overlapping what waits.
    s.appendAll(events.slice(1));
    expect([s.lastSeq(RUN), s.hasGap(RUN), seen]).toEqual([6, false, [1, 2, 3, 4, 5, 6]]);
    expect(s.snapshot(RUN)).toEqual(folded(events));
  });

  it('holds a run first heard of mid-way only once its start is in', () => {
    const events = run();
    const s = new RunStore();
    expect(s.append(events[3]!)).toBe('gap');
    expect([s.get(RUN), s.runs()]).toEqual([undefined, []]);
    s.appendAll(events.slice(0, 3));
    expect(s.snapshot(RUN)).toEqual(folded(events.slice(0, 4)));
  });

  it('folds what waits over a gap nobody can fill, in order', () => {
    const events = run();
    const s = new RunStore();
    s.appendAll([events[0]!, events[5]!, events[3]!]);
    s.skipGap(RUN);
    expect([s.lastSeq(RUN), s.hasGap(RUN)]).toEqual([6, false]);
    expect(s.snapshot(RUN)!.eventCount).toBe(3);
    expect(s.append(events[4]!)).toBe('duplicate');
  });
});

describe('interrupted runs', () => {
  it('lists a run the server called interrupted as such until its events go on, and never one that ended', () => {
    const s = store([{ ...started(), seq: 1 }, ev('run/started', { runId: 'run-2', info: { kind: 'evolve', target: 'b.md', gate: 'greedy', alpha: 0.1, mode: 'autopilot', seed: 2 } }), ev('run/cancelled', { runId: 'run-2' })]);
    let changes = 0;
    s.onListChanged(() => (changes += 1));
    // The listing found two events in the run's journal; the store holds one of them so far.
    const listed = [
      { runId: RUN, events: 2 },
      { runId: 'run-2', events: 2 },
    ];
    s.setInterrupted(listed);
    expect(s.runs().map((r) => [r.runId, r.status, r.interrupted])).toEqual([
      ['run-2', 'cancelled', undefined],
      [RUN, 'running', true],
    ]);
    expect(changes).toBe(1);
    // The same listing again changes nothing; the journal's events the listing counted keep it interrupted.
    s.setInterrupted(listed);
    s.append({ ...proposed('c1', undefined), seq: 2 });
    expect([changes, s.runs()[1]!.interrupted]).toEqual([1, true]);
    // Resumed: an event past the listing.
    s.append({ ...ev('run/resumed', { elapsedMs: 5 }), seq: 3 });
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
    const s = store([
      started(),
      proposed('c0', undefined),
      proposed('c1', 'c0'),
      evaluated('c1', 'i1', 0.9),
      evaluated('c0', 'i1', 0.4),
      evaluated('c1', 'i2', 1),
      evaluated('c0', 'i2', 1),
      decided('c1', 'commit', { gate: 'greedy', reason: 'greedy', logWealth: 0 }),
    ]);
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
