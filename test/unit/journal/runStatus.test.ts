// A run's status is one fold of its events, owned by the daemon: each progress line, the counts,
// the states, and a wait's line that gives way to the run's own line when the wait is over
// (virtual time: the test moves the clock, nothing sleeps).
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src/core/journal/events';
import { endStatus, endWait, foldStatus, isOver, isWorkDone, resumingStatus, startingStatus, StatusFeed } from '../../../src/core/journal/runStatus';
import type { LiveRunStatus } from '../../../src/core/journal/runStatus';
import { VirtualClock } from '../../fixtures/llmPorts';
import { decisionRecord } from './journalHelpers';
import { zeroRound } from '../webview/zeroRound';

const runId = 'r1';
type Body = EngineEvent extends infer E ? (E extends EngineEvent ? Omit<E, 'runId' | 'at'> : never) : never;
const ev = (body: Body): EngineEvent => ({ runId, at: 0, ...body }) as EngineEvent;

const proposed = (candidateId: string) => ev({ type: 'candidate/proposed', candidateId, parentId: 'v0', contentHash: 'h', text: 't' });
const decided = (candidateId: string, decision: 'commit' | 'reject') => ev({ type: 'decision', record: decisionRecord({ candidateId, decision }) });
const waiting = (why: 'rate-limited' | 'retry', waitMs: number) => ev({ type: 'llm/waiting', role: 'agent', model: 'm', why, waitMs, message: '429' });
const fold = (events: EngineEvent[], from: LiveRunStatus = startingStatus(runId)) => events.reduce(foldStatus, from);

