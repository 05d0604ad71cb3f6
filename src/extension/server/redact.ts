/**
 * Keeps the API key out of the output channels. The key travels to the server inside the
 * settings (initializationOptions, didChangeConfiguration), and vscode-languageclient writes every
 * message verbatim to its trace channel when the user sets the log level to Trace. Scrubbing at the
 * channel catches that and anything else that would echo the settings, whoever wrote it, with the
 * one redactor every face uses (core/redact.ts's `redactKnown`, which also knows JSON's escapes).
 */
import type { LogOutputChannel } from 'vscode';
import { redactKnown } from '../../core/redact';

function redactArg(arg: unknown, secrets: readonly string[]): unknown {
  if (typeof arg === 'string') return redactKnown(arg, secrets);
  if (arg instanceof Error) {
    const copy = new Error(redactKnown(arg.message, secrets));
    copy.name = arg.name;
    if (arg.stack !== undefined) copy.stack = redactKnown(arg.stack, secrets);
    return copy;
  }
  if (arg === null || typeof arg !== 'object') return arg;
  let json: string | undefined;
  try {
    json = JSON.stringify(arg);
  } catch {
    return arg;
  }
  if (json === undefined) return arg;
  const clean = redactKnown(json, secrets);
  return clean !== json ? clean : arg;
}

/**
 * Writes a line unless VS Code has closed the channel: it does so as the window goes away, while the
 * server is still stopping and saying so (a request that failed, the process's exit), and a closed
 * channel throws on every write. Such a line has no reader left.
 */
function unlessClosed(write: () => void): void {
  try {
    write();
  } catch {
    // "Channel has been closed"
  }
}

/** A LogOutputChannel that forwards everything to `inner` with the current secrets scrubbed. */
export function redactingChannel(inner: LogOutputChannel, secrets: () => readonly string[]): LogOutputChannel {
  const r = (text: string) => redactKnown(text, secrets());
  const args = (xs: unknown[]) => xs.map((x) => redactArg(x, secrets()));
  return {
    get name() {
      return inner.name;
    },
    get logLevel() {
      return inner.logLevel;
    },
    onDidChangeLogLevel: inner.onDidChangeLogLevel,
    trace: (message, ...rest) => unlessClosed(() => inner.trace(r(message), ...args(rest))),
    debug: (message, ...rest) => unlessClosed(() => inner.debug(r(message), ...args(rest))),
    info: (message, ...rest) => unlessClosed(() => inner.info(r(message), ...args(rest))),
    warn: (message, ...rest) => unlessClosed(() => inner.warn(r(message), ...args(rest))),
    error: (error, ...rest) => unlessClosed(() => inner.error(typeof error === 'string' ? r(error) : (redactArg(error, secrets()) as Error), ...args(rest))),
    append: (value) => unlessClosed(() => inner.append(r(value))),
    appendLine: (value) => unlessClosed(() => inner.appendLine(r(value))),
    replace: (value) => unlessClosed(() => inner.replace(r(value))),
    clear: () => inner.clear(),
    show: (columnOrPreserve?: unknown, preserveFocus?: boolean) => (typeof columnOrPreserve === 'boolean' || columnOrPreserve === undefined ? inner.show(columnOrPreserve) : inner.show(columnOrPreserve as never, preserveFocus)),
    hide: () => inner.hide(),
    // The inner channel has its own owner (context.subscriptions).
    dispose: () => undefined,
  };
}
