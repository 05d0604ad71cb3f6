/**
 * The one bridge between the engine's cancellation (`AbortSignal`) and JSON-RPC's
 * (`CancellationToken`), for requests that cross a process on a run's behalf: the language server
 * asking the editor, the daemon asking the language server, and their answers.
 */
import { CancellationTokenSource } from 'vscode-jsonrpc';
import type { CancellationToken } from 'vscode-jsonrpc';

/** A token cancelled when `signal` aborts, for a request sent on a run's behalf. Dispose of it once the request settles. */
export function tokenOf(signal: AbortSignal): { token: CancellationToken; dispose(): void } {
  const source = new CancellationTokenSource();
  const onAbort = () => source.cancel();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', onAbort, { once: true });
  return {
    token: source.token,
    dispose: () => {
      signal.removeEventListener('abort', onAbort);
      source.dispose();
    },
  };
}

/** A signal that aborts when the requester cancels `token`: the engine's side of a request it answers. */
export function signalOf(token: CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
