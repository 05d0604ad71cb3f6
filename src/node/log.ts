/**
 * The Log port for the CLI and the server: one line per record, to stderr (stdout belongs to the
 * CLI's output and the server's LSP stream) or appended to a file. Every record goes through the
 * same redaction as the journal, so a key in an error message never reaches a bug report.
 */
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import type { Log, LogLevel } from '../core/ports';
import { redact, redactText, redactUrlsIn } from '../core/redact';

const RANK: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };

export interface NodeLogOptions {
  /** Records below this level are dropped. Default `info`. */
  level?: LogLevel;
  /** Append to this file instead of writing to stderr. */
  file?: string;
  /** Where lines go instead (tests, the server's LogOutputChannel bridge). Wins over `file`. */
  write?: (line: string) => void;
  /** Timestamps come from here; default Date.now. */
  now?: () => number;
}

export class NodeLog implements Log {
  private readonly threshold: number;
  private readonly write: (line: string) => void;
  private readonly now: () => number;
  private readonly stream: WriteStream | undefined;

  constructor(options: NodeLogOptions = {}) {
    this.threshold = RANK[options.level ?? 'info'];
    this.now = options.now ?? Date.now;
    if (options.write) {
      this.write = options.write;
    } else if (options.file !== undefined) {
      const stream = createWriteStream(options.file, { flags: 'a', encoding: 'utf8' });
      // A log that cannot be written must not take the run down with it; say so once on stderr.
      let reported = false;
      stream.on('error', (err) => {
        if (!reported) process.stderr.write(`ratchet: cannot write the log ${options.file}: ${err.message}\n`);
        reported = true;
      });
      this.stream = stream;
      this.write = (line) => void stream.write(line);
    } else {
      this.write = (line) => void process.stderr.write(line);
    }
  }

  log(level: LogLevel, message: string, data?: Record<string, unknown>): void {
    if (RANK[level] < this.threshold) return;
    this.write(formatLogLine(this.now(), level, message, data));
  }

  /** Flushes and closes the log file, if any. */
  close(): Promise<void> {
    const stream = this.stream;
    if (!stream || stream.closed) return Promise.resolve();
    return new Promise((resolve) => stream.end(resolve));
  }
}

/** `2026-11-29T22:34:12.345Z warn  message {"data":…}` — redacted (keys, and credentials in URLs), one line whatever the message holds. */
export function formatLogLine(at: number, level: LogLevel, message: string, data?: Record<string, unknown>): string {
  const text = redactUrlsIn(redactText(message)).replace(/\r?\n/g, ' ⏎ ');
  const tail = data === undefined || Object.keys(data).length === 0 ? '' : ` ${redactUrlsIn(JSON.stringify(redact(plain(data))))}`;
  return `${new Date(at).toISOString()} ${level.padEnd(5)} ${text}${tail}\n`;
}

/** Errors keep name, message and code (non-enumerable on Error, so JSON.stringify would drop them). */
function plain(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = v instanceof Error ? { name: v.name, message: v.message, ...(isCoded(v) ? { code: v.code } : {}) } : v;
  }
  return out;
}

function isCoded(err: Error): err is Error & { code: unknown } {
  return 'code' in err;
}
