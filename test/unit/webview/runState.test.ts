import { describe, expect, expectTypeOf, it } from 'vitest';
import { LIMITS, applyEvent, costTotals, emptyRunState, foldEvents } from '../../../src/panelState/runState';
import { RUN, cost, decided, ev, proposed, started, step } from './events';
import type { PanelEvent, RunState } from '../../../src/panelState/types';
import type { LiveRunState, PanelRunStatus } from '../../../src/core/journal/runStates';

const fold = (events: PanelEvent[]) => foldEvents(emptyRunState(RUN), events);

describe('folding engine events into the run state', () => {
  it('says the status in the live status words, plus pending (checked by the type checker)', () => {
    expectTypeOf<Exclude<PanelRunStatus, 'pending'>>().toExtend<LiveRunState>();
    expectTypeOf<RunState['status']>().toEqualTypeOf<'pending' | 'running' | 'finished' | 'failed' | 'cancelled'>();
  });

  it('records the run, its candidates and a decision', () => {
    const s = fold([started(), proposed('c0', undefined), proposed('c1', 'c0'), step('c1', 1, 1, 0.4), step('c1', 2, 0, 0.4), decided('c1', 'commit', { parentId: 'c0' })]);
    expect(s.status).toBe('running');
    expect(s.info?.target).toBe('p/x.prompt.md');
    expect(s.candidateOrder).toEqual(['c0', 'c1']);
    expect(s.candidates.c1).toEqual({ id: 'c1', parentId: 'c0', at: expect.any(Number), contentHash: 'h-c1', decision: 'commit', reason: 'evidence' });
    expect(s.decisions).toHaveLength(1);
    expect(s.decisions[0]).toMatchObject({ seq: 0, candidateId: 'c1', decision: 'commit', threshold: 20, itemsConsumed: 9 });
    expect(s.incumbentId).toBe('c1');
    // Ties are counted, not kept as steps: the chart's x axis is discordant pairs.
    expect(s.wealth.c1).toEqual({ candidateId: 'c1', ties: 1, decision: 'commit', threshold: 20, steps: [{ k: 1, itemId: 'i1', delta: 1, logWealth: 0.4, logThreshold: Math.log(20), logBest: 10 }] });
    expect(s.activeCandidateId).toBe('c1');
    expect(s.eventCount).toBe(6);
  });

  it('pairs both-order verdicts and counts agreement', () => {
    const v = (itemId: string, order: 'child-first' | 'parent-first', winner: 'child' | 'parent' | 'tie') => ev('verdict', { candidateId: 'c1', parentId: 'c0', itemId, order, winner });
    const s = fold([v('a', 'child-first', 'child'), v('a', 'parent-first', 'child'), v('b', 'child-first', 'child'), v('b', 'parent-first', 'parent'), v('c', 'child-first', 'tie')]);
    expect(s.verdicts.c1).toEqual({ child: 3, parent: 1, tie: 1, agreed: 1, disagreed: 1 });
    // Only the unpaired verdict waits; paired ones are forgotten so memory stays bounded.
    expect(Object.keys(s.pendingVerdicts)).toEqual(['c1\nc']);
    applyEvent(s, decided('c1', 'reject', { gate: 'pairwise' }));
    expect(s.decisions[0]?.verdicts).toEqual({ child: 3, parent: 1, tie: 1, agreed: 1, disagreed: 1 });
  });

  it('ends the run on finished, failed or cancelled, and a resume starts it again', () => {
    expect(fold([started(), ev('run/finished', { commits: 2, candidates: 9, incumbentId: 'c7' })])).toMatchObject({ status: 'finished', finished: { commits: 2, candidates: 9 }, incumbentId: 'c7' });
    expect(fold([started(), ev('run/failed', { error: { code: 'llmHttp', message: '401 from the endpoint' } })])).toMatchObject({ status: 'failed', error: { code: 'llmHttp', message: '401 from the endpoint' } });
    const resumed = fold([started(), ev('run/cancelled', {}), ev('run/started', { info: { kind: 'evolve', target: 'p/x.prompt.md', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 }, resumed: true })]);
    expect(resumed).toMatchObject({ status: 'running', resumed: true, endedAt: undefined });
  });

  it('keeps cumulative cost samples bounded by thinning, never losing the latest total', () => {
    const events: PanelEvent[] = [started()];
    for (let i = 1; i <= LIMITS.costSamples * 3; i++) events.push(ev('cost/update', { cost: cost(i), llmCalls: i }));
    const s = fold(events);
    expect(s.costSamples.length).toBeLessThanOrEqual(LIMITS.costSamples + 1);
    expect(s.costSamples.at(-1)?.byRole.agent.calls).toBe(LIMITS.costSamples * 3);
    expect(costTotals(s)).toEqual({ calls: LIMITS.costSamples * 3, tokens: LIMITS.costSamples * 3 * 110, dollars: LIMITS.costSamples * 3 * 0.001 });
  });

  it('reports dollars as unknown when a role used a model without a price', () => {
    const s = fold([started(), ev('cost/update', { cost: cost(3, false), llmCalls: 3 })]);
    expect(costTotals(s).dollars).toBeUndefined();
  });

  it('bounds the feed and the wealth traces on very long runs', () => {
    const events: PanelEvent[] = [started()];
    const total = LIMITS.feedRows + 5;
    for (let i = 0; i < total; i++) {
      if (i < LIMITS.wealthTraces + 3) events.push(step(`c${i}`, 1, 1, 0.3));
      events.push(decided(`c${i}`, 'reject'));
    }
    const s = fold(events);
    expect(s.decisions).toHaveLength(LIMITS.feedRows);
    expect(s.droppedDecisions).toBe(5);
    expect(s.decisions[0]?.seq).toBe(5);
    expect(Object.keys(s.wealth)).toHaveLength(LIMITS.wealthTraces);
    expect(s.wealth.c0).toBeUndefined();
  });

  it('counts an event type it does not know instead of failing the whole run', () => {
    const s = fold([started(), { type: 'future/thing', runId: RUN, at: 5 } as unknown as PanelEvent, proposed('c1', undefined)]);
    expect(s.skippedEvents).toBe(1);
    expect(s.candidateOrder).toEqual(['c1']);
  });

  it('skips an event named after something every object has, as it skips any unknown type', () => {
    const inherited = ['constructor', 'toString', '__proto__'].map((type) => ({ type, runId: RUN, at: 5 }) as unknown as PanelEvent);
    const s = fold([started(), ...inherited, proposed('c1', undefined)]);
    expect(s.skippedEvents).toBe(3);
    expect(s.candidateOrder).toEqual(['c1']);
  });

  it('keeps the latest ratings table, the rubric and a bounded log', () => {
    const events: PanelEvent[] = [started(), ev('ratings', { ratings: [{ candidateId: 'c1', elo: 1510, bt: 1520, lo: 1480, hi: 1560, selectP: 0.4 }] }), ev('rubric/updated', { version: 2, rubric: 'Prefer faithful summaries.' })];
    for (let i = 0; i < LIMITS.logLines + 10; i++) events.push(ev('log', { level: 'info', message: `line ${i}` }));
    const s = fold(events);
    expect(s.ratings).toEqual([{ candidateId: 'c1', elo: 1510, bt: 1520, lo: 1480, hi: 1560, selectP: 0.4 }]);
    expect(s.rubric).toEqual({ version: 2, text: 'Prefer faithful summaries.' });
    expect(s.logs).toHaveLength(LIMITS.logLines);
    expect(s.logs.at(-1)?.message).toBe(`line ${LIMITS.logLines + 9}`);
  });

  it('survives a JSON round trip (what postMessage does to a snapshot) and keeps folding', () => {
    const s = fold([started(), proposed('c1', undefined), step('c1', 1, 1, 0.4)]);
    const copy = JSON.parse(JSON.stringify(s)) as typeof s;
    applyEvent(copy, decided('c1', 'commit'));
    expect(copy.candidates.c1?.decision).toBe('commit');
    expect(copy.wealth.c1?.decision).toBe('commit');
  });
});
