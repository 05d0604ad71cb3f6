// A code-search program's detail as the host builds it for the Programs view, over a real
// in-process search (the search tests' world): a program's text beside its parent's and the seed's,
// the proposer's name, the evaluator's metrics and feedback, an incorrect program's output capped
// at its end, and its gate test's per-instance scores against its opponent and its wealth pair by pair.
import { describe, expect, it } from 'vitest';
import { runSearch } from '../../../src/core/code/search';
import type { ProgramEvaluator } from '../../../src/core/code/search';
import type { EngineEvent, EventOf } from '../../../src/core/journal/events';
import { SeededRandom } from '../../../src/core/random';
import { PanelController, lightEvent, type PanelActions } from '../../../src/extension/panel/controller';
import { MAX_PROGRAM_OUTPUT, buildProgramDetail } from '../../../src/extension/panel/programDetail';
import { RunStore } from '../../../src/extension/runs/runStore';
import type { HostMessage } from '../../../src/protocol/webview';
import { SEED_PROGRAM, constantOf, evaluator, proposer, spec } from '../code/searchWorld';

/** The world's evaluator, with public metrics and feedback, and programs whose constant is past 0.95 crash loudly. */
function reportingEvaluator(seed: number): ProgramEvaluator {
  const inner = evaluator(seed).evaluate;
  return async (text, ids, signal, repeat) => {
    const x = constantOf(text);
    if (x > 0.95) return { correct: false, error: `x = ${x} is out of range`, output: `${'noise '.repeat(3_000)}Error: x out of range` };
    const e = await inner(text, ids, signal, repeat);
    return { ...e, publicMetrics: { x }, feedback: `x is ${x}` };
  };
}

async function searchStore(seed: number, proposals: number): Promise<{ store: RunStore; events: EngineEvent[] }> {
  const events: EngineEvent[] = [{ type: 'run/started', runId: 'r', at: 0, info: { kind: 'search', target: 'solve.mjs', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 } }];
  await runSearch({
    spec: spec('pace+', proposals),
    seedText: SEED_PROGRAM,
    llm: proposer(seed, false),
    evaluate: reportingEvaluator(seed),
    random: new SeededRandom(seed),
    emit: async (e) => void events.push({ ...e, runId: 'r', at: events.length } as EngineEvent),
    signal: new AbortController().signal,
  });
  const store = new RunStore();
  store.appendAll(events);
  return { store, events };
}

const ofType = <T extends EngineEvent['type']>(events: EngineEvent[], type: T): EventOf<T>[] => events.filter((e): e is EventOf<T> => e.type === type);

