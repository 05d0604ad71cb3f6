import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { DEFAULT_RETRY, backoffDelayMs, classifyFailure, formatWait, isRetryable, parseRetryAfter, withRetries } from '../../../src/core/llm/retry';
import type { RetryContext, RetryInfo } from '../../../src/core/llm/retry';
import { SeededRandom } from '../../../src/core/random';
import { VirtualClock, constantRandom } from '../../fixtures/llmPorts';

const policy = { ...DEFAULT_RETRY, maxFailures: 4, baseDelayMs: 100, maxDelayMs: 1000 };
const http = (status: number, retryAfterMs?: number) => new RatchetError('llmHttp', `status ${status}`, retryAfterMs === undefined ? { status } : { status, retryAfterMs });

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

describe('classifyFailure', () => {
  it.each([
    [http(429), 'rate-limited'],
    [http(429, 2000), 'rate-limited'],
    [http(503, 2000), 'rate-limited'],
    [http(503), 'failure'],
    [http(500, 2000), 'failure'],
    [http(502), 'failure'],
    [http(408), 'failure'],
    [new RatchetError('llmTimeout', 'x'), 'failure'],
    [new RatchetError('llmNetwork', 'x'), 'failure'],
    [new RatchetError('llmMalformed', 'x'), 'failure'],
    [http(400), 'fatal'],
    [new RatchetError('budgetExhausted', 'x'), 'fatal'],
    [new RatchetError('cancelled', 'x'), 'fatal'],
  ])('%s → %s', (err, expected) => {
    expect(classifyFailure(err)).toBe(expected);
  });
});

