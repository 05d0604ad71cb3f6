/**
 * The LLM layer the engine calls: a transport wrapped with one run-wide concurrency limit, per-call
 * timeouts, retries, the response cache, and cost accounting per role.
 *
 * Order of a call: cache lookup (a hit costs no slot, no call, no dollar) → retries of attempts,
 * each in its own concurrency slot (a call backing off does not hold a slot others could use) →
 * cache write, still in the answer's slot → accounting. The slot is freed only once the answer is
 * durable in the cache (an fsync'd atomic write), so answers paid for and not yet on disk never
 * outnumber the concurrency: a kill -9 repays at most the calls in flight, for every run kind.
 */
import pLimit from 'p-limit';
import type { LimitFunction } from 'p-limit';
import { RatchetError } from '../errors';
import type { Clock, Files, Log, LlmClient, LlmTransport, Random } from '../ports';
import { NEVER_ABORTED, cancellationOf, raceAbort } from './abort';
import { runAttempt } from './attempt';
import { finalAnswer } from './answer';
import { ResponseCache, cacheKey, chatKeyMaterial, embedKeyMaterial } from './cache';
import { CostMeter } from './cost';
import { waitMessage, withRetries } from './retry';
import type { RetryInfo, RetryPolicy } from './retry';
import { redactUrl } from '../redact';
import { estimateTokens } from './tokens';
import { describeRoles, resolveEndpoint, validateRoles } from './roles';
import type { PublicEndpoint, RoleConfig } from './roles';
import type { ChatRequest, ChatResponse, CostReport, EmbedRequest, EmbedResponse, EndpointConfig, PriceTable, Role } from './types';

export interface LlmClientOptions {
  transport: LlmTransport;
  roles: RoleConfig;
  /** Calls in flight at once, all roles together. */
  concurrency: number;
  /** Per attempt (0 disables it); a timed-out attempt is retried like any transient failure. */
  timeoutMs: number;
  retry: RetryPolicy;
  prices?: PriceTable;
  cache?: { files: Files; dir: string };
  clock: Clock;
  /** Backoff jitter. */
  random: Random;
  log?: Log;
  /** Asked before every attempt is sent; refuses the attempt once a run budget has run out. */
  admission?: CallAdmission;
}

/**
 * The run's budgets as the LLM layer sees them. `admit` is called when an attempt has its
 * concurrency slot and is about to be sent; it throws RatchetError('budgetExhausted') to refuse it
 * (the attempt is never sent). `release` follows every admitted attempt once it has settled and,
 * for an answer, once the meter has counted it.
 */
export interface CallAdmission {
  /** `inputDollars`: what the request's input costs at its model's known price (0 when unpriced), counted while it is in flight. */
  admit(role: Role, inputDollars: number): void;
  release(role: Role, inputDollars: number): void;
  /** Epoch ms at which the wall-time budget ends, if there is one: no wait runs past it. */
  deadline(): number | undefined;
}

/** Called after every change to the accounting (a paid call, a cache hit, a retry). */
export type CostListener = (cost: CostReport, totalCalls: number) => void;

/** A call about to wait before its next attempt: the provider's rate limit, or a backoff after a failure. */
export interface LlmWait {
  role: Role;
  /** Absent: no model was named, the transport picks one (EndpointConfig). */
  model?: string;
  why: 'rate-limited' | 'retry';
  waitMs: number;
  /** The HTTP status of the attempt that failed, when it had one. */
  status?: number;
  message: string;
}
export type WaitListener = (wait: LlmWait) => void;

type Kind = 'chat' | 'embed';

export class LlmLayer implements LlmClient {
  private readonly limit: LimitFunction;
  private readonly meter: CostMeter;
  private readonly cache: ResponseCache | undefined;
  private readonly listeners = new Set<CostListener>();
  private readonly waitListeners = new Set<WaitListener>();
  /** Cache keys this process has counted as paid (by a call, or by replaying the run's own). */
  private readonly counted = new Set<string>();
  /** Cache keys of every answer this client served, from the cache or the endpoint: what a verdict was made of. */
  private readonly served = new Set<string>();
  private payer: string | undefined;

