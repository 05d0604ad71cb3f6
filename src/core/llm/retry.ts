/**
 * When and how long to retry an LLM call. Two kinds of failed attempt are told apart:
 *
 * - **Rate limited**: a 429, or a 503 that carries Retry-After. The provider is up and asks for
 *   patience; we wait as told (or back off, for a 429 without Retry-After) and these waits never
 *   count toward giving up. Only the run's wall-time budget, one cap per wait and one cap on a
 *   call's rate-limit waits together bound them.
 * - **Real failures**: other 5xx, 408, no answer, a timeout, an answer we could not read. Backed off
 *   exponentially with full jitter (so a burst of failures from many parallel calls does not come
 *   back as a synchronized burst), never shorter than a Retry-After, and the call gives up after
 *   `maxFailures` of them.
 *
 * No wait runs past the run's wall-time deadline: a wait that would end after it fails the call at
 * once with 'budgetExhausted' instead of sleeping into a budget that is already spent.
 */
import { RatchetError } from '../errors';
import type { Clock, Random } from '../ports';
import { cancellationOf } from './abort';

export interface RetryPolicy {
  /**
   * A call gives up at this many real failures. A rate-limited attempt in between neither adds to
   * the count (the provider is pacing us, not failing) nor resets it (a 429 says nothing about
   * whether the request would now succeed; an endpoint alternating 500 and 429 must still end).
   */
  maxFailures: number;
  /** Cap of the first backoff; doubles with each failure. */
  baseDelayMs: number;
  /** Cap of any backoff drawn by us (a server's Retry-After may ask for longer, up to `maxWaitMs`). */
  maxDelayMs: number;
  /** Cap of any one wait, a server's Retry-After included: a Retry-After of an hour waits this, then tries again. */
  maxWaitMs: number;
  /** Cap of one call's rate-limit waits together: an endpoint that always says 429 is given up on after this. */
  maxRateLimitedMs: number;
}

/**
 * maxFailures 10: with independent faults at rate p a call gives up with probability p^10, so a
 * 1,000-call run gives up with about 1,000·p^10: 0.01 % at p = 20 %, 2.7 % at p = 35 % (with 5
 * attempts it was 27 % at 20 %). A dead endpoint is still noticed within about a minute of backoff
 * (caps 0.5, 1, 2 … 30 s; full jitter waits half of that on average), and a run that gives up is
 * resumable with everything it paid for cached.
 * maxWaitMs 60 s: long enough for any per-minute quota to refill, short enough that a wrong or
 * hostile Retry-After (an hour) cannot park a run; the endpoint is asked again after it.
 * maxRateLimitedMs 15 min: a quota that stays exhausted that long needs the user (a plan, a key).
 */
export const DEFAULT_RETRY: RetryPolicy = {
  maxFailures: 10,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxWaitMs: 60_000,
  maxRateLimitedMs: 15 * 60_000,
};

export type AttemptOutcome = 'rate-limited' | 'failure' | 'fatal';

/**
 * What a failed attempt means for the call. 'fatal': any other 4xx (the request itself is wrong,
 * and sending it again would fail the same way and cost a call), a refused budget, cancellation,
 * anything that is not an endpoint's failure.
 */
export function classifyFailure(err: unknown): AttemptOutcome {
  if (!(err instanceof RatchetError)) return 'fatal';
  switch (err.code) {
    case 'llmNetwork':
    case 'llmTimeout':
    case 'llmMalformed':
      return 'failure';
    case 'llmHttp': {
      const status = err.details['status'];
      if (typeof status !== 'number') return 'fatal';
      if (status === 429 || (status === 503 && retryAfterOf(err) !== undefined)) return 'rate-limited';
      return status === 408 || status >= 500 ? 'failure' : 'fatal';
    }
    default:
      return 'fatal';
  }
}

/** Rate limits and transient failures; the other outcomes end the call at once. */
export function isRetryable(err: unknown): boolean {
  return classifyFailure(err) !== 'fatal';
}

