/**
 * The `vscode-lm` provider's editor half: the server asks (`ratchet/languageModel`), the client
 * answers through VS Code's Language Model API, and hands back the whole text. Cancellation flows
 * from the server's `$/cancelRequest` into the model request through the token.
 */
import * as vscode from 'vscode';
import { loadClientModule } from '../server/lazyClient';
import type { CancellationToken } from 'vscode-languageclient/node';
import type { LanguageModelErrorData, LanguageModelParams, LanguageModelResult } from '../../protocol/lsp';
import { errorCode, modelOptions, pickModel, toChatTurns } from './chat';

/** JSON-RPC error code for a failed language model call (server-defined range). */
const LM_ERROR = -32001;

function fail(code: LanguageModelErrorData['code'], message: string): Error {
  return new (loadClientModule().ResponseError)(LM_ERROR, message, { code });
}

async function countTokens(model: vscode.LanguageModelChat, texts: string[], token: CancellationToken): Promise<number | undefined> {
  try {
    const counts = await Promise.all(texts.map((t) => model.countTokens(t, token)));
    return counts.reduce((a, b) => a + b, 0);
  } catch {
    return undefined;
  }
}

export async function answerLanguageModel(params: LanguageModelParams, token: CancellationToken, log: vscode.LogOutputChannel): Promise<LanguageModelResult> {
  const model = pickModel(await vscode.lm.selectChatModels(), params.model);
  if (!model) {
    throw fail('noModel', 'No VS Code language model is available. Install a chat model provider, or set ratchet.endpoint.provider to "openai".');
  }
  const turns = toChatTurns(params.messages);
  const messages = turns.map((t) => (t.role === 'user' ? vscode.LanguageModelChatMessage.User(t.content) : vscode.LanguageModelChatMessage.Assistant(t.content)));
  try {
    const response = await model.sendRequest(messages, { justification: params.justification, modelOptions: modelOptions(params.options) }, token);
    let text = '';
    for await (const chunk of response.text) text += chunk;
    const [promptTokens, completionTokens] = await Promise.all([
      countTokens(
        model,
        turns.map((t) => t.content),
        token,
      ),
      countTokens(model, [text], token),
    ]);
    const result: LanguageModelResult = { text, model: model.id };
    if (promptTokens !== undefined && completionTokens !== undefined) result.usage = { promptTokens, completionTokens };
    return result;
  } catch (err) {
    if (err instanceof vscode.LanguageModelError) {
      log.warn(`Language model ${model.id} refused a request: ${err.code} ${err.message}`);
      throw fail(errorCode(err.code), `${model.name}: ${err.message}`);
    }
    if (token.isCancellationRequested) throw err;
    log.warn(`Language model ${model.id} failed:`, err instanceof Error ? err : String(err));
    throw fail('failed', `${model.name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