  constructor(private readonly options: LlmClientOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new RatchetError('badInput', `LLM concurrency must be a whole number of at least 1, not ${options.concurrency}.`, {
        field: 'concurrency',
      });
    }
    validateRoles(options.roles);
    this.limit = pLimit(options.concurrency);
    this.meter = new CostMeter(options.prices);
    this.cache = options.cache && new ResponseCache(options.cache.files, options.cache.dir, options.log);
  }

  /**
   * One chat call as the engine reads it: the final answer with its reasoning apart (answer.ts). An
   * answer the endpoint cut off is asked for once more with twice the room (a paid call like any
   * other); still cut off, or not to be asked again (`onTruncated: 'keep'`), it comes back marked
   * `truncated` and is counted in the role's cost report.
   */
  async chat(req: ChatRequest, signal: AbortSignal = NEVER_ABORTED): Promise<ChatResponse> {
    const first = finalAnswer(await this.rawChat(req, signal));
    if (!first.truncated) return first;
    // More room does not get past a content filter.
    if (req.onTruncated === 'keep' || first.filtered) return this.cutOff(req, first);
    const room = moreRoom(req.maxTokens, first.usage.completionTokens);
    this.options.log?.log('info', `An answer of the ${req.role} role was cut off at ${first.usage.completionTokens} tokens; asking again with room for ${room}.`, { role: req.role, model: req.model });
    const again = finalAnswer(await this.rawChat({ ...req, maxTokens: room }, signal));
    return again.truncated ? this.cutOff(req, again) : again;
  }

  private rawChat(req: ChatRequest, signal: AbortSignal): Promise<ChatResponse> {
    const endpoint = resolveEndpoint(this.options.roles, req.role);
    const { onTruncated: _, ...sent } = withModel(req, endpoint);
    return this.serve('chat', sent, endpoint.baseURL, chatKeyMaterial(endpoint.baseURL, sent), signal, (s) => this.options.transport.chat(sent, s));
  }

  private cutOff(req: ChatRequest, res: ChatResponse): ChatResponse {
    this.meter.recordTruncated(req.role);
    this.options.log?.log('warn', `An answer of the ${req.role} role was cut off at ${res.usage.completionTokens} tokens (finish reason "${res.finishReason}"); it is not read as an answer.`, {
      role: req.role,
      model: req.model,
    });
    this.emit();
    return res;
  }

  embed(req: EmbedRequest, signal: AbortSignal = NEVER_ABORTED): Promise<EmbedResponse> {
    const endpoint = resolveEndpoint(this.options.roles, req.role);
    const full = withModel(req, endpoint);
    return this.serve('embed', full, endpoint.baseURL, embedKeyMaterial(endpoint.baseURL, full), signal, (s) => this.options.transport.embed(full, s));
  }

  cost(): CostReport {
    return this.meter.report();
  }

  /** Paid calls so far, all roles: what an "LLM calls" budget counts. Cache hits are free. */
  totalCalls(): number {
    return this.meter.totalCalls();
  }

  /** Dollars so far, all roles; undefined while any role used an unpriced model. */
  totalDollars(): number | undefined {
    return this.meter.totalDollars();
  }

  /**
   * The run these calls are paid for, written into each cache entry. A hit on an entry this run
   * paid for (a resume replaying its own calls) is counted as the paid call it was, once, so the
   * meter and every budget carry across interruptions.
   */
  payFor(runId: string): void {
    this.payer = runId;
  }

  /** Returns the unsubscribe function. */
  onCost(listener: CostListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every wait before a call's next attempt, as it starts. Returns the unsubscribe function. */
  onWait(listener: WaitListener): () => void {
    this.waitListeners.add(listener);
    return () => this.waitListeners.delete(listener);
  }

  /** The response-cache keys of the answers served so far, sorted (none without a cache). */
  cacheKeys(): string[] {
    return [...this.served].sort();
  }

  /** Each role's endpoint and model, without keys. */
  endpoints(): Record<Role, PublicEndpoint> {
    return describeRoles(this.options.roles);
  }

  private async serve<R extends { role: Role; model?: string }, T extends ChatResponse | EmbedResponse>(
    kind: Kind,
    req: R,
    baseURL: string | undefined,
    keyMaterial: Record<string, unknown>,
    signal: AbortSignal,
    call: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    if (signal.aborted) throw cancellationOf(signal);
    const key = this.cache ? cacheKey(keyMaterial) : undefined;
    if (this.cache && key !== undefined) {
      const hit = await raceAbort(this.cache.lookup(kind, key), signal, () => cancellationOf(signal));
      if (hit !== undefined) {
        const response = hit.response as T;
        this.served.add(key);
        const payer = this.payer;
        if (payer !== undefined && hit.paidBy === payer && !this.counted.has(key)) {
          // Paid for by this run before it was interrupted: the meter carries across the resume.
          this.counted.add(key);
          this.meter.recordCall(req.role, this.priceKey(req.model, response.model), response.usage);
        } else {
          this.meter.recordCacheHit(req.role);
        }
        this.emit();
        return { ...response, cached: true };
      }
    }

    const inputDollars = this.inputDollars(req);
    const response = await withRetries(
      () =>
        runAttempt(this.admitted(req.role, inputDollars, call), {
          limit: this.limit,
          clock: this.options.clock,
          timeoutMs: this.options.timeoutMs,
          signal,
          timeoutError: () => timeoutError(baseURL, req, this.options.timeoutMs),
          ...(key === undefined ? {} : { keep: (answer: T) => this.keep(key, keyMaterial, answer) }),
        }),
      {
        policy: this.options.retry,
        clock: this.options.clock,
        random: this.options.random,
        signal,
        deadline: () => this.options.admission?.deadline(),
        onRetry: (info) => this.noteRetry(req, info),
      },
    );

    this.meter.recordCall(req.role, this.priceKey(req.model, response.model), response.usage);
    this.options.admission?.release(req.role, inputDollars);
    this.emit();
    if (key !== undefined) this.served.add(key);
    return response;
  }

  /** The answer made durable in the cache, in its attempt's slot (runAttempt's `keep`); a failed write is logged there, never thrown. */
  private async keep(key: string, keyMaterial: Record<string, unknown>, answer: ChatResponse | EmbedResponse): Promise<void> {
    this.counted.add(key);
    await this.cache?.put(key, keyMaterial, answer, this.payer);
  }

  /**
   * The transport call, sent only if the run's budgets admit it at the moment it has a slot. An
   * answer stays counted as in flight until `serve` has metered it (then released there), so no
   * other call is admitted in between on a count that has neither; a failed or abandoned attempt
   * is released when it settles.
   */
  private admitted<T>(role: Role, inputDollars: number, call: (signal: AbortSignal) => Promise<T>): (signal: AbortSignal) => Promise<T> {
    const admission = this.options.admission;
    if (!admission) return call;
    return async (signal) => {
      admission.admit(role, inputDollars);
      let handedOver = false;
      try {
        const response = await call(signal);
        handedOver = !signal.aborted;
        return response;
      } finally {
        if (!handedOver) admission.release(role, inputDollars);
      }
    };
  }

  /**
   * What a request's input costs before it is sent, at its model's price and the estimated token
   * count of what it sends: a dollar budget counts it for every call in flight, so calls started
   * together cannot pass the budget on a spend that has not come back yet.
   */
  private inputDollars(req: { model?: string; messages?: readonly { content: string }[]; input?: readonly string[] }): number {
    const price = req.model === undefined ? undefined : this.options.prices?.[req.model];
    if (!price) return 0;
    const text = [...(req.messages ?? []).map((m) => m.content), ...(req.input ?? [])].join('\n');
    return (estimateTokens(text) * price.inputPerMTok) / 1_000_000;
  }

  /**
   * Prices are set for the configured model name; an endpoint may answer with a dated alias of it.
   * With no model named, the one that answered is the only name there is.
   */
  private priceKey(requested: string | undefined, answered: string): string {
    const prices = this.options.prices;
    if (requested === undefined) return answered;
    return prices?.[requested] === undefined && prices?.[answered] !== undefined ? answered : requested;
  }

  private noteRetry(req: { role: Role; model?: string }, info: RetryInfo): void {
    if (info.why === 'rate-limited') this.meter.recordRateLimit(req.role);
    else this.meter.recordRetry(req.role);
    const status = info.error.details['status'];
    const what = info.why === 'rate-limited' ? 'Rate limited; trying an LLM call again' : 'Retrying an LLM call';
    this.options.log?.log('info', `${what} in ${Math.round(info.delayMs)} ms: ${info.error.message}`, {
      role: req.role,
      model: req.model,
      code: info.error.code,
      status,
      retry: info.retry,
      delayMs: info.delayMs,
    });
    this.emit();
    const wait: LlmWait = {
      role: req.role,
      ...(req.model !== undefined ? { model: req.model } : {}),
      why: info.why,
      waitMs: info.delayMs,
      ...(typeof status === 'number' ? { status } : {}),
      message: waitMessage(info),
    };
    for (const listener of this.waitListeners) {
      try {
        listener(wait);
      } catch (err) {
        this.options.log?.log('error', 'A wait listener threw.', { error: String(err) });
      }
    }
  }

  private emit(): void {
    if (this.listeners.size === 0) return;
    const report = this.meter.report();
    const calls = this.meter.totalCalls();
    for (const listener of this.listeners) {
      try {
        listener(report, calls);
      } catch (err) {
        // A face's rendering bug must not fail the call that was already paid for.
        this.options.log?.log('error', 'A cost listener threw.', { error: String(err) });
      }
    }
  }
}

