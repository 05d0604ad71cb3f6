// The extension's calls to the language server go through the contract's constants: at run time
// by the constant's method name (the client bundles its own vscode-jsonrpc), at compile time
// checked against the constant's types. The `@ts-expect-error` lines are part of the test: the
// typecheck (npm run typecheck) fails if a mismatched handler or parameter ever compiles.
import { describe, expect, it } from 'vitest';
import type { CancellationToken, Disposable } from 'vscode-languageclient/node';
import type { SuggestionState } from '../../../src/protocol/lsp';
import { ListRunsRequest, LanguageModelRequest, RunEventNotification, ServerStatusNotification, SuggestionChangedNotification } from '../../../src/protocol/lsp';
import { onNotification, onRequest, sendRequest } from '../../../src/extension/server/typedClient';
import type { MethodClient } from '../../../src/extension/server/typedClient';

/** Records what reaches the client: method names, and the handlers registered for them. */
function fakeClient() {
  const handlers = new Map<string, (...args: unknown[]) => unknown>();
  const sent: { method: string; params: unknown }[] = [];
  const disposable: Disposable = { dispose: () => undefined };
  const client = {
    onNotification: (method: string, handler: (...args: unknown[]) => unknown) => (handlers.set(method, handler), disposable),
    onRequest: (method: string, handler: (...args: unknown[]) => unknown) => (handlers.set(method, handler), disposable),
    sendRequest: (method: string, params: unknown) => (sent.push({ method, params }), Promise.resolve({ runs: [] })),
  } as unknown as MethodClient;
  return { client, handlers, sent };
}

const token = { isCancellationRequested: false } as CancellationToken;

describe('typed calls on the language client', () => {
  it('registers and sends by the constant’s method name', async () => {
    const { client, handlers, sent } = fakeClient();
    const seen: unknown[] = [];
    onNotification(client, SuggestionChangedNotification, (s) => seen.push(s.uri));
    onRequest(client, LanguageModelRequest, (p) => ({ text: p.justification, model: 'm' }));
    expect([...handlers.keys()]).toEqual([SuggestionChangedNotification.method, LanguageModelRequest.method]);

    const state: SuggestionState = { uri: 'file:///a.prompt.md', suggestions: [] } as unknown as SuggestionState;
    handlers.get(SuggestionChangedNotification.method)!(state);
    expect(seen).toEqual(['file:///a.prompt.md']);
    expect(await handlers.get(LanguageModelRequest.method)!({ messages: [], model: {}, options: {}, justification: 'why' }, token)).toEqual({ text: 'why', model: 'm' });

    await expect(sendRequest(client, ListRunsRequest, {})).resolves.toEqual({ runs: [] });
    expect(sent).toEqual([{ method: ListRunsRequest.method, params: {} }]);
  });

  it('does not compile a handler or parameters that do not fit the constant', () => {
    const { client } = fakeClient();
    // @ts-expect-error a status handler registered for run events
    onNotification(client, RunEventNotification, (s: { health: string; message: string }) => s.health);
    // @ts-expect-error a field the notification does not carry
    onNotification(client, ServerStatusNotification, (s) => s.runId);
    // @ts-expect-error an answer that is not the request's result
    onRequest(client, LanguageModelRequest, () => ({ answer: 'accept' }));
    // @ts-expect-error parameters of another request
    void sendRequest(client, ListRunsRequest, { runId: 'r1' });
    expect(true).toBe(true);
  });
});
