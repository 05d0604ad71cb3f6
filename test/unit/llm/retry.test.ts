import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { backoffDelayMs, isRetryable, parseRetryAfter, withRetries } from '../../../src/core/llm/retry';
import { SeededRandom } from '../../../src/core/random';
import { VirtualClock, constantRandom } from '../../fixtures/llmPorts';

const policy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 };
const http = (status: number, retryAfterMs?: number) =>
  new RatchetError('llmHttp', `status ${status}`, retryAfterMs === undefined ? { status } : { status, retryAfterMs });

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    ['3', 3000],
    ['0', 0],
    [' 1.5 ', 1500],
    ['Wed, 01 Jan 2025 00:00:07 GMT', 7000],
    ['Tue, 31 Dec 2024 23:59:00 GMT', 0],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
    ['-5', undefined],
  ])('reads %j as %j ms', (header, ms) => {
    expect(parseRetryAfter(header, now)).toBe(ms);
  });
});

describe('isRetryable', () => {
  it.each([
    [http(429), true],
    [http(408), true],
    [http(500), true],
    [http(503), true],
    [http(400), false],
    [http(401), false],
    [http(404), false],
    [http(409), false],
    [http(422), false],
    [new RatchetError('llmNetwork', 'x'), true],
    [new RatchetError('llmTimeout', 'x'), true],
    [new RatchetError('llmMalformed', 'x'), true],
    [new RatchetError('cancelled', 'x'), false],
    [new RatchetError('badInput', 'x'), false],
    [new Error('plain'), false],
  ])('%s → %s', (err, expected) => {
    expect(isRetryable(err)).toBe(expected);
  });
});

describe('backoffDelayMs', () => {
  it('doubles its cap each retry up to maxDelayMs (full jitter draws up to the cap)', () => {
    const top = constantRandom(0.999999);
    expect([0, 1, 2, 3, 4, 5].map((r) => backoffDelayMs(r, policy, top))).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffDelayMs(3, policy, constantRandom(0))).toBe(0);
  });

  it('spreads delays uniformly below the cap', () => {
    const rng = new SeededRandom(7);
    const draws = Array.from({ length: 4000 }, () => backoffDelayMs(2, policy, rng));
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(400);
    // Uniform on [0, 400): mean 200, standard error 400/sqrt(12·4000) ≈ 1.8; ±10 is > 5 SE.
    expect(Math.abs(mean - 200)).toBeLessThan(10);
  });

  it('never waits less than Retry-After, even above maxDelayMs', () => {
    expect(backoffDelayMs(0, policy, constantRandom(0), 2500)).toBe(2500);
    expect(backoffDelayMs(3, policy, constantRandom(0.999999), 10)).toBe(799);
  });
});

describe('withRetries', () => {
  it('retries transient failures and waits at least Retry-After', async () => {
    const clock = new VirtualClock();
    const errors = [http(429, 5000), http(503)];
    let attempts = 0;
    const result = await withRetries(
      async () => {
        attempts++;
        const err = errors.shift();
        if (err) throw err;
        return 'ok';
      },
      { policy, clock, random: constantRandom(0.5), signal: new AbortController().signal },
    );
    expect(result).toBe('ok');
    expect(attempts).toBe(3);
    expect(clock.sleeps).toEqual([5000, 100]);
  });

  it('does not retry a 400 and surfaces it unchanged', async () => {
    const clock = new VirtualClock();
    const err = http(400);
    let attempts = 0;
    const run = withRetries(
      async () => {
        attempts++;
        throw err;
      },
      { policy, clock, random: constantRandom(0.5), signal: new AbortController().signal },
    );
    await expect(run).rejects.toBe(err);
    expect(attempts).toBe(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('gives up after maxRetries with the last failure\'s code and the attempt count', async () => {
    const clock = new VirtualClock();
    const run = withRetries(
      async () => {
        throw new RatchetError('llmMalformed', 'The endpoint sent bad JSON.', { status: 200 });
      },
      { policy, clock, random: constantRandom(0), signal: new AbortController().signal },
    );
    const err = await run.catch((e: unknown) => e);
    expect(RatchetError.is(err, 'llmMalformed')).toBe(true);
    expect((err as RatchetError).details).toEqual({ status: 200, attempts: 4 });
    expect((err as RatchetError).message).toBe('After 4 attempts: The endpoint sent bad JSON.');
  });

  it('rejects with cancelled while sleeping in backoff', async () => {
    const clock = new VirtualClock({ auto: false });
    const ac = new AbortController();
    const run = withRetries(
      async () => {
        throw http(500);
      },
      { policy: { ...policy, baseDelayMs: 60_000, maxDelayMs: 60_000 }, clock, random: constantRandom(0.9), signal: ac.signal },
    );
    await clock.untilPending();
    ac.abort();
    const err = await run.catch((e: unknown) => e);
    expect(RatchetError.is(err, 'cancelled')).toBe(true);
    expect(clock.pending()).toBe(0);
  });
});
