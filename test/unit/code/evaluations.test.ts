// A search's evaluator runs shared across concurrent tests: two tests needing the same instances
// of one program share one run — its scores, its incorrect verdict, its failure — and a run stopped
// by the test that started it (its verdict reached) is run again by a test still waiting for it.
// Every evaluator call is parked until the test releases it, so nothing depends on timing.
import { describe, expect, it } from 'vitest';
import { scoreCache } from '../../../src/core/code/gate';
import { Evaluations } from '../../../src/core/code/evaluations';
import type { ProgramEvaluation, ProgramEvaluator } from '../../../src/core/code/evaluations';
import { textHash } from '../../../src/core/code/novelty';
import { RatchetError } from '../../../src/core/errors';
import { until } from '../../until';

const TEXT = 'x = 0.5\n';
const PROGRAM = { id: 'p1', hash: textHash(TEXT) };

/** An evaluator whose calls wait until the test settles them; a call whose signal aborts rejects as cancelled. */
function parkedEvaluator() {
  const calls: { ids: readonly string[] | undefined; resolve: (r: ProgramEvaluation) => void; reject: (err: unknown) => void }[] = [];
  const evaluate: ProgramEvaluator = (_text, ids, signal) =>
    new Promise<ProgramEvaluation>((resolve, reject) => {
      calls.push({ ids, resolve, reject });
      signal.addEventListener('abort', () => reject(new RatchetError('cancelled', 'The evaluation was stopped.')), { once: true });
    });
  return { evaluate, calls };
}

function evaluations(evaluate: ProgramEvaluator, limit?: number) {
  const cache = scoreCache();
  return { cache, shared: new Evaluations({ evaluate, slots: 4, limit, whole: false, texts: new Map([[PROGRAM.id, TEXT]]), cache }) };
}

const scored = (ids: readonly string[] | undefined, score: number): ProgramEvaluation => ({ correct: true, instances: Object.fromEntries((ids ?? []).map((id) => [id, score])) });

describe('evaluations shared across concurrent tests', () => {
  it('two tests of one program on the same instances share one evaluator run and its scores', async () => {
    const fake = parkedEvaluator();
    const { shared, cache } = evaluations(fake.evaluate);
    const evaluate = shared.shardEvaluator();
    const first = evaluate(PROGRAM, ['a', 'b'], new AbortController().signal);
    const second = evaluate(PROGRAM, ['a', 'b'], new AbortController().signal);
    await until('the first test to start its run', () => fake.calls.length === 1);
    fake.calls[0]!.resolve(scored(fake.calls[0]!.ids, 0.7));
    const expected = { correct: true, scores: { a: 0.7, b: 0.7 } };
    expect(await first).toEqual(expected);
    expect(await second).toEqual(expected);
    expect(fake.calls).toHaveLength(1);
    expect(shared.count).toBe(1);
    expect(cache.get(PROGRAM.hash, 'a')).toBe(0.7);
  });

  it('a test needing more instances waits for the shared ones and runs only the rest', async () => {
    const fake = parkedEvaluator();
    const { shared } = evaluations(fake.evaluate);
    const evaluate = shared.shardEvaluator();
    const first = evaluate(PROGRAM, ['a'], new AbortController().signal);
    await until('the first run', () => fake.calls.length === 1);
    const second = evaluate(PROGRAM, ['a', 'b'], new AbortController().signal);
    await until('the second run', () => fake.calls.length === 2);
    expect(fake.calls.map((c) => c.ids)).toEqual([['a'], ['b']]);
    fake.calls[1]!.resolve(scored(['b'], 0.2));
    fake.calls[0]!.resolve(scored(['a'], 0.9));
    expect(await first).toEqual({ correct: true, scores: { a: 0.9 } });
    expect(await second).toEqual({ correct: true, scores: { a: 0.9, b: 0.2 } });
  });

  it('an incorrect verdict is shared: both tests read it from the one run', async () => {
    const fake = parkedEvaluator();
    const { shared } = evaluations(fake.evaluate);
    const evaluate = shared.shardEvaluator();
    const first = evaluate(PROGRAM, ['a'], new AbortController().signal);
    const second = evaluate(PROGRAM, ['a'], new AbortController().signal);
    await until('the run', () => fake.calls.length === 1);
    fake.calls[0]!.resolve({ correct: false, error: 'IndexError', output: 'Traceback …' });
    expect(await first).toEqual({ correct: false, error: 'IndexError' });
    expect(await second).toEqual({ correct: false, error: 'IndexError' });
    expect(fake.calls).toHaveLength(1);
    expect(shared.outputOf(PROGRAM.hash)).toBe('Traceback …');
  });

  it('a failed run fails every test that waited for it, and is not run again', async () => {
    const fake = parkedEvaluator();
    const { shared } = evaluations(fake.evaluate);
    const evaluate = shared.shardEvaluator();
    const first = evaluate(PROGRAM, ['a'], new AbortController().signal);
    const second = evaluate(PROGRAM, ['a'], new AbortController().signal);
    await until('the run', () => fake.calls.length === 1);
    const failure = new RatchetError('internal', 'The sandbox broke.');
    fake.calls[0]!.reject(failure);
    await expect(first).rejects.toBe(failure);
    await expect(second).rejects.toBe(failure);
    expect(fake.calls).toHaveLength(1);
  });

  it('a run its own test cancels (verdict reached) is run again for a test still waiting on it', async () => {
    const fake = parkedEvaluator();
    const { shared } = evaluations(fake.evaluate);
    const evaluate = shared.shardEvaluator();
    const decided = new AbortController();
    const first = evaluate(PROGRAM, ['a'], decided.signal);
    const second = evaluate(PROGRAM, ['a'], new AbortController().signal);
    await until('the first run', () => fake.calls.length === 1);
    decided.abort(new RatchetError('cancelled', 'The test reached its verdict.'));
    await expect(first).rejects.toMatchObject({ code: 'cancelled' });
    await until('the waiting test to run it itself', () => fake.calls.length === 2);
    fake.calls[1]!.resolve(scored(['a'], 0.4));
    expect(await second).toEqual({ correct: true, scores: { a: 0.4 } });
    expect(shared.count).toBe(2);
  });

  it('a test cancelled itself stops waiting, and no run is started for it again', async () => {
    const fake = parkedEvaluator();
    const { shared } = evaluations(fake.evaluate);
    const cancelled = new AbortController();
    const running = shared.shardEvaluator()(PROGRAM, ['a'], cancelled.signal);
    await until('the run', () => fake.calls.length === 1);
    cancelled.abort(new RatchetError('cancelled', 'The run was cancelled.'));
    await expect(running).rejects.toMatchObject({ code: 'cancelled' });
    expect(fake.calls).toHaveLength(1);
  });

  it('the evaluation budget refuses a run before it starts, counting the runs in flight', async () => {
    const fake = parkedEvaluator();
    const { shared } = evaluations(fake.evaluate, 1);
    const evaluate = shared.shardEvaluator();
    const first = evaluate(PROGRAM, ['a'], new AbortController().signal);
    await until('the first run', () => fake.calls.length === 1);
    await expect(evaluate(PROGRAM, ['b'], new AbortController().signal)).rejects.toMatchObject({ code: 'budgetExhausted' });
    expect(fake.calls).toHaveLength(1);
    fake.calls[0]!.resolve(scored(['a'], 0.5));
    expect(await first).toEqual({ correct: true, scores: { a: 0.5 } });
  });
});