/**
 * The `maxTokens` of the second try after a cut-off answer: twice the limit it hit — the request's,
 * or, when the endpoint's own default cut it, the tokens it wrote (at least 1024 then, in case the
 * endpoint reported none).
 */
export function moreRoom(maxTokens: number | undefined, written: number): number {
  return 2 * (maxTokens ?? Math.max(written, 1024));
}

export function createLlmClient(options: LlmClientOptions): LlmLayer {
  return new LlmLayer(options);
}

/** The request with the role's model filled in, when the role names one (EndpointConfig). */
function withModel<R extends { model?: string }>(req: R, endpoint: EndpointConfig): R {
  const model = req.model ?? endpoint.model;
  return model === undefined ? req : { ...req, model };
}

function timeoutError(baseURL: string | undefined, req: { role: Role; model?: string }, timeoutMs: number): RatchetError {
  const seconds = Math.round(timeoutMs / 100) / 10;
  // No base URL: the face's own transport (the editor's language models), no endpoint to name.
  const shown = baseURL === undefined ? undefined : redactUrl(baseURL);
  const who = shown === undefined ? `The language model of the ${req.role} role` : `The endpoint ${shown}`;
  const model = req.model === undefined ? '' : ` (model ${req.model})`;
  return new RatchetError('llmTimeout', `${who} did not answer within ${seconds} s${model}: it may be overloaded or still loading the model; raise the per-call timeout if this model is slow.`, {
    ...(shown !== undefined ? { baseURL: shown } : {}),
    ...(req.model !== undefined ? { model: req.model } : {}),
    role: req.role,
    timeoutMs,
  });
}
