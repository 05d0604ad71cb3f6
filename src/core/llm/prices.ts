/**
 * The price list Ratchet ships: what the common hosted models cost, so `budget.dollars` means
 * something without the user typing prices. A run spec's `models.<role>.price` or the editor's
 * `ratchet.models.prices` overrides an entry (a price that changed, a negotiated rate, Azure).
 *
 * PRICES AS OF 2026-11-30. Source: the providers' published list prices for their own APIs
 * (OpenAI, Anthropic, Google's Gemini API, DeepSeek), as collected in LiteLLM's model price list
 * (model_prices_and_context_window.json, sync of 2026-07-24); entries not in that list are left
 * out rather than guessed. Standard tier, no batch or priority rates; Anthropic's and Gemini's
 * rates for prompts up to 200k tokens (a longer prompt costs more). Cache writes are not priced:
 * OpenAI-compatible endpoints do not report them.
 *
 * An open model's price depends on who serves it, so only first-party APIs are listed (DeepSeek);
 * a model served locally (Ollama, vLLM) is declared `free: true`, never guessed.
 */
import type { ModelPrice } from './types';

/** When the list below was last checked against its source. */
export const PRICES_AS_OF = '2026-11-30';

/** USD per million tokens: [input, output, cached input]. Keys are model ids, lower case, undated. */
const LIST: Record<string, readonly [number, number, number?]> = {
  // OpenAI
  'gpt-5.5': [5, 30, 0.5],
  'gpt-5.4': [2.5, 15, 0.25],
  'gpt-5.4-mini': [0.75, 4.5, 0.075],
  'gpt-5.4-nano': [0.2, 1.25, 0.02],
  'gpt-5.2': [1.75, 14, 0.175],
  'gpt-5.1': [1.25, 10, 0.125],
  'gpt-5': [1.25, 10, 0.125],
  'gpt-5-mini': [0.25, 2, 0.025],
  'gpt-5-nano': [0.05, 0.4, 0.005],
  'gpt-4.1': [2, 8, 0.5],
  'gpt-4.1-mini': [0.4, 1.6, 0.1],
  'gpt-4.1-nano': [0.1, 0.4, 0.025],
  'gpt-4o': [2.5, 10, 1.25],
  // The first gpt-4o snapshot kept its launch price; the dated-alias rule must not map it to gpt-4o.
  'gpt-4o-2024-05-13': [5, 15],
  'gpt-4o-mini': [0.15, 0.6, 0.075],
  'gpt-4-turbo': [10, 30],
  'gpt-3.5-turbo': [0.5, 1.5],
  o1: [15, 60, 7.5],
  o3: [2, 8, 0.5],
  'o3-mini': [1.1, 4.4, 0.55],
  'o4-mini': [1.1, 4.4, 0.275],
  // Anthropic (cached input = cache reads)
  'claude-opus-4-7': [5, 25, 0.5],
  'claude-opus-4-6': [5, 25, 0.5],
  'claude-opus-4-5': [5, 25, 0.5],
  'claude-opus-4-1': [15, 75, 1.5],
  'claude-opus-4': [15, 75, 1.5],
  'claude-sonnet-4-6': [3, 15, 0.3],
  'claude-sonnet-4-5': [3, 15, 0.3],
  'claude-sonnet-4': [3, 15, 0.3],
  'claude-3-7-sonnet': [3, 15, 0.3],
  'claude-haiku-4-5': [1, 5, 0.1],
  'claude-3-haiku': [0.25, 1.25, 0.03],
  // Google Gemini API
  'gemini-3.1-pro-preview': [2, 12, 0.2],
  'gemini-3-pro-preview': [2, 12, 0.2],
  'gemini-3-flash-preview': [0.5, 3, 0.05],
  'gemini-2.5-pro': [1.25, 10, 0.125],
  'gemini-2.5-flash': [0.3, 2.5, 0.03],
  'gemini-2.5-flash-lite': [0.1, 0.4, 0.01],
  'gemini-2.0-flash': [0.1, 0.4, 0.025],
  'gemini-2.0-flash-lite': [0.075, 0.3, 0.01875],
  // DeepSeek's own API (open weights; other hosts charge their own prices)
  'deepseek-chat': [0.28, 0.42, 0.028],
  'deepseek-reasoner': [0.28, 0.42, 0.028],
};

/** A snapshot or moving alias of a listed model: `-2024-07-18` (OpenAI), `-20250929` (Anthropic), `-latest`. */
const DATED = /-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/**
 * The listed price of a model id as an endpoint names it: exact (`gpt-4o-2024-05-13`), else without
 * a provider prefix (`openai/gpt-4o`, `models/gemini-2.5-pro`), a date suffix
 * (`gpt-4o-mini-2024-07-18` → gpt-4o-mini) or with OpenRouter's dotted versions
 * (`anthropic/claude-sonnet-4.5` → claude-sonnet-4-5). undefined when nothing matches.
 */
export function listedPrice(model: string): ModelPrice | undefined {
  const id = model.trim().toLowerCase();
  const bare = id.slice(id.lastIndexOf('/') + 1);
  const dashed = bare.replace(/\./g, '-');
  for (const key of [id, bare, bare.replace(DATED, ''), dashed, dashed.replace(DATED, '')]) {
    const entry = Object.hasOwn(LIST, key) ? LIST[key] : undefined;
    if (entry) return toPrice(entry);
  }
  return undefined;
}

/** A price as users write it (run spec `price:`, the editor's `ratchet.models.prices`): USD per million tokens. */
export interface PriceInput {
  input: number;
  output: number;
  cachedInput?: number;
}

/** A user's price, checked: finite rates ≥ 0, other keys dropped; undefined when it is not one. */
export function checkPrice(raw: unknown): PriceInput | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const { input, output, cachedInput } = raw as Record<string, unknown>;
  const rate = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0;
  if (!rate(input) || !rate(output) || (cachedInput !== undefined && !rate(cachedInput))) return undefined;
  return cachedInput === undefined ? { input, output } : { input, output, cachedInput };
}

/** A user's price in the meter's terms. */
export function modelPrice(p: PriceInput): ModelPrice {
  return toPrice([p.input, p.output, p.cachedInput]);
}

function toPrice([input, output, cached]: readonly [number, number, number?]): ModelPrice {
  return cached === undefined ? { inputPerMTok: input, outputPerMTok: output } : { inputPerMTok: input, outputPerMTok: output, cachedInputPerMTok: cached };
}
