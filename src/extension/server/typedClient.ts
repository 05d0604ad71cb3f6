/**
 * The typed contract (src/protocol/lsp.ts) on the lazily loaded LanguageClient. That bundle has
 * its own copy of vscode-jsonrpc (lazyClient.ts), whose connection tells a type object's parameter
 * structure by identity: a constant built from this bundle's copy is none of its own, and a
 * request sent with it would be mis-encoded. So the call goes by method name, taken off the
 * constant here and nowhere else (a lint rule keeps it so), and these signatures make the compiler
 * check parameters, results and handlers against the constant as if the call went by the type.
 */
import type { NotificationType, RequestHandler, RequestType } from 'vscode-jsonrpc';
import type { CancellationToken, Disposable, LanguageClient } from 'vscode-languageclient/node';

/** What these need of a LanguageClient. */
export type MethodClient = Pick<LanguageClient, 'onNotification' | 'onRequest' | 'sendRequest'>;

export function onNotification<P>(client: MethodClient, type: NotificationType<P>, handler: (params: NoInfer<P>) => void): Disposable {
  return client.onNotification(type.method, handler);
}

export function onRequest<P, R, E>(client: MethodClient, type: RequestType<P, R, E>, handler: RequestHandler<NoInfer<P>, NoInfer<R>, NoInfer<E>>): Disposable {
  return client.onRequest<R, E>(type.method, handler);
}

export function sendRequest<P, R, E>(client: MethodClient, type: RequestType<P, R, E>, params: NoInfer<P>, token?: CancellationToken): Promise<R> {
  return client.sendRequest<R>(type.method, params, token);
}