describe('buildProgramDetail', () => {
  it('a committed child: its text beside its parent’s and the seed’s, its evaluation, its paired scores and wealth', async () => {
    const { store, events } = await searchStore(3, 30);
    const run = store.get('r')!;
    const decisions = ofType(events, 'decision');
    const commit = decisions.find((d) => d.record.decision === 'commit' && d.record.candidateId !== 'p0')!.record;
    const id = commit.candidateId;
    const d = buildProgramDetail(run, id)!;
    const proposed = new Map(ofType(events, 'candidate/proposed').map((e) => [e.candidateId, e]));
    expect(d.text).toBe(proposed.get(id)!.text);
    expect(d.parentId).toBe(proposed.get(id)!.parentId);
    expect(d.parentText).toBe(proposed.get(d.parentId!)!.text);
    expect(d.seedId).toBe('p0');
    expect(d.seedText).toBe(SEED_PROGRAM);
    expect(d.name).toBe(proposed.get(id)!.reasoning);
    expect(d.record).toEqual(commit);
    expect(d.opponentId).toBe(commit.incumbentId);
    const x = constantOf(d.text);
    expect(d.evaluation).toMatchObject({ correct: true, metrics: { x }, feedback: expect.stringContaining(`x is ${x}`) });

    // Every instance the child was scored on, with the e-process's pairs first in its order.
    const scored = ofType(events, 'item/evaluated').filter((e) => e.candidateId === id);
    expect(d.pairs.map((p) => p.instanceId).sort()).toEqual([...new Set(scored.map((e) => e.itemId))].sort());
    const taken = ofType(events, 'wealth/step').filter((e) => e.candidateId === id);
    expect(d.pairs.filter((p) => p.k !== undefined).map((p) => p.k)).toEqual(taken.map((s) => s.k));
    for (const p of d.pairs) if (p.opponent !== undefined && p.delta !== undefined) expect(Math.sign(p.child - p.opponent)).toBe(Math.sign(p.delta));
    const steps = taken.filter((s) => s.delta !== 0);
    expect(d.wealth.steps.map((s) => s.logWealth)).toEqual(steps.map((s) => s.logWealth));
    expect(d.wealth.ties).toBe(taken.length - steps.length);
    expect(d.wealth).toMatchObject({ candidateId: id, decision: 'commit', threshold: commit.threshold });
    // The commit crossed the 1/α line.
    expect(Math.exp(d.wealth.steps.at(-1)!.logWealth)).toBeGreaterThanOrEqual(commit.threshold);
  });

  it('says how its evaluation was isolated and what the sandbox saw', async () => {
    const { events } = await searchStore(3, 4);
    const incident = 'the evaluation hit its process limit (64 processes and threads)';
    const told = events.map((e) => (e.type === 'program/evaluated' && e.candidateId === 'p1' ? { ...e, isolation: { tier: 'namespaces' as const, network: 'off' as const }, incidents: [incident] } : e));
    const store = new RunStore();
    store.appendAll(told);
    expect(buildProgramDetail(store.get('r')!, 'p1')!.evaluation).toMatchObject({ isolation: 'partly isolated: own process tree, no network; the program can read your files', incidents: [incident] });
    // A run recorded before the sandbox said so: nothing is made up.
    const plain = buildProgramDetail(store.get('r')!, 'p0')!.evaluation!;
    expect(plain.isolation).toBeUndefined();
    expect(plain.incidents).toBeUndefined();
  });

  it('an incorrect program: its error and the end of its output, capped', async () => {
    const { store, events } = await searchStore(3, 30);
    const wrong = ofType(events, 'program/evaluated').find((e) => !e.correct);
    expect(wrong).toBeDefined();
    const d = buildProgramDetail(store.get('r')!, wrong!.candidateId)!;
    expect(d.evaluation?.correct).toBe(false);
    expect(d.evaluation?.error).toMatch(/out of range/);
    expect(d.evaluation?.output).toHaveLength(Math.min(MAX_PROGRAM_OUTPUT, wrong!.output!.length));
    expect(d.evaluation?.output?.endsWith('Error: x out of range')).toBe(true);
    expect(d.evaluation?.omittedOutput).toBe(wrong!.output!.length - MAX_PROGRAM_OUTPUT);
  });

  it('the seed has no parent and no decision; an unknown program has no detail', async () => {
    const { store } = await searchStore(4, 4);
    const seed = buildProgramDetail(store.get('r')!, 'p0')!;
    expect(seed).toMatchObject({ programId: 'p0', parentId: undefined, seedId: 'p0', text: SEED_PROGRAM, evaluation: { correct: true } });
    expect(seed.parentText).toBeUndefined();
    expect(seed.seedText).toBeUndefined();
    expect(seed.record).toBeUndefined();
    expect(buildProgramDetail(store.get('r')!, 'p999')).toBeUndefined();
  });
});

describe('the panel protocol for programs', () => {
  it('program/request is answered with program/show, or program/missing naming why', async () => {
    const { store } = await searchStore(3, 6);
    const posted: HostMessage[] = [];
    const noop = () => undefined;
    const actions: PanelActions = { cancel: noop, resume: noop, openCandidate: noop, loadRun: noop, saveExport: noop, openDocs: noop, reportError: noop };
    const controller = new PanelController(store, { post: (m) => posted.push(m) }, actions, { setTimer: () => 0, clearTimer: noop });
    controller.receive({ type: 'program/request', runId: 'r', programId: 'p1' });
    controller.receive({ type: 'program/request', runId: 'r', programId: 'p404' });
    controller.receive({ type: 'program/request', runId: 'gone', programId: 'p1' });
    expect(posted.map((m) => m.type)).toEqual(['program/show', 'program/missing', 'program/missing']);
    expect((posted[0] as Extract<HostMessage, { type: 'program/show' }>).detail.programId).toBe('p1');
    expect((posted[2] as Extract<HostMessage, { type: 'program/missing' }>).why).toMatch(/no longer in memory/);
  });

  it('the view’s events keep a program’s name but not its output, feedback or metrics (they travel on request)', async () => {
    const { events } = await searchStore(3, 30);
    const child = ofType(events, 'candidate/proposed').find((e) => e.program && e.reasoning)!;
    expect(lightEvent(child)).toMatchObject({ reasoning: child.reasoning, text: '' });
    const wrong = ofType(events, 'program/evaluated').find((e) => !e.correct)!;
    expect(JSON.stringify(lightEvent(wrong))).not.toMatch(/noise|Error: x/);
    const right = ofType(events, 'program/evaluated').find((e) => e.correct && e.metrics)!;
    expect(lightEvent(right)).not.toHaveProperty('metrics');
    expect(lightEvent(right)).not.toHaveProperty('feedback');
  });
});
