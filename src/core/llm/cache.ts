/**
 * Content-addressed response cache, so a resumed or repeated run does not pay twice for the same
 * answer. The key is the SHA-256 of the canonical JSON of everything that changes the answer
 * (endpoint, model, messages, sampling parameters, sample index) and nothing else: not the role
 * (two roles asking the same model the same thing get the same answer) and never the API key.
 * A key written into the base URL (`?api-key=…`, `user:pw@`) is no different from one sent in the
 * header: the endpoint enters the key with its credentials blanked (`redactUrl`), so the entries
 * (which store the key material) never hold it, a rotated key keeps the answers already paid for,
 * and two endpoints still differ by host, path and their other parameters. Hashing the secret in
 * without storing it would do neither: every rotation would orphan the cache, and an entry's
 * stored material would no longer reproduce its key.
 * Entries live at `<dir>/<first 2 hex>/<hash>.json`, so no directory grows past a few thousand files.
 */
import type { Files, Log } from '../ports';
import { sha256Hex } from '../random';
import { redactUrl } from '../redact';
import { normalizeBaseURL } from './roles';
import type { ChatRequest, ChatResponse, EmbedRequest, EmbedResponse } from './types';

const ENTRY_VERSION = 1;

/** JSON with object keys sorted at every depth, and `undefined` members dropped, as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortKeys(v)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/**
 * What identifies a chat answer. `model` must already be resolved from the role's configuration;
 * an undefined base URL or model (the editor's models, EndpointConfig) is left out of the key.
 */
export function chatKeyMaterial(baseURL: string | undefined, req: ChatRequest): Record<string, unknown> {
  return {
    kind: 'chat',
    baseURL: endpointKey(baseURL),
    model: req.model,
    messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
    temperature: req.temperature,
    maxTokens: req.maxTokens,
    seed: req.seed,
    stop: req.stop,
    logprobs: req.logprobs === true ? true : undefined,
    topLogprobs: req.logprobs === true ? req.topLogprobs : undefined,
    sampleIndex: req.sampleIndex ?? 0,
  };
}

export function embedKeyMaterial(baseURL: string | undefined, req: EmbedRequest): Record<string, unknown> {
  return { kind: 'embed', baseURL: endpointKey(baseURL), model: req.model, input: req.input };
}

/** The endpoint as it enters a key (see the module comment); unchanged for a URL without credentials. */
function endpointKey(baseURL: string | undefined): string | undefined {
  return baseURL === undefined ? undefined : redactUrl(normalizeBaseURL(baseURL));
}

export function cacheKey(material: Record<string, unknown>): string {
  return sha256Hex(canonicalJson(material));
}

type Kind = 'chat' | 'embed';
type ResponseOf<K extends Kind> = K extends 'chat' ? ChatResponse : EmbedResponse;

interface Entry {
  version: number;
  key: string;
  /** The key material, kept so an entry can be audited ("which request was this?"). */
  request: Record<string, unknown>;
  response: ChatResponse | EmbedResponse;
  /**
   * The run that paid for this answer. A resumed run replays its own earlier calls from the cache;
   * they were paid for, so its meter counts them again (once) instead of calling them free.
   */
  paidBy?: string;
}

export interface CacheHit<R> {
  response: R;
  paidBy: string | undefined;
}

export class ResponseCache {
  constructor(
    private readonly files: Files,
    private readonly dir: string,
    private readonly log?: Log,
  ) {}

  pathOf(key: string): string {
    return this.files.join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The stored answer, or undefined on a miss. An unreadable entry is a miss, not a failure. */
  async get<K extends Kind>(kind: K, key: string): Promise<ResponseOf<K> | undefined> {
    return (await this.lookup(kind, key))?.response;
  }

  /** The stored answer with the run that paid for it, or undefined on a miss. */
  async lookup<K extends Kind>(kind: K, key: string): Promise<CacheHit<ResponseOf<K>> | undefined> {
    const path = this.pathOf(key);
    let text: string | undefined;
    try {
      text = await this.files.tryReadText(path);
    } catch (err) {
      this.log?.log('warn', 'Could not read an LLM cache entry; calling the endpoint instead.', { path, error: String(err) });
      return undefined;
    }
    if (text === undefined) return undefined;
    try {
      const entry = JSON.parse(text) as Partial<Entry>;
      if (entry.version === ENTRY_VERSION && entry.key === key && isResponse(kind, entry.response)) {
        const response = revive(kind, entry.response as ChatResponse | EmbedResponse) as ResponseOf<K>;
        return { response, paidBy: typeof entry.paidBy === 'string' ? entry.paidBy : undefined };
      }
    } catch {
      // Falls through to the warning: a torn or hand-edited entry is re-fetched and overwritten.
    }
    this.log?.log('warn', 'Ignoring an unreadable LLM cache entry; it will be replaced.', { path });
    return undefined;
  }

  /** Stores a successful answer. A failed write costs a future cache miss, never the current call. */
  async put(key: string, material: Record<string, unknown>, response: ChatResponse | EmbedResponse, paidBy?: string): Promise<void> {
    const path = this.pathOf(key);
    const { cached: _cached, ...stored } = response;
    const entry: Entry = { version: ENTRY_VERSION, key, request: material, response: stored, ...(paidBy === undefined ? {} : { paidBy }) };
    try {
      await this.files.mkdirp(this.files.dirname(path));
      await this.files.writeTextAtomic(path, `${JSON.stringify(entry)}\n`);
    } catch (err) {
      this.log?.log('warn', 'Could not write an LLM cache entry; the answer is used but not cached.', { path, error: String(err) });
    }
  }
}

function isResponse(kind: Kind, value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const r = value as Record<string, unknown>;
  const usage = r['usage'] as Record<string, unknown> | undefined;
  const usageOk = typeof usage === 'object' && usage !== null && typeof usage['promptTokens'] === 'number';
  if (!usageOk || typeof r['model'] !== 'string') return false;
  return kind === 'chat' ? typeof r['text'] === 'string' : Array.isArray(r['vectors']);
}

/** JSON drops `undefined` members; put them back so a hit has the same shape as a fresh answer. */
function revive(kind: Kind, stored: ChatResponse | EmbedResponse): ChatResponse | EmbedResponse {
  if (kind === 'embed') return stored;
  const chat = stored as ChatResponse;
  return { ...chat, finishReason: chat.finishReason ?? undefined, logprobs: chat.logprobs ?? undefined };
}
