/**
 * When and how long to retry an LLM call. Exponential backoff with full jitter (so a burst of 429s
 * from many parallel calls does not come back as a synchronized burst), never shorter than the
 * server's Retry-After.
 */
import { RatchetError } from '../errors';
import type { Clock, Random } from '../ports';
import { cancellationOf } from './abort';

export interface RetryPolicy {
  /** Retries after the first attempt: 0 means one attempt only. */
  maxRetries: number;
  /** Cap of the first backoff; doubles each retry. */
  baseDelayMs: number;
  /** Cap of any backoff drawn by us (a server's Retry-After may ask for longer, and wins). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

/**
 * Transient failures only: rate limits (429), request timeouts (408), server errors (5xx), no
 * answer, and answers we could not read. Any other 4xx means the request itself is wrong, and
 * sending it again would fail the same way and cost a call.
 */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof RatchetError)) return false;
  switch (err.code) {
    case 'llmNetwork':
    case 'llmTimeout':
    case 'llmMalformed':
      return true;
    case 'llmHttp': {
      const status = err.details['status'];
      return typeof status === 'number' && (status === 429 || status === 408 || status >= 500);
    }
    default:
      return false;
  }
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
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: Random, retryAfterMs?: number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  const drawn = Math.floor(random.next() * cap);
  return retryAfterMs === undefined ? drawn : Math.max(drawn, retryAfterMs);
}

export interface RetryInfo {
  /** 1-based number of the retry about to happen. */
  retry: number;
  delayMs: number;
  error: RatchetError;
}

export interface RetryContext {
  policy: RetryPolicy;
  clock: Clock;
  random: Random;
  signal: AbortSignal;
  onRetry?: (info: RetryInfo) => void;
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the retries run out. The error that ends it
 * keeps the last failure's code (a user needs "429" or "malformed", not "gave up") and says how
 * many attempts were made. Cancellation, including during a backoff sleep, rejects with 'cancelled'.
 */
export async function withRetries<T>(attempt: (index: number) => Promise<T>, ctx: RetryContext): Promise<T> {
  for (let index = 0; ; index++) {
    if (ctx.signal.aborted) throw cancellationOf(ctx.signal);
    try {
      return await attempt(index);
    } catch (err) {
      if (ctx.signal.aborted) throw cancellationOf(ctx.signal);
      if (!isRetryable(err)) throw err;
      const error = err as RatchetError;
      if (index >= ctx.policy.maxRetries) throw exhausted(error, index + 1);
      const delayMs = backoffDelayMs(index, ctx.policy, ctx.random, retryAfterOf(error));
      ctx.onRetry?.({ retry: index + 1, delayMs, error });
      try {
        await ctx.clock.sleep(delayMs, ctx.signal);
      } catch (sleepErr) {
        if (ctx.signal.aborted) throw cancellationOf(ctx.signal);
        throw sleepErr;
      }
    }
  }
}

function exhausted(last: RatchetError, attempts: number): RatchetError {
  if (attempts <= 1) return last;
  const message = `After ${attempts} attempts: ${last.message}`;
  return new RatchetError(last.code, message, { ...last.details, attempts }, last);
}
