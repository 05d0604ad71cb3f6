/**
 * An LlmTransport whose calls go back to the MCP client (`sampling/createMessage`): an agent in VS
 * Code, Claude Code or any client that offers sampling lends Ratchet its own models, so a judged
 * edit needs no endpoint and no key. The engine's LLM layer wraps it like any transport (budget,
 * concurrency, retries, cache, accounting), so only one round trip lives here.
 *
 * MCP has two message roles: system text goes in `systemPrompt` (as the OpenAI transport sends it
 * first), user and assistant turns as they are. A model a role names is passed as a hint; the
 * client picks. Token counts are the client's to know and it does not say them: they are
 * estimated (four characters a token) for the token budget; the calls are priced at $0.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RatchetError } from '../core/errors';
import { cancellationOf } from '../core/llm/abort';
import type { ChatRequest, ChatResponse, EmbedResponse } from '../core/llm/types';
import type { LlmTransport } from '../core/ports';

/** The most tokens a sampled answer may have when the run spec sets no maxTokens (sampling requires a number). */
export const SAMPLING_MAX_TOKENS = 4096;

/** What the transport needs of the SDK's server: the one request it sends. */
export type SamplingServer = Pick<Server, 'createMessage'>;

export class SamplingTransport implements LlmTransport {
  constructor(private readonly server: SamplingServer) {}

  async chat(req: ChatRequest, signal: AbortSignal): Promise<ChatResponse> {
    signal.throwIfAborted();
    const system = req.messages.filter((m) => m.role === 'system').map((m) => m.content);
    const messages = req.messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role as 'user' | 'assistant', content: { type: 'text' as const, text: m.content } }));
    try {
      const result = await this.server.createMessage(
        {
          messages,
          ...(system.length > 0 ? { systemPrompt: system.join('\n\n') } : {}),
          maxTokens: req.maxTokens ?? SAMPLING_MAX_TOKENS,
          ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
          ...(req.stop && req.stop.length > 0 ? { stopSequences: req.stop } : {}),
          ...(req.model === undefined ? {} : { modelPreferences: { hints: [{ name: req.model }] } }),
          includeContext: 'none',
        },
        { signal, timeout: 24 * 60 * 60_000 },
      );
      const text = textOf(result.content);
      if (text === undefined) throw new RatchetError('llmMalformed', `The client's model (${result.model}) answered the ${req.role} role with no text.`, { role: req.role });
      return {
        text,
        finishReason: result.stopReason === 'maxTokens' ? 'length' : 'stop',
        logprobs: undefined,
        usage: { promptTokens: estimateTokens(req.messages.map((m) => m.content).join('\n')), completionTokens: estimateTokens(text) },
        model: result.model,
      };
    } catch (err) {
      if (signal.aborted) throw cancellationOf(signal);
      throw samplingError(err, req.role);
    }
  }

  embed(): Promise<EmbedResponse> {
    return Promise.reject(new RatchetError('badInput', 'MCP sampling has no embeddings; give this run an OpenAI-compatible endpoint (ratchet mcp --base-url, or OPENAI_BASE_URL).'));
  }
}

/** The text of a sampled answer: one text block, or the text blocks of a list (a client that answers with several). */
function textOf(content: unknown): string | undefined {
  const blocks = Array.isArray(content) ? content : [content];
  const texts = blocks.flatMap((b) => (b !== null && typeof b === 'object' && (b as { type?: unknown }).type === 'text' && typeof (b as { text?: unknown }).text === 'string' ? [(b as { text: string }).text] : []));
  return texts.length === 0 ? undefined : texts.join('');
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * A refusal (the user declined the request, the client has no model) is the user's to fix: no
 * retry helps. A lost connection or a timeout may pass: status 500, which the LLM layer retries.
 */
function samplingError(err: unknown, role: string): RatchetError {
  if (RatchetError.is(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown }).code;
  // JSON-RPC errors the client raised on purpose (invalid request, declined by the user: negative codes below −32000 are the client's own).
  if (typeof code === 'number' && code !== -32001 && code !== -32000) {
    return new RatchetError('badInput', `The MCP client refused to sample for the ${role} role (${message}); allow sampling for Ratchet in the client, or give Ratchet an endpoint (ratchet mcp --base-url, OPENAI_BASE_URL).`, { role });
  }
  return new RatchetError('llmHttp', `The MCP client's model did not answer the ${role} role: ${message}.`, { status: 500, role });
}