/** The wait the server asked for, carried in `details.retryAfterMs` by the transport. */
export function retryAfterOf(err: unknown): number | undefined {
  if (!(err instanceof RatchetError)) return undefined;
  const ms = err.details['retryAfterMs'];
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/**
 * Reads a `Retry-After` header: delay-seconds or an HTTP date (RFC 9110 10.2.3), as milliseconds
 * from `nowMs`. A date in the past means "now" (0); anything unreadable means "not given".
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP date always names its month; without this, Date.parse would read "-5" as a year.
  if (!/[A-Za-z]{3}/.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Full jitter: uniform in [0, min(max, base·2^retry)), then at least the server's Retry-After. */
export function backoffDelayMs(retry: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: Random, retryAfterMs?: number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  const drawn = Math.floor(random.next() * cap);
  return retryAfterMs === undefined ? drawn : Math.max(drawn, retryAfterMs);
}

export interface RetryInfo {
  /** 1-based number of the attempt about to be made again (the retry's number). */
  retry: number;
  why: 'rate-limited' | 'retry';
  /** How long the call waits now. */
  delayMs: number;
  /** What the server's Retry-After asked for, when the wait was cut to `maxWaitMs`. */
  askedMs?: number;
  error: RatchetError;
}

export interface RetryContext {
  policy: RetryPolicy;
  clock: Clock;
  random: Random;
  signal: AbortSignal;
  /** Epoch ms no wait may run past (the run's wall-time budget); read before every wait. */
  deadline?: () => number | undefined;
  /** Called before each wait, rate limit or backoff. */
  onRetry?: (info: RetryInfo) => void;
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the call gives up. The error that ends it
 * keeps the last failure's code (a user needs "429" or "malformed", not "gave up") and says how
 * many attempts were made. Cancellation, including during a wait, rejects with 'cancelled'.
 */
export async function withRetries<T>(attempt: (index: number) => Promise<T>, ctx: RetryContext): Promise<T> {
  const { policy } = ctx;
  let failures = 0;
  let rateLimits = 0;
  let rateLimitedMs = 0;
  for (let index = 0; ; index++) {
    if (ctx.signal.aborted) throw cancellationOf(ctx.signal);
    try {
      return await attempt(index);
    } catch (err) {
      if (ctx.signal.aborted) throw cancellationOf(ctx.signal);
      const outcome = classifyFailure(err);
      if (outcome === 'fatal') throw err;
      const error = err as RatchetError;
      const attempts = index + 1;
      const asked = retryAfterOf(error);
      let delayMs: number;
      if (outcome === 'rate-limited') {
        // Told how long: wait exactly that. Not told (a bare 429): back off as from a failure.
        delayMs = Math.min(policy.maxWaitMs, asked ?? backoffDelayMs(rateLimits, policy, ctx.random));
        rateLimits++;
        if (rateLimitedMs + delayMs > policy.maxRateLimitedMs) throw exhausted(error, attempts, ` over ${formatWait(rateLimitedMs)} of rate limiting`);
        rateLimitedMs += delayMs;
      } else {
        failures++;
        if (failures >= policy.maxFailures) throw exhausted(error, attempts);
        delayMs = Math.min(policy.maxWaitMs, backoffDelayMs(failures - 1, policy, ctx.random, asked));
      }
      const why = outcome === 'rate-limited' ? 'rate-limited' : 'retry';
      const deadline = ctx.deadline?.();
      if (deadline !== undefined && ctx.clock.now() + delayMs > deadline) throw outOfTime(error, why, delayMs, attempts);
      ctx.onRetry?.({ retry: attempts, why, delayMs, ...(asked !== undefined && asked > delayMs ? { askedMs: asked } : {}), error });
      try {
        await ctx.clock.sleep(delayMs, ctx.signal);
      } catch (sleepErr) {
        if (ctx.signal.aborted) throw cancellationOf(ctx.signal);
        throw sleepErr;
      }
    }
  }
}

/** The sentence a face shows for a wait: the failure, and a note when Retry-After was cut short. */
export function waitMessage(info: RetryInfo): string {
  if (info.askedMs === undefined) return info.error.message;
  return `The endpoint asked to wait ${formatWait(info.askedMs)}, more than the ${formatWait(info.delayMs)} Ratchet waits at once; it asks again after that. ${info.error.message}`;
}

function exhausted(last: RatchetError, attempts: number, how = ''): RatchetError {
  if (attempts <= 1) return last;
  const message = `After ${attempts} attempts${how}: ${last.message}`;
  return new RatchetError(last.code, message, { ...last.details, attempts }, last);
}

function outOfTime(last: RatchetError, why: RetryInfo['why'], delayMs: number, attempts: number): RatchetError {
  const while_ = why === 'rate-limited' ? 'while rate limited' : 'while retrying a failed call';
  return new RatchetError(
    'budgetExhausted',
    `The run's wall-time budget ran out ${while_}: the next attempt would start after it ends (in ${formatWait(delayMs)}). Last answer: ${last.message}`,
    { budget: 'time', attempts, waitMs: delayMs, ...(typeof last.details['status'] === 'number' ? { status: last.details['status'] } : {}) },
    last,
  );
}

/** A wait as a user counts it: `250 ms`, `12 s` (rounded up: never promise less than the wait), `2 min 5 s`. */
export function formatWait(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = Math.ceil(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min${s % 60 === 0 ? '' : ` ${s % 60} s`}`;
}