describe('foldStatus', () => {
  it('starts running, with no counts', () => {
    expect(startingStatus(runId)).toEqual({ runId, state: 'running', tested: 0, commits: 0, line: 'starting' });
  });

  it.each<[string, EngineEvent[], Partial<LiveRunStatus>]>([
    ['the starting prompt', [proposed('v0')], { line: 'scoring the starting prompt' }],
    ['a candidate under test', [proposed('v3')], { line: 'testing v3' }],
    ['the counts after each decision', [decided('v1', 'reject'), decided('v2', 'commit'), decided('v3', 'reject')], { tested: 3, commits: 1, line: '3 tested · 1 committed' }],
    [
      'a judge that did not always answer (#25)',
      [
        ev({ type: 'decision', record: decisionRecord({ candidateId: 'v1', decision: 'reject', judge: { answers: 40, abstained: 0 } }) }),
        ev({ type: 'decision', record: decisionRecord({ candidateId: 'v2', decision: 'reject', judge: { answers: 30, abstained: 7, model: 'm' } }) }),
      ],
      { tested: 2, commits: 0, judge: { answers: 70, abstained: 7 }, line: '2 tested · 0 committed · the judge did not answer 7 of 70 times' },
    ],
    [
      'a suggestion waiting for the user',
      [decided('v4', 'commit'), ev({ type: 'suggestion', candidateId: 'v4', file: 'a.prompt.md', baseText: 'a', newText: 'b' })],
      { state: 'waiting-for-you', tested: 1, commits: 1, line: 'v4 waits for your Accept or Reject' },
    ],
    [
      'the user answered: the run goes on from its counts',
      [decided('v4', 'commit'), ev({ type: 'suggestion', candidateId: 'v4', file: 'a.prompt.md', baseText: 'a', newText: 'b' }), ev({ type: 'edit/rejected', candidateId: 'v4', file: 'a.prompt.md', by: 'user' })],
      { state: 'running', tested: 1, commits: 1, line: '1 tested · 1 committed' },
    ],
    [
      'the test split report',
      [ev({ type: 'report/test', n: 40, baseline: { candidateId: 'v0', mean: 0.5, lo: 0.4, hi: 0.6 }, final: { candidateId: 'v2', mean: 0.625, lo: 0.5, hi: 0.7 }, difference: { mean: 0.125, lo: 0, hi: 0.2 } })],
      { line: 'test split: 0.625 (n = 40)' },
    ],
    ['a rate limit', [proposed('v2'), waiting('rate-limited', 12_000)], { line: 'rate limited, waiting 12 s', wait: { ms: 12_000, then: 'testing v2' } }],
    ['a retried call', [proposed('v2'), waiting('retry', 1_500)], { line: 'retrying a failed call, waiting 2 s', wait: { ms: 1_500, then: 'testing v2' } }],
    ['the end', [decided('v1', 'commit'), ev({ type: 'run/finished', commits: 1, candidates: 1, incumbentId: 'v1' })], { state: 'finished', tested: 1, commits: 1, line: '1 tested · 1 committed' }],
    [
      'a failure, with its error; a wait is over with it',
      [proposed('v2'), waiting('retry', 1_000), ev({ type: 'run/failed', error: { code: 'llmHttp', message: 'HTTP 500' } })],
      { state: 'failed', line: 'testing v2', error: 'HTTP 500', errorCode: 'llmHttp' },
    ],
    [
      'an Evaluate ends on what it scored, not on a count of candidates it never had',
      [
        ev({ type: 'run/started', info: { kind: 'evaluate', target: 'a.prompt.md', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 } }),
        ev({ type: 'report/test', n: 40, baseline: { candidateId: 'v0', mean: 0.5, lo: 0.4, hi: 0.6 }, final: { candidateId: 'v0', mean: 0.5, lo: 0.4, hi: 0.6 }, difference: { mean: 0, lo: 0, hi: 0 } }),
        ev({ type: 'run/finished', commits: 0, candidates: 0, incumbentId: 'v0' }),
      ],
      { state: 'finished', kind: 'evaluate', line: 'test split: 0.500 (n = 40)' },
    ],
    ['a cancel', [proposed('v2'), ev({ type: 'run/cancelled' })], { state: 'cancelled', line: '0 tested · 0 committed' }],
    // Cancelled while a suggestion waited: nothing waits for the user any more.
    [
      'a cancel while c9 waited',
      [decided('c9', 'commit'), ev({ type: 'suggestion', candidateId: 'c9', file: 'f', baseText: 'a', newText: 'b' }), ev({ type: 'run/cancelled' })],
      { state: 'cancelled', tested: 1, commits: 1, line: '1 tested · 1 committed' },
    ],
  ])('%s', (_, events, expected) => {
    expect(fold(events)).toEqual({ runId, state: 'running', tested: 0, commits: 0, line: 'starting', ...expected });
  });

  it('a wait during a wait gives way to the run’s own line', () => {
    const s = fold([proposed('v2'), waiting('rate-limited', 5_000), waiting('rate-limited', 7_000)]);
    expect(s.wait).toEqual({ ms: 7_000, then: 'testing v2' });
    expect(endWait(s)).toEqual({ runId, state: 'running', tested: 0, commits: 0, line: 'testing v2' });
  });

  it('a line of its own ends the wait', () => {
    expect(fold([proposed('v2'), waiting('retry', 5_000), proposed('v3')])).toEqual({ runId, state: 'running', tested: 0, commits: 0, line: 'testing v3' });
  });

  it('returns the same status for events it does not show', () => {
    const s = fold([proposed('v2')]);
    for (const e of [ev({ type: 'log', level: 'info', message: 'x' }), ev({ type: 'verdict', candidateId: 'v2', parentId: 'v0', itemId: 'i1', order: 'child-first', winner: 'child' })]) {
      expect(foldStatus(s, e)).toBe(s);
    }
  });

  it('a resumed run goes on from the journal’s counts, whatever stopped it', () => {
    const journal = [decided('v1', 'commit'), decided('v2', 'reject'), ev({ type: 'run/failed', error: { code: 'llmHttp', message: 'HTTP 500' } })];
    expect(resumingStatus(runId, journal)).toEqual({ runId, state: 'running', tested: 2, commits: 1, line: '2 tested · 1 committed' });
    expect(fold([...journal, ev({ type: 'run/resumed', elapsedMs: 10 })])).toEqual(resumingStatus(runId, journal));
    expect(resumingStatus(runId, [])).toEqual(startingStatus(runId));
  });

  it('a run that stops without a terminal event ends failed with the error, or interrupted', () => {
    const s = fold([proposed('v2'), waiting('retry', 1_000)]);
    expect(endStatus(s, 'boom')).toEqual({ runId, state: 'failed', tested: 0, commits: 0, line: 'testing v2', error: 'boom' });
    expect(endStatus(s)).toEqual({ runId, state: 'interrupted', tested: 0, commits: 0, line: 'testing v2' });
    const finished = fold([ev({ type: 'run/finished', commits: 0, candidates: 0, incumbentId: undefined })]);
    expect(endStatus(finished, 'late')).toBe(finished);
    expect([isOver(s), isOver(finished)]).toEqual([false, true]);
  });
});

