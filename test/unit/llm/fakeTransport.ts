// A scripted LlmTransport: each call runs the next behaviour (or the last one, repeated), records
// what it was asked, and tracks how many calls were in flight at once.
import { RatchetError } from '../../../src/core/errors';
import type { LlmTransport } from '../../../src/core/ports';
import type { ChatRequest, ChatResponse, EmbedRequest, EmbedResponse } from '../../../src/core/llm/types';

export type Behaviour = (req: ChatRequest, signal: AbortSignal) => Promise<ChatResponse>;

export function answer(text: string, usage = { promptTokens: 10, completionTokens: 5 }): Behaviour {
  return async (req) => ({ text, finishReason: 'stop', logprobs: undefined, usage, model: req.model ?? '?' });
}

export function fail(code: 'llmHttp' | 'llmNetwork' | 'llmMalformed', details: Record<string, unknown> = {}): Behaviour {
  return async () => {
    throw new RatchetError(code, `scripted ${code}`, details);
  };
}

/** Never answers; rejects only when the signal aborts (like fetch does). */
export function hang(): Behaviour {
  return (_req, signal) =>
    new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
}

/** Ignores the signal entirely and never settles: the layer must still release its caller. */
export function deaf(): Behaviour {
  return () => new Promise(() => undefined);
}

export class FakeTransport implements LlmTransport {
  readonly requests: ChatRequest[] = [];
  readonly signals: AbortSignal[] = [];
  inFlight = 0;
  maxInFlight = 0;

  constructor(private readonly script: Behaviour[]) {}

  get calls(): number {
    return this.requests.length;
  }

  async chat(req: ChatRequest, signal: AbortSignal): Promise<ChatResponse> {
    const behaviour = this.script[Math.min(this.requests.length, this.script.length - 1)]!;
    this.requests.push(req);
    this.signals.push(signal);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      return await behaviour(req, signal);
    } finally {
      this.inFlight--;
    }
  }

  async embed(req: EmbedRequest): Promise<EmbedResponse> {
    return {
      vectors: req.input.map((s) => [s.length, 1]),
      usage: { promptTokens: req.input.length, completionTokens: 0 },
      model: req.model ?? '?',
    };
  }
}
