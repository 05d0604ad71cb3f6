/**
 * How much of a file Ratchet agrees to read (issue #14 §3). A dataset, a run spec or a journal is
 * read into memory, so without a cap a symbolic link to /dev/zero or a runaway export grows the
 * process until the string length limit throws an error that names no file, and one 50 MB line
 * takes a minute to parse and estimate. The caps are generous — far past any context window — and
 * each refusal says which variable raises it, since only the user knows whether the file is meant.
 *
 * Line lengths are counted in characters and reported in MB of them (equal to bytes for ASCII;
 * a line under the cap in bytes is always under it in characters).
 */

export interface InputLimits {
  /** The largest file read whole, in bytes. */
  maxFileBytes: number;
  /** The longest line of a line-per-record file (JSONL, CSV, outcomes on stdin), in characters. */
  maxLineChars: number;
}

const MB = 1024 * 1024;

export const DEFAULT_INPUT_LIMITS: InputLimits = { maxFileBytes: 256 * MB, maxLineChars: 4 * MB };

/** The environment variable that sets each limit, in MB. */
export const INPUT_LIMIT_VARIABLES: Record<keyof InputLimits, string> = {
  maxFileBytes: 'RATCHET_MAX_FILE_MB',
  maxLineChars: 'RATCHET_MAX_LINE_MB',
};

/** `4.8 MB`, `256 MB`, `12 KB`, `900 bytes`: sizes as the limits are stated. */
export function formatSize(n: number): string {
  const [unit, size] = n >= MB ? ['MB', n / MB] : n >= 1024 ? ['KB', n / 1024] : ['bytes', n];
  return `${size >= 10 ? Math.round(size) : Number(size.toFixed(1))} ${unit}`;
}

/** What the user is told when a file is over `maxFileBytes` (after the file's name). */
export function fileTooLargeMessage(size: number, limits: InputLimits): string {
  return `is ${formatSize(size)}, over the ${formatSize(limits.maxFileBytes)} Ratchet reads from one file; set ${INPUT_LIMIT_VARIABLES.maxFileBytes} to raise the limit if the file is meant to be this large`;
}

/** What the user is told when a line is over `maxLineChars` (after the file and line). */
/** `length` undefined: a streamed line, not read to its end once it passed the limit. */
export function lineTooLongMessage(length: number | undefined, limits: InputLimits): string {
  const size = length === undefined ? 'line is' : `line is ${formatSize(length)} long,`;
  return `${size} over the ${formatSize(limits.maxLineChars)} limit for one line; set ${INPUT_LIMIT_VARIABLES.maxLineChars} to raise it`;
}

/**
 * The first line of `text` longer than the limit, as a 1-based line number and its length; a scan
 * for newlines only, so it costs nothing next to parsing the lines.
 */
export function firstLongLine(text: string, maxLineChars: number): { line: number; length: number } | undefined {
  if (text.length <= maxLineChars) return undefined;
  let line = 1;
  for (let start = 0; start <= text.length; line++) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    if (end - start > maxLineChars) return { line, length: end - start };
    if (nl === -1) break;
    start = nl + 1;
  }
  return undefined;
}