describe('foldStatus of a code search', () => {
  const started = ev({ type: 'run/started', info: { kind: 'search', target: 'solve.py', gate: 'pace', alpha: 0.05, mode: 'suggest', seed: 1 } });
  const child = (candidateId: string, parentId = 'p0') => ev({ type: 'candidate/proposed', candidateId, parentId, contentHash: 'h', text: 't' });
  const evaluated = (candidateId: string, score: number | undefined, correct = true) => ev({ type: 'program/evaluated', candidateId, island: 0, correct, instances: 4, ...(score === undefined ? {} : { score }) });
  const failed = (reason: 'format' | 'patch' | 'duplicate' | 'not-novel') => ev({ type: 'proposal/failed', parentId: 'p0', island: 0, kind: 'diff', attempt: 1, reason, message: 'm' });
  const seedEvaluated = [started, ev({ type: 'candidate/proposed', candidateId: 'p0', parentId: undefined, contentHash: 'h', text: 't' }), evaluated('p0', 0.5)];
  // What a search journals for one child: proposed, the gate's decision, then what the evaluator said.
  const tested = (candidateId: string, decision: 'commit' | 'reject', score: number | undefined, correct = true) => [child(candidateId), decided(candidateId, decision), evaluated(candidateId, score, correct)];

  it('is done with its own work once it waits only for the answer to its best: its progress offers no Cancel then', () => {
    const going = fold([...seedEvaluated, ...tested('p1', 'commit', 0.7)]);
    expect(isWorkDone(going)).toBe(false);
    expect(isWorkDone({ ...going, state: 'waiting-for-you' })).toBe(true);
    // A prompt run waiting for an answer still has candidates to test after it.
    expect(isWorkDone({ ...going, kind: 'evolve', state: 'waiting-for-you' })).toBe(false);
  });

  it('says it evaluates the starting program, then shows its score', () => {
    expect(fold([started, ev({ type: 'candidate/proposed', candidateId: 'p0', parentId: undefined, contentHash: 'h', text: 't' })]).line).toBe('evaluating the starting program');
    expect(fold(seedEvaluated)).toMatchObject({ kind: 'search', tested: 0, commits: 0, line: '0 programs tested · 0 committed · best 0.5 (start 0.5)' });
  });

  it('counts programs, and the best is a committed one: a rejected child’s higher score is not', () => {
    const s = fold([...seedEvaluated, ...tested('p1', 'reject', 0.9), ...tested('p2', 'commit', 0.6125), ...tested('p3', 'reject', undefined, false), ...tested('p4', 'commit', 0.55)]);
    expect(s).toMatchObject({ tested: 4, commits: 2, line: '4 programs tested · 2 committed · best 0.6125 (start 0.5)' });
    expect(s.search?.best).toEqual({ candidateId: 'p2', score: 0.6125 });
  });

  it('says one program in the singular', () => {
    expect(fold([...seedEvaluated, ...tested('p1', 'reject', 0.4)]).line).toBe('1 program tested · 0 committed · best 0.5 (start 0.5)');
  });

  it.each<['format' | 'patch' | 'duplicate' | 'not-novel', string]>([
    ['format', 'could not be read'],
    ['patch', 'did not apply'],
    ['duplicate', 'repeats a program'],
    ['not-novel', 'nearly repeats a program'],
  ])('a failed proposal (%s) says why, after the counts', (reason, words) => {
    expect(fold([...seedEvaluated, failed(reason)]).line).toBe(`0 programs tested · 0 committed · best 0.5 (start 0.5) · a proposal ${words}`);
  });

  it('meta notes and an evaluation’s items change nothing shown', () => {
    const s = fold([...seedEvaluated, child('p1')]);
    for (const e of [ev({ type: 'meta/notes', afterProgram: 'p1', recommendations: ['r'] }), ev({ type: 'item/evaluated', candidateId: 'p1', itemId: 'i', score: 1, cached: false })]) {
      expect(foldStatus(s, e)).toBe(s);
    }
  });

  it('ends on the best program the run names, with the counts its run/finished has', () => {
    // p2 beat p1 through the gate with a lower mean over the instances it used: p1 is no incumbent any more, and the run names p2.
    const journal = [...seedEvaluated, ...tested('p1', 'commit', 0.7), ...tested('p2', 'commit', 0.65), ev({ type: 'run/finished', commits: 2, candidates: 2, incumbentId: 'p2' })];
    const s = fold(journal);
    expect(s).toMatchObject({ state: 'finished', tested: 2, commits: 2, line: '2 programs tested · 2 committed · best 0.65 (start 0.5)' });
    expect(s.search?.best).toEqual({ candidateId: 'p2', score: 0.65 });
  });

  it('goes on running while its best waits in the editor; once done it waits for you, and the answer lets it end', () => {
    const offered = fold([...seedEvaluated, ...tested('p1', 'commit', 0.7), ev({ type: 'suggestion', candidateId: 'p1', file: 'solve.py', baseText: 'a', newText: 'b' })]);
    // It says the offer, and still runs: the next program's events bring the counts line back.
    expect(offered).toMatchObject({ state: 'running', line: 'p1, a new best, is in the editor for your Accept or Reject' });
    expect(fold([child('p2')], offered).state).toBe('running');
    const pushed: LiveRunStatus[] = [];
    const f = new StatusFeed(offered, (next) => pushed.push(next), new VirtualClock({ auto: false }));
    f.waitingForYou('p1');
    expect(pushed.at(-1)).toMatchObject({ state: 'waiting-for-you', line: 'the search is done; p1 waits for your Accept or Reject' });
    f.event(ev({ type: 'edit/applied', candidateId: 'p1', file: 'solve.py', by: 'user' }));
    expect(pushed.at(-1)).toMatchObject({ state: 'running', line: '1 program tested · 1 committed · best 0.7 (start 0.5)' });
  });

  it("on Slurm: the probe and an outage are the line while they last; the cluster answering again brings the run's line back, and task events change nothing shown", () => {
    const counted = fold([...seedEvaluated, ...tested('p1', 'reject', 0.4)]);
    const probing = foldStatus(counted, ev({ type: 'slurm/status', state: 'probing', message: 'probe job 7 checks that the nodes see /s/r1 and run node' }));
    expect(probing.line).toBe('probe job 7 checks that the nodes see /s/r1 and run node');
    const paused = foldStatus(counted, ev({ type: 'slurm/status', state: 'paused', message: 'Slurm does not answer (connect failure): submissions and polls are paused and retried with backoff', retryMs: 2000 }));
    expect(paused.line).toBe('Slurm paused: Slurm does not answer (connect failure): submissions and polls are paused and retried with backoff');
    expect(foldStatus(paused, ev({ type: 'slurm/status', state: 'resumed', message: 'Slurm answers again' })).line).toBe(counted.line);
    const task = ev({ type: 'slurm/task', jobId: '12', index: 0, key: 'k', attempt: 1, state: 'RUNNING' });
    expect(foldStatus(counted, task)).toBe(counted);
  });

  it('a resumed search keeps its kind and its scores', () => {
    const journal = [...seedEvaluated, ...tested('p1', 'commit', 0.75), ev({ type: 'run/failed', error: { code: 'llmHttp', message: 'HTTP 500' } })];
    const s = resumingStatus(runId, journal);
    expect(s).toMatchObject({ state: 'running', kind: 'search', tested: 1, commits: 1, line: '1 program tested · 1 committed · best 0.75 (start 0.5)' });
    expect(fold([...tested('p2', 'commit', 0.8)], s).line).toBe('2 programs tested · 2 committed · best 0.8 (start 0.5)');
  });
});

