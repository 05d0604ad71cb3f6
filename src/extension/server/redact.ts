/**
 * Keeps the API key out of the output channels. The key travels to the server inside the
 * settings (initializationOptions, didChangeConfiguration), and vscode-languageclient writes every
 * message verbatim to its trace channel when the user sets the log level to Trace. Scrubbing at the
 * channel catches that and anything else that would echo the settings, whoever wrote it.
 */
import type { LogOutputChannel } from 'vscode';

export const REDACTED = '«redacted»';

/** Each secret as it may appear: raw, and escaped inside a JSON string. */
function forms(secrets: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    if (s.length === 0) continue;
    out.add(s);
    out.add(JSON.stringify(s).slice(1, -1));
  }
  // Longest first, so a secret containing another is replaced whole.
  return [...out].sort((a, b) => b.length - a.length);
}

export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const form of forms(secrets)) result = result.split(form).join(REDACTED);
  return result;
}

function redactArg(arg: unknown, secrets: readonly string[]): unknown {
  if (typeof arg === 'string') return redact(arg, secrets);
  if (arg instanceof Error) {
    const copy = new Error(redact(arg.message, secrets));
    copy.name = arg.name;
    if (arg.stack !== undefined) copy.stack = redact(arg.stack, secrets);
    return copy;
  }
  if (arg === null || typeof arg !== 'object') return arg;
  let json: string | undefined;
  try {
    json = JSON.stringify(arg);
  } catch {
    return arg;
  }
  return json !== undefined && redact(json, secrets) !== json ? redact(json, secrets) : arg;
}

/** A LogOutputChannel that forwards everything to `inner` with the current secrets scrubbed. */
export function redactingChannel(inner: LogOutputChannel, secrets: () => readonly string[]): LogOutputChannel {
  const r = (text: string) => redact(text, secrets());
  const args = (xs: unknown[]) => xs.map((x) => redactArg(x, secrets()));
  return {
    get name() {
      return inner.name;
    },
    get logLevel() {
      return inner.logLevel;
    },
    onDidChangeLogLevel: inner.onDidChangeLogLevel,
    trace: (message, ...rest) => inner.trace(r(message), ...args(rest)),
    debug: (message, ...rest) => inner.debug(r(message), ...args(rest)),
    info: (message, ...rest) => inner.info(r(message), ...args(rest)),
    warn: (message, ...rest) => inner.warn(r(message), ...args(rest)),
    error: (error, ...rest) => inner.error(typeof error === 'string' ? r(error) : (redactArg(error, secrets()) as Error), ...args(rest)),
    append: (value) => inner.append(r(value)),
    appendLine: (value) => inner.appendLine(r(value)),
    replace: (value) => inner.replace(r(value)),
    clear: () => inner.clear(),
    show: (columnOrPreserve?: unknown, preserveFocus?: boolean) => (typeof columnOrPreserve === 'boolean' || columnOrPreserve === undefined ? inner.show(columnOrPreserve) : inner.show(columnOrPreserve as never, preserveFocus)),
    hide: () => inner.hide(),
    // The inner channel has its own owner (context.subscriptions).
    dispose: () => undefined,
  };
}
