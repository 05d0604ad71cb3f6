/**
 * "Ratchet: Test Connection": asks an OpenAI-compatible endpoint which models it serves
 * (`GET /models`), the one request every such server answers without spending anything. Success
 * means the base URL and the key work; the list is what `ratchet.models.default` may name. A
 * failure is the same RatchetError a run's call would get, naming where the base URL came from.
 */
import { RatchetError } from '../core/errors';
import { redactUrl } from '../core/redact';

export interface ListModelsTarget {
  baseURL: string;
  /** Where the base URL was chosen (`setting ratchet.endpoint.baseUrl`). */
  baseURLFrom: string;
  apiKey?: string;
  apiKeyFrom?: string;
}

/** Long enough for a server that is loading, short enough that a dead address is reported soon. */
const LIST_TIMEOUT_MS = 15_000;

/** The ids the endpoint lists, sorted. */
export async function listModels(target: ListModelsTarget, signal: AbortSignal): Promise<string[]> {
  const shownURL = redactUrl(target.baseURL);
  // The SDK is loaded on the first Test Connection, not when the language server that answers it
  // starts: initialising it took ~65 ms of every server start (a window reload waits for that).
  const [{ default: OpenAI, APIError }, { toRatchetError }] = await Promise.all([import('openai'), import('./openaiErrors')]);
  // The SDK refuses to start without a key; local servers ignore it.
  const client = new OpenAI({ baseURL: target.baseURL, apiKey: target.apiKey ?? 'not-needed', maxRetries: 0, timeout: LIST_TIMEOUT_MS });
  const ids: string[] = [];
  try {
    for await (const model of client.models.list({ signal })) ids.push(model.id);
  } catch (err) {
    if (err instanceof APIError && err.status === 404) {
      throw new RatchetError(
        'llmHttp',
        `The endpoint ${shownURL} (${target.baseURLFrom}) answered 404 Not Found to GET /models: check that the base URL is an OpenAI-compatible API (it usually ends in /v1).`,
        { status: 404, baseURL: shownURL, baseURLFrom: target.baseURLFrom },
        err,
      );
    }
    throw toRatchetError(err, { baseURL: target.baseURL, shownURL, model: '(listing models)', role: 'agent', apiKey: target.apiKey, apiKeyFrom: target.apiKeyFrom, baseURLFrom: target.baseURLFrom }, signal);
  }
  return ids.sort((a, b) => a.localeCompare(b));
}
