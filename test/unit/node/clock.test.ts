import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { SystemClock } from '../../../src/node/clock';

const clock = new SystemClock();

describe('SystemClock', () => {
  it('tells the time and sleeps', async () => {
    const before = clock.now();
    await clock.sleep(5);
    expect(clock.now()).toBeGreaterThanOrEqual(before);
  });

  it('stops sleeping when the signal aborts, with a cancelled RatchetError', async () => {
    const ac = new AbortController();
    const sleeping = clock.sleep(10 * 60_000, ac.signal);
    ac.abort();
    const err = await sleeping.catch((e: unknown) => e);
    expect(RatchetError.is(err, 'cancelled')).toBe(true);
    expect((err as Error).message).toBe('Cancelled the wait.');
  });

  it('rejects at once for an already-aborted signal', async () => {
    await expect(clock.sleep(10 * 60_000, AbortSignal.abort())).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('passes a RatchetError reason through unchanged', async () => {
    const reason = new RatchetError('llmTimeout', 'The call took longer than 30 s.');
    const ac = new AbortController();
    const sleeping = clock.sleep(10 * 60_000, ac.signal);
    ac.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
  });
});
