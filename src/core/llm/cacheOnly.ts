/**
 * The transport of a replay (`ratchet check --replay`): every answer must come from the response
 * cache, which the LLM layer asks first; a call that gets this far is refused, never sent, so a
 * replay makes no request however its inputs were altered.
 */
import { RatchetError } from '../errors';
import type { LlmTransport } from '../ports';
import type { ChatRequest, EmbedRequest } from './types';

export function cacheOnlyTransport(what: string): LlmTransport {
  const refuse = (req: ChatRequest | EmbedRequest): Promise<never> =>
    Promise.reject(
      new RatchetError(
        'notFound',
        `${what} needs an answer of the ${req.role} role (model ${req.model ?? 'unnamed'}) that is not in the response cache (.ratchet/cache/llm); no request was sent. Restore the cache the verdict was made with, or rerun the check with an endpoint.`,
        { role: req.role },
      ),
    );
  return { chat: refuse, embed: refuse };
}
