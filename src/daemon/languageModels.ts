/**
 * An LlmTransport whose calls go to the attached client, which answers them with VS Code's
 * language models (the language server's LanguageModelBridge does the round trip to the editor).
 * While no client is attached a call waits for one; its errors come back as the RatchetErrors
 * the bridge raised, so the LLM layer's retry policy sees the same codes as in-process.
 */
import { RatchetError } from '../core/errors';
import type { ChatRequest, ChatResponse, EmbedResponse } from '../core/llm/types';
import type { LlmTransport } from '../core/ports';
import { DaemonLanguageModelRequest } from '../protocol/runDaemon';
import type { ClientLink } from './clientLink';
import { fromWireError } from '../protocol/errors';

export class ClientLanguageModels implements LlmTransport {
  constructor(private readonly link: ClientLink) {}

  async chat(req: ChatRequest, signal: AbortSignal): Promise<ChatResponse> {
    try {
      return await this.link.call(DaemonLanguageModelRequest, req, signal);
    } catch (err) {
      throw fromWireError(err);
    }
  }

  embed(): Promise<EmbedResponse> {
    return Promise.reject(new RatchetError('badInput', "VS Code's language models do not compute embeddings; set an OpenAI-compatible endpoint (provider: openai) for this run."));
  }
}
