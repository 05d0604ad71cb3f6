/**
 * The LlmTransport over the official `openai` SDK: one HTTP round trip per call to any
 * OpenAI-compatible endpoint (OpenAI, Azure's /v1, Ollama, vLLM, LM Studio, llama.cpp, OpenRouter).
 * The SDK's own retries and timeout are switched off: the core layer owns both, so that
 * Retry-After, jitter, cancellation and the retry count in the cost report are one policy.
 */
import OpenAI from 'openai';
import type { ClientOptions } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { LlmTransport } from '../core/ports';
import { RatchetError } from '../core/errors';
import { resolveEndpoint } from '../core/llm/roles';
import { redactUrl } from '../core/redact';
import type { RoleConfig } from '../core/llm/roles';
import type { ChatRequest, ChatResponse, EmbedRequest, EmbedResponse, EndpointConfig, TokenLogprob, Usage } from '../core/llm/types';
import { malformed, toRatchetError } from './openaiErrors';
import type { CallContext } from './openaiErrors';

/** Local servers (Ollama, llama.cpp) ignore the key, but the SDK refuses to start without one. */
const PLACEHOLDER_KEY = 'not-needed';
/** Effectively "never": the core layer aborts each attempt at its own per-call timeout. */
const SDK_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export interface OpenAiTransportOptions {
  roles: RoleConfig;
  /** A custom fetch (a proxy, an undici Agent with longer header timeouts). */
  fetch?: ClientOptions['fetch'];
}

export class OpenAiTransport implements LlmTransport {
  private readonly clients = new Map<string, OpenAI>();

  constructor(private readonly options: OpenAiTransportOptions) {}

  async chat(req: ChatRequest, signal: AbortSignal): Promise<ChatResponse> {
    const endpoint = resolveEndpoint(this.options.roles, req.role);
    const ctx = contextOf(endpoint, req);
    const params: ChatCompletionCreateParamsNonStreaming = {
      model: ctx.model,
      messages: req.messages.map((m): ChatCompletionMessageParam => ({ role: m.role, content: m.content })),
    };
    if (req.temperature !== undefined) params.temperature = req.temperature;
    if (req.maxTokens !== undefined) params.max_tokens = req.maxTokens;
    if (req.seed !== undefined) params.seed = req.seed;
    if (req.stop !== undefined && req.stop.length > 0) params.stop = req.stop;
    if (req.logprobs === true) {
      params.logprobs = true;
      if (req.topLogprobs !== undefined) params.top_logprobs = req.topLogprobs;
    }
    let data: unknown;
    try {
      data = await this.clientFor(ctx).chat.completions.create(params, { signal });
    } catch (err) {
      throw toRatchetError(err, ctx, signal);
    }
    return readChat(data, ctx);
  }

  async embed(req: EmbedRequest, signal: AbortSignal): Promise<EmbedResponse> {
    const endpoint = resolveEndpoint(this.options.roles, req.role);
    const ctx = contextOf(endpoint, req);
    let data: unknown;
    try {
      // Floats, not the SDK's default base64: several local servers only speak floats.
      data = await this.clientFor(ctx).embeddings.create({ model: ctx.model, input: req.input, encoding_format: 'float' }, { signal });
    } catch (err) {
      throw toRatchetError(err, ctx, signal);
    }
    return readEmbeddings(data, req.input.length, ctx);
  }

  private clientFor(ctx: CallContext): OpenAI {
    const apiKey = ctx.apiKey ?? PLACEHOLDER_KEY;
    const id = `${ctx.baseURL}\u0000${apiKey}`;
    let client = this.clients.get(id);
    if (!client) {
      const options: ClientOptions = { baseURL: ctx.baseURL, apiKey, maxRetries: 0, timeout: SDK_TIMEOUT_MS };
      if (this.options.fetch) options.fetch = this.options.fetch;
      client = new OpenAI(options);
      this.clients.set(id, client);
    }
    return client;
  }
}

function contextOf(endpoint: EndpointConfig, req: { role: ChatRequest['role']; model?: string }): CallContext {
  const model = req.model ?? endpoint.model;
  // roleConfig gives every role of an HTTP run a base URL, and validateRoles a model: only a
  // configuration meant for the editor's models (EndpointConfig) lacks them.
  if (endpoint.baseURL === undefined || model === undefined) {
    throw new RatchetError('badInput', `The ${req.role} role has no ${endpoint.baseURL === undefined ? 'base URL' : 'model'} for an OpenAI-compatible endpoint: set one.`, {
      role: req.role,
      field: endpoint.baseURL === undefined ? 'baseURL' : 'model',
    });
  }
  return {
    baseURL: endpoint.baseURL,
    shownURL: redactUrl(endpoint.baseURL),
    model,
    role: req.role,
    apiKey: endpoint.apiKey,
    apiKeyFrom: endpoint.apiKeyFrom,
    // A request that names its own model (embeddings, a listed proposer model) was not chosen by the endpoint's origin.
    modelFrom: req.model === undefined || req.model === endpoint.model ? endpoint.modelFrom : undefined,
    baseURLFrom: endpoint.baseURLFrom,
  };
}

