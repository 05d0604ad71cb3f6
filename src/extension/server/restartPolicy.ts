/**
 * When the language server dies, whether to start it again. A crash loop (a bad setting, a
 * corrupt file read on start) would otherwise restart forever and spam the log, so restarts are
 * bounded in a sliding window; past the bound the user is asked, with a Restart action. No VS Code
 * import: client.ts maps the verdicts onto vscode-languageclient's ErrorHandler.
 */
export interface RestartPolicyOptions {
  /** Restarts allowed within `windowMs`. */
  maxRestarts?: number;
  windowMs?: number;
  now?: () => number;
}

export type CloseVerdict = { restart: true; attempt: number } | { restart: false; crashes: number; windowMs: number };

export class RestartPolicy {
  private readonly maxRestarts: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private restarts: number[] = [];

  constructor(options: RestartPolicyOptions = {}) {
    this.maxRestarts = options.maxRestarts ?? 4;
    this.windowMs = options.windowMs ?? 3 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** The connection closed unexpectedly. */
  onClosed(): CloseVerdict {
    const t = this.now();
    this.restarts = this.restarts.filter((at) => t - at < this.windowMs);
    if (this.restarts.length >= this.maxRestarts) {
      return { restart: false, crashes: this.restarts.length + 1, windowMs: this.windowMs };
    }
    this.restarts.push(t);
    return { restart: true, attempt: this.restarts.length };
  }

  /** A restart the user asked for starts a fresh budget. */
  reset(): void {
    this.restarts = [];
  }
}

/** A write/read error on the connection: a few are transient (a dropped message), more mean it is gone. */
export function keepConnection(errorCount: number | undefined): boolean {
  return errorCount !== undefined && errorCount <= 3;
}

export function gaveUpMessage(v: Extract<CloseVerdict, { restart: false }>): string {
  const minutes = Math.round(v.windowMs / 60_000);
  return `Ratchet: the language server stopped ${v.crashes} times in ${minutes} minutes, so it was not started again. Open the log to see why, then restart it.`;
}