describe('foldStatus of a dev-set generation', () => {
  const started = ev({
    type: 'run/started',
    info: { kind: 'gen-data', target: 'x.prompt.md', gate: 'none', alpha: 0.05, mode: 'suggest', seed: 1, rounds: 2, estimate: { calls: 260, tokens: 196_200, unpriced: ['llama3.1'] } },
  });
  const round = (n: number, kept: number, heldOut: number) => ev({ ...zeroRound(n, { kept, heldOut }) });

  it('says the round under way, and first the estimate as the CLI prints it', () => {
    expect(fold([started])).toEqual({
      runId,
      state: 'running',
      tested: 0,
      commits: 0,
      kind: 'gen-data',
      generated: { rounds: 0, of: 2, dev: 0, test: 0 },
      line: 'round 1 of 2: writing and judging tasks · estimate ≈ 260 calls, ≈ 196.2k tok, cost unknown (model llama3.1 unpriced)',
    });
  });

  it('counts each round’s kept and held-out tasks, and ends saying what it wrote', () => {
    const one = fold([started, round(1, 3, 2)]);
    expect(one).toMatchObject({ generated: { rounds: 1, of: 2, dev: 3, test: 2 }, line: 'round 1 of 2 done: 3 kept, 2 held out · round 2 of 2: writing and judging tasks' });
    const two = fold([round(2, 4, 2)], one);
    expect(two.line).toBe('round 2 of 2 done: 4 kept, 2 held out');
    expect(fold([ev({ type: 'run/finished', commits: 0, candidates: 0, incumbentId: undefined })], two)).toMatchObject({
      state: 'finished',
      line: '7 dev tasks and 4 held-out from 2 rounds',
    });
  });

  it('a budget that stopped it before any round ended: nothing written', () => {
    expect(fold([started, ev({ type: 'run/finished', commits: 0, candidates: 0, incumbentId: undefined })]).line).toBe('no round finished: nothing written');
  });

  it('an evolve run without a dataset says what its round got, and goes on to its candidates', () => {
    const s = fold([ev({ type: 'run/started', info: { kind: 'evolve', target: 'x.prompt.md', gate: 'pace-rf', alpha: 0.05, mode: 'suggest', seed: 1 } }), round(1, 3, 2)]);
    expect(s.line).toBe('zero-data round 1: 3 kept, 2 held out');
    expect(s.generated).toBeUndefined();
    expect(fold([proposed('v1')], s).line).toBe('testing v1');
  });
});