// The SDK types the answer, but nothing checks it at runtime: a proxy's HTML error page or a
// half-compatible server would otherwise surface as a TypeError deep in the engine.

function readChat(data: unknown, ctx: CallContext): ChatResponse {
  const body = asRecord(data);
  const choice = asRecord(Array.isArray(body?.['choices']) ? (body['choices'] as unknown[])[0] : undefined);
  const message = asRecord(choice?.['message']);
  if (!body || !choice || !message) throw malformed(ctx, 'answered without a message (no choices)');
  const content = message['content'];
  if (content !== null && content !== undefined && typeof content !== 'string') {
    throw malformed(ctx, 'answered with a message whose content is not text');
  }
  const finish = choice['finish_reason'];
  // Reasoning a server's parser took out of the content (vLLM, DeepSeek: reasoning_content;
  // OpenRouter, Ollama's OpenAI API: reasoning): kept apart, never read as the answer.
  const reasoning = [message['reasoning_content'], message['reasoning']].find((r): r is string => typeof r === 'string' && r.trim() !== '');
  return {
    text: content ?? '',
    ...(reasoning === undefined ? {} : { reasoning }),
    finishReason: typeof finish === 'string' ? finish : undefined,
    logprobs: readLogprobs(choice['logprobs']),
    usage: readUsage(body['usage']),
    model: typeof body['model'] === 'string' && body['model'] !== '' ? body['model'] : ctx.model,
  };
}

/** undefined when the endpoint gave none, so callers can tell "no logprobs" from "empty answer". */
function readLogprobs(value: unknown): TokenLogprob[] | undefined {
  const content = asRecord(value)?.['content'];
  if (!Array.isArray(content)) return undefined;
  const out: TokenLogprob[] = [];
  for (const raw of content) {
    const t = asRecord(raw);
    if (!t || typeof t['token'] !== 'string' || typeof t['logprob'] !== 'number') return undefined;
    const entry: TokenLogprob = { token: t['token'], logprob: t['logprob'] };
    const top = Array.isArray(t['top_logprobs']) ? t['top_logprobs'] : [];
    const alternatives = top
      .map(asRecord)
      .filter((a): a is Record<string, unknown> => !!a && typeof a['token'] === 'string' && typeof a['logprob'] === 'number')
      .map((a) => ({ token: a['token'] as string, logprob: a['logprob'] as number }));
    if (alternatives.length > 0) entry.top = alternatives;
    out.push(entry);
  }
  return out;
}

function readEmbeddings(data: unknown, expected: number, ctx: CallContext): EmbedResponse {
  const body = asRecord(data);
  const rows = Array.isArray(body?.['data']) ? (body['data'] as unknown[]).map(asRecord) : undefined;
  if (!body || !rows || rows.length !== expected) {
    throw malformed(ctx, `answered with ${rows?.length ?? 'no'} embeddings for ${expected} inputs`);
  }
  const vectors: number[][] = new Array<number[]>(expected);
  rows.forEach((row, i) => {
    const index = typeof row?.['index'] === 'number' ? row['index'] : i;
    const embedding = row?.['embedding'];
    if (!Array.isArray(embedding) || !embedding.every((x) => typeof x === 'number') || index < 0 || index >= expected) {
      throw malformed(ctx, 'answered with an embedding that is not a list of numbers');
    }
    vectors[index] = embedding;
  });
  for (let i = 0; i < expected; i++) {
    if (vectors[i] === undefined) throw malformed(ctx, `answered without an embedding for input ${i + 1}`);
  }
  return {
    vectors,
    usage: readUsage(body['usage']),
    model: typeof body['model'] === 'string' && body['model'] !== '' ? body['model'] : ctx.model,
  };
}

/**
 * Servers that omit usage are counted as zero tokens rather than failing a good answer. Cached
 * prompt tokens (`prompt_tokens_details.cached_tokens`, OpenAI's prompt caching) are kept only
 * when the server reports them, so the meter can bill them at the cached rate.
 *
 * Reasoning tokens (`completion_tokens_details.reasoning_tokens`) are billed as output. OpenAI
 * counts them inside `completion_tokens`; some gateways (Gemini's, through several proxies) leave
 * them out while `total_tokens` has them. So the output billed is the largest reading: the
 * completion tokens, the total less the prompt, or the completion plus reasoning tokens when the
 * reasoning alone is more than the completion said.
 */
export function readUsage(value: unknown): Usage {
  const u = asRecord(value);
  const n = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : 0);
  const promptTokens = n(u?.['prompt_tokens']);
  const reasoning = n(asRecord(u?.['completion_tokens_details'])?.['reasoning_tokens']);
  let completionTokens = n(u?.['completion_tokens']);
  const total = n(u?.['total_tokens']);
  if (total - promptTokens > completionTokens) completionTokens = total - promptTokens;
  if (reasoning > completionTokens) completionTokens += reasoning;
  const usage: Usage = { promptTokens, completionTokens };
  const cached = asRecord(u?.['prompt_tokens_details'])?.['cached_tokens'];
  if (typeof cached === 'number' && cached > 0) usage.cachedPromptTokens = Math.min(n(cached), usage.promptTokens);
  if (reasoning > 0) usage.reasoningTokens = reasoning;
  return usage;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
