/**
 * An LlmTransport that sends each chat request back to the editor (`ratchet/languageModel`), where
 * the client answers it with VS Code's Language Model API: a user with a chat model installed
 * needs no endpoint and no key. The engine's LLM layer wraps it like any transport (retries,
 * concurrency, cache, cost), so only one round trip lives here.
 */
import { ResponseError } from 'vscode-languageserver/node';
import type { Connection } from 'vscode-languageserver/node';
import { RatchetError } from '../core/errors';
import { cancellationOf } from '../core/llm/abort';
import type { ChatRequest, ChatResponse, EmbedResponse } from '../core/llm/types';
import type { LlmTransport } from '../core/ports';
import { tokenOf } from '../node/cancellation';
import { fromWireError } from '../protocol/errors';
import { LanguageModelRequest } from '../protocol/lsp';

export class LanguageModelBridge implements LlmTransport {
  constructor(private readonly connection: Connection) {}

  async chat(req: ChatRequest, signal: AbortSignal): Promise<ChatResponse> {
    signal.throwIfAborted();
    const cancel = tokenOf(signal);
    try {
      const result = await this.connection.sendRequest(
        LanguageModelRequest,
        {
          messages: req.messages,
          model: req.model ? { family: req.model, id: req.model } : {},
          options: {
            ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
            ...(req.maxTokens === undefined ? {} : { maxTokens: req.maxTokens }),
            ...(req.stop === undefined ? {} : { stop: req.stop }),
          },
          justification: `Ratchet evolves a prompt with your chat model (${req.role} role).`,
        },
        cancel.token,
      );
      return {
        text: result.text,
        finishReason: 'stop',
        logprobs: undefined,
        usage: result.usage ?? { promptTokens: estimateTokens(req.messages.map((m) => m.content).join('\n')), completionTokens: estimateTokens(result.text) },
        model: result.model,
      };
    } catch (err) {
      if (signal.aborted) throw cancellationOf(signal);
      throw toRatchetError(err);
    } finally {
      cancel.dispose();
    }
  }

  embed(): Promise<EmbedResponse> {
    return Promise.reject(new RatchetError('badInput', "VS Code's language models do not compute embeddings; set an OpenAI-compatible endpoint (provider: openai) for this run."));
  }
}

/** A rough count when the client cannot count tokens: about four characters each (budgets only). */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function toRatchetError(err: unknown): RatchetError {
  if (!(err instanceof ResponseError)) {
    // The connection itself failed (the client went away): transient, worth a retry.
    return new RatchetError('llmNetwork', `The editor did not answer a language model request: ${err instanceof Error ? err.message : String(err)}.`, {}, err);
  }
  // The editor says what failed, in the engine's terms (src/extension/lm/chat.ts).
  const said = fromWireError(err);
  if (!RatchetError.is(said, 'internal')) return said;
  // Status 500 marks it transient for the LLM layer's retry policy.
  return new RatchetError('llmHttp', `The VS Code language model failed: ${err.message}.`, { status: 500 }, err);
}
