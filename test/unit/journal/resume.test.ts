// A resumed run re-executes and checks the journal event by event; endpoint-dependent events
// (rate-limit waits, resume markers, an earlier endpoint failure) take no part in that check.
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src/core/journal/events';
import { activeElapsedMs, replayingControl, replayingEmitter } from '../../../src/core/journal/resume';
import type { RunControl, Suggestion } from '../../../src/core/journal/control';

const at = (t: number) => ({ runId: 'r', at: t });
const proposed = (id: string, t: number): EngineEvent => ({ type: 'candidate/proposed', candidateId: id, parentId: undefined, contentHash: id, text: id, ...at(t) });
const waiting = (t: number): EngineEvent => ({ type: 'llm/waiting', role: 'agent', model: 'm', why: 'rate-limited', waitMs: 1000, message: '429', ...at(t) });
const failed = (code: string, t: number): EngineEvent => ({ type: 'run/failed', error: { code, message: 'down' }, ...at(t) });

describe('replayingEmitter', () => {
  it('checks the journaled events and writes only what comes after them, ignoring waits on both sides', async () => {
    const written: EngineEvent[] = [];
    const journal = [proposed('v0', 1), waiting(2), proposed('c1', 3), failed('llmNetwork', 4)];
    const { emit, replaying } = replayingEmitter('r', journal, async (e) => void written.push(e));
    expect(replaying()).toBe(true);
    await emit(proposed('v0', 10));
    await emit(proposed('c1', 11));
    expect(replaying()).toBe(false);
    await emit(proposed('c2', 12));
    expect(written.map((e) => (e.type === 'candidate/proposed' ? e.candidateId : e.type))).toEqual(['c2']);
  });

  it('says where a replay diverged', async () => {
    const { emit } = replayingEmitter('r', [proposed('v0', 1), proposed('c1', 2)], async () => undefined);
    await emit(proposed('v0', 10));
    await expect(emit(proposed('c9', 11))).rejects.toThrow(/diverged at event 2 \(journal: candidate\/proposed, now: candidate\/proposed\)/);
  });

  it("writes a run that ends before it reaches its journal's end (the endpoint still down) instead of calling it diverged", async () => {
    const written: EngineEvent[] = [];
    const { emit } = replayingEmitter('r', [proposed('v0', 1), proposed('c1', 2)], async (e) => void written.push(e));
    await emit(proposed('v0', 10));
    await emit(failed('llmHttp', 11));
    expect(written.map((e) => e.type)).toEqual(['run/failed']);
  });
});

describe('activeElapsedMs', () => {
  it("sums each process's span and leaves out the time the run lay interrupted", () => {
    const events: EngineEvent[] = [
      proposed('v0', 1000),
      proposed('c1', 5000), // first process: 4 s
      { type: 'run/resumed', elapsedMs: 4000, ...at(100_000) },
      proposed('c2', 103_000), // second: 3 s
      { type: 'run/resumed', elapsedMs: 7000, ...at(500_000) },
    ];
    expect(activeElapsedMs(events)).toBe(7000);
    expect(activeElapsedMs([])).toBe(0);
  });
});

describe('replayingControl', () => {
  const suggestion = (id: string): Suggestion => ({ candidateId: id, file: 'f.js', baseText: 'a', newText: id });
  const edit = (e: { type: 'edit/applied' | 'edit/rejected'; by: 'user' | 'run' | 'autopilot'; reason?: 'superseded' | 'stale' }, id: string) => ({ ...e, candidateId: id, file: 'f.js', ...at(1) }) as EngineEvent;

  it("gives the journal's answers again and asks only about what it has none for", async () => {
    const asked: string[] = [];
    const written: string[] = [];
    const user: RunControl = {
      decide: async (s) => (asked.push(s.candidateId), 'accept'),
      apply: async (s) => (written.push(s.candidateId), 'applied'),
    };
    const control = replayingControl(user, [
      edit({ type: 'edit/applied', by: 'user' }, 'p3'),
      edit({ type: 'edit/rejected', by: 'user' }, 'p5'),
      edit({ type: 'edit/rejected', by: 'run', reason: 'stale' }, 'p7'),
      edit({ type: 'edit/applied', by: 'autopilot' }, 'p8'),
    ]);
    const signal = new AbortController().signal;
    expect(await Promise.all(['p3', 'p5', 'p7', 'p9'].map((id) => control.decide(suggestion(id), signal)))).toEqual(['accept', 'reject', 'accept', 'accept']);
    expect(await Promise.all(['p3', 'p7', 'p8', 'p9'].map((id) => control.apply(suggestion(id), 'user')))).toEqual(['applied', 'stale', 'applied', 'applied']);
    expect({ asked, written }).toEqual({ asked: ['p9'], written: ['p9'] });
  });

  it('a suggestion a newer best withdrew is not asked again: it waits to be withdrawn again', async () => {
    const asked: string[] = [];
    const control = replayingControl({ decide: async (s) => (asked.push(s.candidateId), 'accept'), apply: async () => 'applied' }, [edit({ type: 'edit/rejected', by: 'run', reason: 'superseded' }, 'p4')]);
    const withdraw = new AbortController();
    const answer = control.decide(suggestion('p4'), withdraw.signal);
    withdraw.abort(new Error('superseded by p6'));
    await expect(answer).rejects.toThrow('superseded by p6');
    expect(asked).toEqual([]);
  });
});