describe('formatWait', () => {
  it.each([
    [5, '5 ms'],
    [999, '999 ms'],
    [1000, '1 s'],
    [11_200, '12 s'],
    [119_000, '119 s'],
    [125_000, '2 min 5 s'],
    [3_600_000, '60 min'],
  ])('%d ms reads %s', (ms, text) => {
    expect(formatWait(ms)).toBe(text);
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

/** Runs withRetries over a script of failures (then 'ok'), recording attempts and waits. */
async function script(errors: RatchetError[], ctx: Partial<Omit<RetryContext, 'clock'>> & { clock?: VirtualClock } = {}) {
  const clock = ctx.clock ?? new VirtualClock();
  const waits: RetryInfo[] = [];
  let attempts = 0;
  const queue = [...errors];
  const run = withRetries(
    async () => {
      attempts++;
      const err = queue.shift();
      if (err) throw err;
      return 'ok';
    },
    { policy, clock, random: constantRandom(0.5), signal: new AbortController().signal, onRetry: (w) => waits.push(w), ...ctx },
  );
  const result = await run.catch((e: unknown) => e);
  return { result, attempts: () => attempts, waits, clock };
}

describe('withRetries', () => {
  it('waits exactly the Retry-After of a 429, and backs off a 503 without one', async () => {
    const { result, attempts, waits } = await script([http(429, 5000), http(503)]);
    expect(result).toBe('ok');
    expect(attempts()).toBe(3);
    expect(waits.map((w) => [w.why, w.delayMs])).toEqual([
      ['rate-limited', 5000],
      ['retry', 50],
    ]);
  });

  it('rides out a storm of 20 rate limits in a row without giving up', async () => {
    const storm = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? http(429, 2000) : http(503, 1000)));
    const { result, attempts, waits } = await script(storm);
    expect(result).toBe('ok');
    expect(attempts()).toBe(21);
    expect(waits.every((w) => w.why === 'rate-limited')).toBe(true);
  });

  it('backs off a 429 without Retry-After, still as a rate limit', async () => {
    const { result, waits } = await script([http(429), http(429), http(429)]);
    expect(result).toBe('ok');
    // Full jitter at a draw of 0.5: half of 100, 200, 400.
    expect(waits.map((w) => [w.why, w.delayMs])).toEqual([
      ['rate-limited', 50],
      ['rate-limited', 100],
      ['rate-limited', 200],
    ]);
  });

  it("gives up at maxFailures real failures in a row, with the last failure's code and the attempt count", async () => {
    const { result, attempts } = await script(
      Array.from({ length: 5 }, () => http(500)),
      { policy: { ...policy, maxFailures: 5 } },
    );
    expect(attempts()).toBe(5);
    expect(RatchetError.is(result, 'llmHttp')).toBe(true);
    expect((result as RatchetError).details).toEqual({ status: 500, attempts: 5 });
    expect((result as RatchetError).message).toBe('After 5 attempts: status 500');
  });

  it("keeps a malformed answer's code and details when it gives up", async () => {
    const bad = () => new RatchetError('llmMalformed', 'The endpoint sent bad JSON.', { status: 200 });
    const { result } = await script([bad(), bad(), bad(), bad()], { random: constantRandom(0) });
    expect(RatchetError.is(result, 'llmMalformed')).toBe(true);
    expect((result as RatchetError).details).toEqual({ status: 200, attempts: 4 });
    expect((result as RatchetError).message).toBe('After 4 attempts: The endpoint sent bad JSON.');
  });

  it('counts failures across rate limits: a 429 in between neither adds to the count nor resets it', async () => {
    // maxFailures 4: four 500s end the call, however many 429s come between them.
    const errors = [http(500), http(429, 10), http(500), http(429, 10), http(429, 10), http(500), http(500), http(500)];
    const { result, attempts } = await script(errors);
    expect(attempts()).toBe(7);
    expect((result as RatchetError).message).toBe('After 7 attempts: status 500');
    const fewer = await script([http(500), http(429, 10), http(500), http(429, 10), http(500)]);
    expect(fewer.result).toBe('ok');
  });

  it('does not retry a 400 and surfaces it unchanged', async () => {
    const err = http(400);
    const { result, attempts, waits } = await script([err]);
    expect(result).toBe(err);
    expect(attempts()).toBe(1);
    expect(waits).toEqual([]);
  });

  it('waits at most maxWaitMs for a Retry-After of an hour, says so, then asks again', async () => {
    const { result, waits, clock } = await script([http(429, 3_600_000)]);
    expect(result).toBe('ok');
    expect(clock.sleeps).toEqual([60_000]);
    expect(waits[0]).toMatchObject({ why: 'rate-limited', delayMs: 60_000, askedMs: 3_600_000 });
  });

  it('caps a Retry-After on a real failure too', async () => {
    const { waits } = await script([http(500, 3_600_000)]);
    expect(waits.map((w) => [w.why, w.delayMs])).toEqual([['retry', 60_000]]);
  });

  it('gives up on an endpoint that rate-limits longer than maxRateLimitedMs in all', async () => {
    const always = Array.from({ length: 100 }, () => http(429, 60_000));
    const { result, attempts } = await script(always, { policy: { ...policy, maxRateLimitedMs: 5 * 60_000 } });
    // Five waits of a minute fill the five minutes; the sixth 429 ends the call.
    expect(attempts()).toBe(6);
    expect(RatchetError.is(result, 'llmHttp')).toBe(true);
    expect((result as RatchetError).message).toBe('After 6 attempts over 5 min of rate limiting: status 429');
  });

  it('fails at once with budgetExhausted when a wait would end past the wall-time deadline', async () => {
    const clock = new VirtualClock();
    const deadline = clock.now() + 10_000;
    const { result, attempts, waits } = await script([http(429, 2000), http(429, 30_000)], { clock, deadline: () => deadline });
    expect(attempts()).toBe(2);
    expect(waits).toHaveLength(1);
    expect(clock.sleeps).toEqual([2000]);
    expect(RatchetError.is(result, 'budgetExhausted')).toBe(true);
    expect((result as RatchetError).message).toMatch(/^The run's wall-time budget ran out while rate limited: .*status 429$/);
    expect((result as RatchetError).details).toEqual({ budget: 'time', attempts: 2, waitMs: 30_000, status: 429 });
  });

  it('waits freely when no deadline is set', async () => {
    const { result } = await script([http(429, 30_000)], { deadline: () => undefined });
    expect(result).toBe('ok');
  });

  it('rejects with cancelled during a rate-limit wait, leaving no timer behind', async () => {
    const clock = new VirtualClock({ auto: false });
    const ac = new AbortController();
    const run = withRetries(
      async () => {
        throw http(429, 30_000);
      },
      { policy, clock, random: constantRandom(0.9), signal: ac.signal },
    );
    await clock.untilPending();
    ac.abort();
    const err = await run.catch((e: unknown) => e);
    expect(RatchetError.is(err, 'cancelled')).toBe(true);
    expect(clock.pending()).toBe(0);
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