describe('StatusFeed', () => {
  function feed() {
    const clock = new VirtualClock({ auto: false });
    const pushed: LiveRunStatus[] = [];
    return { clock, pushed, feed: new StatusFeed(startingStatus(runId), (s) => pushed.push(s), clock) };
  }
  const lines = (pushed: LiveRunStatus[]) => pushed.map((s) => s.line);

  it('pushes each change, in order, and nothing for events that change nothing', () => {
    const { pushed, feed: f } = feed();
    f.event(proposed('v1'));
    f.event(ev({ type: 'log', level: 'info', message: 'x' }));
    f.event(decided('v1', 'commit'));
    f.event(ev({ type: 'run/finished', commits: 1, candidates: 1, incumbentId: 'v1' }));
    f.end();
    expect(lines(pushed)).toEqual(['testing v1', '1 tested · 1 committed', '1 tested · 1 committed']);
    expect(pushed.map((s) => s.state)).toEqual(['running', 'running', 'finished']);
  });

  it('puts the run’s own line back when the wait is over', async () => {
    const { clock, pushed, feed: f } = feed();
    f.event(proposed('v2'));
    f.event(waiting('rate-limited', 12_000));
    await clock.untilPending();
    await clock.advance(11_999);
    expect(lines(pushed)).toEqual(['testing v2', 'rate limited, waiting 12 s']);
    await clock.advance(1);
    expect(lines(pushed)).toEqual(['testing v2', 'rate limited, waiting 12 s', 'testing v2']);
    expect(f.current).toEqual({ runId, state: 'running', tested: 0, commits: 0, line: 'testing v2' });
  });

  it('a status that moved on before the wait was over is left as it is', async () => {
    const { clock, pushed, feed: f } = feed();
    f.event(proposed('v2'));
    f.event(waiting('retry', 5_000));
    f.event(proposed('v3'));
    expect(clock.pending()).toBe(0);
    await clock.advance(10_000);
    expect(lines(pushed)).toEqual(['testing v2', 'retrying a failed call, waiting 5 s', 'testing v3']);
  });

  it('ends a run that stopped on its own error', () => {
    const { pushed, feed: f } = feed();
    f.event(proposed('v2'));
    f.end('The dataset is gone.');
    expect(pushed.at(-1)).toEqual({ runId, state: 'failed', tested: 0, commits: 0, line: 'testing v2', error: 'The dataset is gone.' });
  });
});
