/**
 * Turns what the `openai` SDK throws into one RatchetError with a code the retry policy branches on
 * and one sentence a user can act on. No message ever carries the API key: providers echo part of
 * a rejected key in 401 bodies, so those bodies are never shown, and every other server text is
 * scrubbed of key-shaped strings. The endpoint is named by `shownURL`, its credentials blanked.
 */
import { STATUS_CODES } from 'node:http';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { RatchetError } from '../core/errors';
import { redactKnown } from '../core/redact';
import { cancellationOf } from '../core/llm/abort';
import { parseRetryAfter } from '../core/llm/retry';
import type { Role } from '../core/llm/types';

export interface CallContext {
  /** What the SDK calls: may hold a key (`?api-key=…`), so no message quotes it. */
  baseURL: string;
  /** The base URL as messages show it: `redactUrl(baseURL)`. */
  shownURL: string;
  model: string;
  role: Role;
  /** Only to scrub it from server text; never copied into an error. */
  apiKey: string | undefined;
  /** Where the key came from (EndpointConfig.apiKeyFrom), for the advice a 401 gives. */
  apiKeyFrom: string | undefined;
  /** Where the model and the base URL were chosen (run/modelChoice.ts): an unknown model or an unreachable endpoint names the place to fix. */
  modelFrom?: string | undefined;
  baseURLFrom?: string | undefined;
}

const MAX_SERVER_TEXT = 300;

export function toRatchetError(err: unknown, ctx: CallContext, signal: AbortSignal, now = Date.now()): RatchetError {
  // Our own abort (timeout or cancellation) explains the failure better than the SDK's echo of it.
  if (signal.aborted) return RatchetError.is(signal.reason) ? signal.reason : cancellationOf(signal);
  if (err instanceof RatchetError) return err;
  const where = origins(ctx, { baseURL: ctx.shownURL, model: ctx.model, role: ctx.role });

  if (err instanceof APIUserAbortError || (err instanceof Error && err.name === 'AbortError')) {
    return cancellationOf(signal);
  }
  if (err instanceof APIConnectionTimeoutError) {
    return new RatchetError('llmTimeout', `The endpoint ${ctx.shownURL} did not answer in time (model ${ctx.model}): it may be overloaded or still loading the model.`, where, err);
  }
  if (err instanceof APIConnectionError) {
    const code = causeCode(err);
    return new RatchetError(
      'llmNetwork',
      `Could not reach the endpoint ${ctx.shownURL}${code ? ` (${code})` : ''}${setBy(ctx.baseURLFrom)}: check that the server is running and that the base URL is right.`,
      { ...where, ...(code ? { cause: code } : {}) },
      err,
    );
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    return httpError(err, err.status, ctx, now);
  }
  // Anything else was thrown while reading the body of a 2xx answer.
  if (err instanceof SyntaxError) {
    return malformed(ctx, 'sent an answer that is not valid JSON', err);
  }
  return malformed(ctx, 'closed the connection before the whole answer arrived', err);
}

export function malformed(ctx: CallContext, what: string, cause?: unknown): RatchetError {
  return new RatchetError(
    'llmMalformed',
    `The endpoint ${ctx.shownURL} ${what} (model ${ctx.model}): check that the base URL points to an OpenAI-compatible API (it usually ends in /v1).`,
    { baseURL: ctx.shownURL, model: ctx.model, role: ctx.role },
    cause,
  );
}

function httpError(err: APIError, status: number, ctx: CallContext, now: number): RatchetError {
  const retryAfterMs = retryAfterOf(err.headers, now);
  const details: Record<string, unknown> = origins(ctx, { status, baseURL: ctx.shownURL, model: ctx.model, role: ctx.role });
  if (retryAfterMs !== undefined) details['retryAfterMs'] = retryAfterMs;
  const answered = `The endpoint ${ctx.shownURL} answered ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd();
  const server = status === 401 || status === 403 ? '' : serverText(err, ctx.apiKey);
  const said = server ? ` ("${server}")` : '';
  let advice: string;
  if (status === 401) advice = keyAdvice(ctx);
  else if (status === 403) advice = `check that the API key may use the model ${ctx.model}, or choose another model`;
  else if (status === 404) advice = `${modelAdvice(ctx)}; also check that the base URL${ctx.baseURLFrom ? ` (${ctx.baseURLFrom})` : ''} ends in /v1`;
  else if (status === 429) advice = "the rate limit or quota is exhausted; Ratchet retries, and if it persists lower the concurrency or check the account's quota";
  else if (status === 408 || status >= 500) advice = 'the server failed; Ratchet retries, and if it persists check the server or try later';
  else advice = `check that the model ${ctx.model} accepts the parameters sent (logprobs, seed, max tokens)`;
  return new RatchetError('llmHttp', `${answered}${said}: ${advice}.`, details, err);
}

/**
 * An unknown model is fixed where it was chosen: a spec line wins over every setting, so there
 * the advice is to change (or remove) that line; a setting or a variable can simply be changed.
 */
function modelAdvice(ctx: CallContext): string {
  if (ctx.modelFrom === undefined) return `check the model name "${ctx.model}"`;
  const testIt = 'Ratchet: Test Connection lists the models the endpoint serves';
  return /:\d+$/.test(ctx.modelFrom)
    ? `the model "${ctx.model}" is named at ${ctx.modelFrom}, which wins over ratchet.models.default; name a model the endpoint serves there or remove the line (${testIt})`
    : `the model "${ctx.model}" comes from ${ctx.modelFrom}; set it to a model the endpoint serves (${testIt})`;
}

function setBy(from: string | undefined): string {
  return from === undefined ? '' : `, set by ${from}`;
}

/** Details an editor acts on: which setting or spec line to open or change. */
function origins<T extends Record<string, unknown>>(ctx: CallContext, details: T): T & { modelFrom?: string; baseURLFrom?: string } {
  return { ...details, ...(ctx.modelFrom ? { modelFrom: ctx.modelFrom } : {}), ...(ctx.baseURLFrom ? { baseURLFrom: ctx.baseURLFrom } : {}) };
}

/** A 401 names the place the key came from, which is the place to fix it. */
function keyAdvice(ctx: CallContext): string {
  const from = ctx.apiKeyFrom ?? 'OPENAI_API_KEY';
  return ctx.apiKey === undefined ? `no API key was sent; set one in ${from}` : `check the API key, which came from ${from}`;
}

function retryAfterOf(headers: Headers | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  // Some OpenAI-compatible servers send the finer retry-after-ms; it wins over whole seconds.
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  return parseRetryAfter(headers.get('retry-after'), now);
}

function serverText(err: APIError, apiKey: string | undefined): string {
  const body = err.error as { message?: unknown } | undefined;
  const raw = typeof body?.message === 'string' ? body.message : err.message.replace(/^\d{3}\s*/, '');
  if (raw.includes('status code (no body)')) return '';
  return redactKnown(raw, apiKey === undefined ? [] : [apiKey])
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_SERVER_TEXT);
}

function causeCode(err: unknown): string | undefined {
  // fetch wraps the socket error: APIConnectionError → TypeError('fetch failed') → Error{code}.
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}
