// The best program of a code search offered to the user, over a real in-process search (the
// searchWorld's proposer and evaluator). The user is a fake control that parks every question
// until the test answers it, so the races — a newer best while one waits, Cancel while the done
// search waits — are held open rather than timed.
import { describe, expect, it } from 'vitest';
import { BestOffer } from '../../../src/core/code/bestOffer';
import { frozenSegments, parseBlocks } from '../../../src/core/code/blocks';
import { runSearch } from '../../../src/core/code/search';
import { isCancellation, RatchetError } from '../../../src/core/errors';
import type { EngineEvent } from '../../../src/core/journal/events';
import { SeededRandom } from '../../../src/core/random';
import { SEED_PROGRAM, evaluator, proposer, spec } from './searchWorld';
import type { RunControl, Suggestion } from '../../../src/core/journal/control';

interface Question {
  suggestion: Suggestion;
  signal: AbortSignal;
  answer: (a: 'accept' | 'reject') => void;
}

/** The user: questions wait in `asked` until answered; writes answer `outcomes` in turn (then 'applied'). */
function parkedUser(outcomes: ('applied' | 'stale')[] = []) {
  const asked: Question[] = [];
  const written: { suggestion: Suggestion; by: 'autopilot' | 'user' }[] = [];
  const control: RunControl = {
    decide: (suggestion, signal) =>
      new Promise((resolve, reject) => {
        asked.push({ suggestion, signal, answer: resolve });
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
    apply: async (suggestion, by) => {
      written.push({ suggestion, by });
      return outcomes.shift() ?? 'applied';
    },
  };
  return { control, asked, written };
}

function offeredSearch(mode: 'suggest' | 'autopilot', control: RunControl) {
  const events: EngineEvent[] = [];
  const emit = async (e: Omit<EngineEvent, 'runId' | 'at'>) => void events.push({ ...e, runId: 'r', at: 0 } as EngineEvent);
  const controller = new AbortController();
  let waiting: (id: string) => void = () => undefined;
  const done = new Promise<string>((resolve) => (waiting = resolve));
  const offer = new BestOffer({ file: 'solve.mjs', startText: SEED_PROGRAM, mode, control, emit, signal: controller.signal, onWaiting: (id) => waiting(id) });
  const run = runSearch({
    spec: spec('pace+', 40),
    seedText: SEED_PROGRAM,
    llm: proposer(3, false),
    evaluate: evaluator(3).evaluate,
    random: new SeededRandom(3),
    emit,
    signal: controller.signal,
    committed: offer,
  });
  return { events, run, controller, waitingFor: done };
}

const of = <T extends EngineEvent['type']>(events: EngineEvent[], type: T) => events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);
const frozen = (text: string) => frozenSegments(text, parseBlocks(text));
const committedScores = (events: EngineEvent[]) => {
  const commits = new Set(of(events, 'decision').flatMap((e) => (e.record.decision === 'commit' ? [e.record.candidateId] : [])));
  return new Map(of(events, 'program/evaluated').flatMap((e) => (commits.has(e.candidateId) && e.score !== undefined ? [[e.candidateId, e.score] as const] : [])));
};

describe('the best program of a code search, offered', () => {
  it('keeps searching while a best waits, withdraws it for a newer best, and waits for the last answer before it finishes', async () => {
    const user = parkedUser();
    const { events, run, waitingFor } = offeredSearch('suggest', user.control);
    const last = await waitingFor;

    const suggestions = of(events, 'suggestion');
    expect(suggestions.length).toBeGreaterThan(1);
    // The search went on after its first suggestion: later children were proposed and decided.
    const first = events.indexOf(suggestions[0]!);
    expect(events.slice(first).some((e) => e.type === 'decision')).toBe(true);
    // Each suggestion is a new run-wide best, the whole program, frozen text intact, based on the start text (nothing accepted yet).
    const scores = committedScores(events);
    const offered = suggestions.map((s) => scores.get(s.candidateId)!);
    expect(offered).toEqual([...offered].sort((a, b) => a - b));
    expect(new Set(offered).size).toBe(offered.length);
    expect(Math.max(...scores.values())).toBe(offered.at(-1));
    for (const s of suggestions) {
      expect(s.baseText).toBe(SEED_PROGRAM);
      expect(frozen(s.newText)).toEqual(frozen(SEED_PROGRAM));
    }
    // Every older one was withdrawn, its question aborted, and the journal says so.
    expect(of(events, 'edit/rejected')).toEqual(
      suggestions.slice(0, -1).map((s, i) => expect.objectContaining({ candidateId: s.candidateId, by: 'run', reason: 'superseded', why: expect.stringContaining(suggestions[i + 1]!.candidateId) })),
    );
    expect(user.asked.map((q) => q.signal.aborted)).toEqual([...suggestions.slice(0, -1).map(() => true), false]);
    expect(last).toBe(suggestions.at(-1)!.candidateId);
    expect(of(events, 'run/finished')).toEqual([]);

    user.asked.at(-1)!.answer('accept');
    const outcome = await run;
    expect(user.written).toEqual([{ suggestion: expect.objectContaining({ candidateId: last }), by: 'user' }]);
    expect(events.slice(-2).map((e) => e.type)).toEqual(['edit/applied', 'run/finished']);
    expect(events.at(-2)).toEqual(expect.objectContaining({ candidateId: last, by: 'user' }));
    expect(outcome.commits).toBeGreaterThan(1);
  });

  it('Cancel while the done search waits for an answer ends the run at once, writing nothing', async () => {
    const user = parkedUser();
    const { events, run, controller, waitingFor } = offeredSearch('suggest', user.control);
    await waitingFor;
    controller.abort(new RatchetError('cancelled', 'Cancelled by the user.'));
    const error = await run.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isCancellation(error)).toBe(true);
    expect(user.asked.at(-1)!.signal.aborted).toBe(true);
    expect(user.written).toEqual([]);
    expect(events.filter((e) => e.type === 'edit/applied' || e.type === 'run/finished')).toEqual([]);
  });

  it('a Reject keeps the file as it was: the next best is based on the start text again', async () => {
    const user = parkedUser();
    const { events, run, waitingFor } = offeredSearch('suggest', user.control);
    await waitingFor;
    user.asked.at(-1)!.answer('reject');
    await run;
    const last = of(events, 'suggestion').at(-1)!;
    expect(events.slice(-2)).toEqual([expect.objectContaining({ type: 'edit/rejected', candidateId: last.candidateId, by: 'user' }), expect.objectContaining({ type: 'run/finished' })]);
    expect(user.written).toEqual([]);
  });

  it('autopilot writes each new best without asking; a stale file is not written over and the search goes on', async () => {
    // The first best finds the file changed; the later ones are written, each over the one before.
    const user = parkedUser(['stale']);
    const { events, run } = offeredSearch('autopilot', user.control);
    await run;
    expect(user.asked).toEqual([]);
    expect(of(events, 'suggestion')).toEqual([]);
    const [stale, ...landed] = user.written;
    expect(landed.length).toBeGreaterThan(0);
    expect(of(events, 'edit/rejected')).toEqual([expect.objectContaining({ candidateId: stale!.suggestion.candidateId, by: 'run', reason: 'stale' })]);
    expect(of(events, 'edit/applied')).toEqual(landed.map((w) => expect.objectContaining({ candidateId: w.suggestion.candidateId, by: 'autopilot' })));
    expect(landed.map((w) => w.suggestion.baseText)).toEqual([SEED_PROGRAM, ...landed.slice(0, -1).map((w) => w.suggestion.newText)]);
    for (const w of user.written) expect(frozen(w.suggestion.newText)).toEqual(frozen(SEED_PROGRAM));
    expect(events.at(-1)?.type).toBe('run/finished');
  });
});
