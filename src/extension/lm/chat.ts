/**
 * The pure half of the `vscode-lm` provider: which chat model answers a request, how the engine's
 * messages map onto VS Code's two chat roles, and which LanguageModelError means which engine error.
 */
import { RatchetError } from '../../core/errors';
import type { ChatMessage } from '../../core/llm/types';
import type { LanguageModelParams } from '../../protocol/lsp';

export interface ModelInfo {
  id: string;
  family: string;
  vendor: string;
  name: string;
}

/**
 * Family first, then id, then any model: a spec written for one machine still runs on another.
 * No model named (`{}`: the run left it undefined, EndpointConfig) is the editor's first one.
 */
export function pickModel<M extends ModelInfo>(models: readonly M[], want: LanguageModelParams['model']): M | undefined {
  if (want.family) {
    const byFamily = models.find((m) => m.family === want.family);
    if (byFamily) return byFamily;
  }
  if (want.id) {
    const byId = models.find((m) => m.id === want.id) ?? models.find((m) => m.family === want.id);
    if (byId) return byId;
  }
  return models[0];
}

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * VS Code's chat API has no system role: system text goes first in the opening user turn, marked
 * as instructions, and consecutive same-role turns merge (some providers reject two in a row).
 */
export function toChatTurns(messages: readonly ChatMessage[]): ChatTurn[] {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
  const turns: ChatTurn[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    const last = turns.at(-1);
    if (last && last.role === m.role) last.content += `\n\n${m.content}`;
    else turns.push({ role: m.role, content: m.content });
  }
  if (system.length > 0) {
    const instructions = `Instructions:\n${system.join('\n\n')}`;
    const first = turns[0];
    if (first?.role === 'user') first.content = `${instructions}\n\n${first.content}`;
    else turns.unshift({ role: 'user', content: instructions });
  }
  return turns;
}

/** Options as model-specific modelOptions (OpenAI-style names, which the common providers read). */
export function modelOptions(options: LanguageModelParams['options']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (options.temperature !== undefined) out.temperature = options.temperature;
  if (options.maxTokens !== undefined) out.max_tokens = options.maxTokens;
  if (options.stop && options.stop.length > 0) out.stop = options.stop;
  return out;
}

/** No chat model to answer: the user's to fix. */
export function noModelError(): RatchetError {
  return new RatchetError('badInput', 'No VS Code chat model is available: install one (e.g. GitHub Copilot Chat), or set ratchet.endpoint.provider to "openai".');
}

/**
 * A failed language model call (`vscode.LanguageModelError` code, and what the model said) as the
 * engine's error: a refusal is the user's to fix (badInput: no retry helps); anything else is
 * status 500, which the LLM layer's retry policy treats as transient.
 */
export function languageModelError(code: string | undefined, what: string): RatchetError {
  switch (code) {
    case 'NoPermissions':
    case 'Blocked':
      return new RatchetError('badInput', `VS Code refused the language model request (${what}); allow Ratchet to use the model, or set ratchet.endpoint.provider to "openai".`);
    case 'NotFound':
      return new RatchetError('badInput', `No VS Code chat model is available (${what}); install one (e.g. GitHub Copilot Chat), or set ratchet.endpoint.provider to "openai".`);
    default:
      return new RatchetError('llmHttp', `The VS Code language model failed: ${what}.`, { status: 500 });
  }
}
