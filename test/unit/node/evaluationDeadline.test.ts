// A code search's wall-time budget stops evaluations still going when it ends, on either backend:
// a local evaluation's signal is aborted (the sandbox kills its process group), and so is a Slurm
// batch's (the backend cancels its tasks on the cluster). The evaluators here never finish on their
// own: only the deadline can end them, so nothing depends on how fast the machine is.
import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import type { ProgramBatchEvaluator, ProgramEvaluation, ProgramEvaluator } from '../../../src/core/code/evaluations';
import { batchWithinWallTime, withinWallTime } from '../../../src/node/runs/evaluationDeadline';
import { SystemClock } from '../../../src/node/clock';

const clock = new SystemClock();
const untilAborted = (signal: AbortSignal): Promise<ProgramEvaluation> => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new RatchetError('cancelled', 'stopped by its signal')), { once: true }));

describe('the wall-time budget over evaluations', () => {
  it('stops a running local evaluation at the deadline with the budget refusal', async () => {
    const seen: AbortSignal[] = [];
    const evaluate: ProgramEvaluator = (_text, _ids, signal) => {
      seen.push(signal);
      return untilAborted(signal);
    };
    const bounded = withinWallTime(evaluate, { deadline: () => Date.now() + 30 }, 1, clock);
    await expect(bounded('p', undefined, new AbortController().signal)).rejects.toMatchObject({ code: 'budgetExhausted' });
    expect(seen[0]!.aborted).toBe(true);
  });

  it('stops every task of a Slurm batch at the deadline, and each evaluation fails with the refusal', async () => {
    const seen: AbortSignal[] = [];
    const evaluateShards: ProgramBatchEvaluator = (_text, shards, signal) => {
      seen.push(signal);
      return shards.map(() => untilAborted(signal));
    };
    const bounded = batchWithinWallTime(evaluateShards, { deadline: () => Date.now() + 30 }, 1, clock);
    const results = await Promise.allSettled(bounded('p', [['a'], ['b']], new AbortController().signal));
    expect(results.map((r) => r.status === 'rejected' && (r.reason as RatchetError).code)).toEqual(['budgetExhausted', 'budgetExhausted']);
    expect(seen[0]!.aborted).toBe(true);
  });

  it('starts nothing once the budget is spent; a cancel is still a cancel', async () => {
    let started = 0;
    const evaluateShards: ProgramBatchEvaluator = (_text, shards, signal) => {
      started += signal.aborted ? 0 : 1;
      return shards.map(() => untilAborted(signal));
    };
    const spent = batchWithinWallTime(evaluateShards, { deadline: () => Date.now() - 1 }, 1, clock);
    await expect(spent('p', [['a']], new AbortController().signal)[0]).rejects.toMatchObject({ code: 'budgetExhausted' });
    expect(started).toBe(0);
    const cancel = new AbortController();
    const later = batchWithinWallTime(evaluateShards, { deadline: () => Date.now() + 60_000 }, 1, clock)('p', [['a']], cancel.signal);
    cancel.abort(new RatchetError('cancelled', 'Cancelled by the user.'));
    await expect(later[0]).rejects.toMatchObject({ code: 'cancelled' });
  });
});
