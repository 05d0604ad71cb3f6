/** The LLM layer's data: what the engine asks for and what comes back, independent of any SDK. */

export const ROLES = ['agent', 'proposer', 'validator', 'meta', 'challenger'] as const;
export type Role = (typeof ROLES)[number];

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * Where a role's calls go. Any field left out falls back to the default endpoint (roles.ts).
 * Once resolved, undefined means "not set", and this is what happens then:
 * - no `baseURL`: the calls go to the face's own transport, not over HTTP (the editor's language
 *   models, provider `vscode-lm`); an HTTP endpoint always has one (roleConfig falls back to OpenAI);
 * - no `model`: that transport picks one (the editor answers with the first chat model it offers:
 *   pickModel, src/extension/lm/chat.ts). An HTTP endpoint needs a model (validateRoles says so).
 */
export interface EndpointConfig {
  baseURL?: string;
  model?: string;
  /** Never journaled or logged; resolved from the environment or SecretStorage by the face. */
  apiKey?: string;
  /**
   * Where `apiKey` came from, as the user sets it (`OPENAI_API_KEY`, `AZURE_KEY (models.agent.apiKeyEnv)`,
   * `the key stored with Ratchet: Set API Key`); with no key, where one would be set. Only for the
   * advice a rejected key gets (a 401): it names the place to fix, not always OPENAI_API_KEY.
   */
  apiKeyFrom?: string;
  /**
   * Where `model` and `baseURL` were chosen (run/modelChoice.ts: `word-problems.ratchet.yaml:10`,
   * `setting ratchet.endpoint.baseUrl`), so an unknown model or an unreachable endpoint names the
   * place to fix it.
   */
  modelFrom?: string;
  baseURLFrom?: string;
}

export interface ChatRequest {
  role: Role;
  messages: ChatMessage[];
  /** Filled in by the layer from the role's configuration when absent. */
  model?: string;
  temperature?: number;
  maxTokens?: number;
  seed?: number;
  stop?: string[];
  /** Ask for per-token log-probabilities; the answer carries them only if the endpoint gives them. */
  logprobs?: boolean;
  topLogprobs?: number;
  /** Distinguishes repeated samples of the same request in the cache (0 = first sample). */
  sampleIndex?: number;
  /**
   * What the layer does with an answer the endpoint cut off (answer.ts): by default it asks once
   * more with twice the room; `keep` returns it marked `truncated`, for a `maxTokens` that is part
   * of what is being evaluated (the agent's, set in the run spec: A3 freezes decoding).
   */
  onTruncated?: 'ask-again' | 'keep';
}

export interface TokenLogprob {
  token: string;
  logprob: number;
  top?: { token: string; logprob: number }[];
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Of `promptTokens`, those the endpoint read from its prompt cache (billed at the cached rate); absent when it does not say. */
  cachedPromptTokens?: number;
  /** Of `completionTokens` (which always include them: they are billed as output), the model's reasoning; absent when the endpoint does not say. */
  reasoningTokens?: number;
}

export interface ChatResponse {
  /**
   * From a transport: the message's content as the endpoint sent it. From the LLM layer: the final
   * answer, reasoning removed (answer.ts) — the only text any parser reads.
   */
  text: string;
  /**
   * The model's reasoning: a transport puts here what a `reasoning_content` / `reasoning` field
   * held; the layer adds the sections it took out of the content. Journaled and shown folded,
   * never parsed or scored. Absent when there was none.
   */
  reasoning?: string;
  /** Cut off before it ended, at a length limit or by a content filter (answer.ts): never read as a final answer. Set by the layer. */
  truncated?: boolean;
  /** Set with `truncated` when the endpoint's content filter stopped the answer, not a length limit: asking with more room would not help. */
  filtered?: boolean;
  finishReason: string | undefined;
  /** undefined when the endpoint does not return logprobs. */
  logprobs: TokenLogprob[] | undefined;
  usage: Usage;
  model: string;
  /** True when served from the response cache (no call was paid for). */
  cached?: boolean;
}

export interface EmbedRequest {
  role: Role;
  input: string[];
  model?: string;
}

export interface EmbedResponse {
  vectors: number[][];
  usage: Usage;
  model: string;
  cached?: boolean;
}

/** Dollars per million tokens, per model. A model with no entry is counted in tokens only. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Prompt tokens served from the provider's prompt cache; absent: the input rate. */
  cachedInputPerMTok?: number;
}
export type PriceTable = Record<string, ModelPrice>;

export interface RoleCost {
  calls: number;
  cachedCalls: number;
  /** Attempts retried after a real failure (5xx, no answer, timeout, unreadable answer). */
  retries: number;
  /** Waits the provider asked for (429, 503 with Retry-After); absent in journals written before it was counted. */
  rateLimited?: number;
  /** Answers still cut off at a length limit after the layer asked again with more room (answer.ts): never parsed. */
  truncated?: number;
  /** Of `completionTokens`, reasoning tokens, when the endpoint reports them; absent in journals written before they were counted. */
  reasoningTokens?: number;
  promptTokens: number;
  completionTokens: number;
  /** undefined when any call of this role used a model without a known price. */
  dollars: number | undefined;
}
export type CostReport = Record<Role, RoleCost>;
