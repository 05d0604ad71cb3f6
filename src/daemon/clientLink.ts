/**
 * The daemon's side of its one attached client (a language server). Events go to whoever is
 * attached, and are simply not sent while nobody is: they are in the journal, which the next
 * client reads to catch up. Calls that need an answer from the editor — the user's decision on a
 * suggestion, a write through the editor, a language model — wait while nobody is attached, and a
 * call whose client went away before answering is asked again of the next one. Each call gives
 * up only when its run's signal aborts.
 */
import type { MessageConnection, NotificationType, RequestType } from 'vscode-jsonrpc';
import { tokenOf } from '../node/cancellation';
import { abortReason } from '../node/clock';
import { isConnectionLoss } from '../protocol/errors';

export class ClientLink {
  private current: MessageConnection | undefined;
  /** Connections that closed or were let go: a failure on one of them is a loss, not an answer. */
  private readonly gone = new WeakSet<MessageConnection>();
  private waiters: (() => void)[] = [];

  constructor(private readonly onChange: (attached: boolean) => void) {}

  get attached(): boolean {
    return this.current !== undefined;
  }

  /** `connection` becomes the client; a previous one is let go (the newest window wins). */
  attach(connection: MessageConnection): void {
    if (this.current === connection) return;
    const previous = this.current;
    this.current = connection;
    if (previous) this.drop(previous);
    for (const wake of this.waiters.splice(0)) wake();
    this.onChange(true);
  }

  /** The connection closed: if it was the client, nobody is attached now. */
  closed(connection: MessageConnection): void {
    this.drop(connection);
    if (this.current !== connection) return;
    this.current = undefined;
    this.onChange(false);
  }

  notify<P>(type: NotificationType<P>, params: P): void {
    void this.current?.sendNotification(type.method, params).catch(() => undefined);
  }

  async call<P, R, E>(type: RequestType<P, R, E>, params: P, signal: AbortSignal): Promise<R> {
    for (;;) {
      const connection = await this.client(signal);
      const cancel = tokenOf(signal);
      try {
        return await connection.sendRequest<R>(type.method, params, cancel.token);
      } catch (err) {
        if (signal.aborted) throw abortReason(signal);
        if (!(this.gone.has(connection) || isConnectionLoss(err))) throw err;
        // The client went away before it answered: ask the next one.
      } finally {
        cancel.dispose();
      }
    }
  }

  private drop(connection: MessageConnection): void {
    if (this.gone.has(connection)) return;
    this.gone.add(connection);
    // dispose() rejects the requests still waiting on it (a close alone would leave them hanging).
    connection.dispose();
  }

  private client(signal: AbortSignal): Promise<MessageConnection> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    if (this.current) return Promise.resolve(this.current);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        reject(abortReason(signal));
      };
      const wake = () => {
        signal.removeEventListener('abort', onAbort);
        resolve(this.current!);
      };
      this.waiters.push(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
