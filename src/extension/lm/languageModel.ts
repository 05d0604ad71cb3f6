/**
 * The `vscode-lm` provider's editor half: the server asks (`ratchet/languageModel`), the client
 * answers through VS Code's Language Model API, and hands back the whole text. Cancellation flows
 * from the server's `$/cancelRequest` into the model request through the token.
 */
import * as vscode from 'vscode';
import { loadClientModule } from '../server/lazyClient';
import type { CancellationToken } from 'vscode-languageclient/node';
import type { RatchetError } from '../../core/errors';
import { wireErrorOf } from '../../protocol/wireErrorData';
import type { LanguageModelParams, LanguageModelResult } from '../../protocol/lsp';
import { languageModelError, modelOptions, noModelError, pickModel, toChatTurns } from './chat';

/** The engine's error as the client's own ResponseError: its connection sends no other class as it is. */
function fail(err: RatchetError): Error {
  const { code, message, data } = wireErrorOf(err);
  return new (loadClientModule().ResponseError)(code, message, data);
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
    throw fail(noModelError());
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
      throw fail(languageModelError(err.code, `${model.name}: ${err.message}`));
    }
    if (token.isCancellationRequested) throw err;
    log.warn(`Language model ${model.id} failed:`, err instanceof Error ? err : String(err));
    throw fail(languageModelError(undefined, `${model.name}: ${err instanceof Error ? err.message : String(err)}`));
  }
}
