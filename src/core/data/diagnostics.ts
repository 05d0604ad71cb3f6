/**
 * Located problems in files the user wrote (run specs, prompt files, datasets). One shape for the
 * CLI's one-line errors, the language server's Problems panel and RatchetError details, so a
 * message is written once and shown the same way everywhere.
 */
import { RatchetError } from '../errors';

export type Severity = 'error' | 'warning';

/** A span in a file. Lines and columns are 1-based; `endColumn` is the column just past the span. */
export interface Location {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface Diagnostic extends Location {
  severity: Severity;
  /** Dotted path of the offending field (`gate.alpha`, `scorer.pattern`), when there is one. */
  field?: string;
  message: string;
}

/** `file:line:column: message`, the form editors and terminals turn into links. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.message}`;
}

export function diagnostic(loc: Location, message: string, opts: { field?: string; severity?: Severity } = {}): Diagnostic {
  const d: Diagnostic = { ...loc, severity: opts.severity ?? 'error', message };
  if (opts.field !== undefined) d.field = opts.field;
  return d;
}

export function errorsOf(diags: readonly Diagnostic[]): Diagnostic[] {
  return diags.filter((d) => d.severity === 'error');
}

/**
 * The error thrown when input is unusable: the first error in the message (what a terminal shows),
 * every diagnostic in `details.diagnostics` (what an editor shows).
 */
export function badInputError(diags: readonly Diagnostic[]): RatchetError {
  const errors = errorsOf(diags);
  const first = errors[0] ?? diags[0];
  if (!first) return new RatchetError('badInput', 'Invalid input.', { diagnostics: [] });
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : '';
  return new RatchetError('badInput', formatDiagnostic(first) + more, {
    file: first.file,
    line: first.line,
    column: first.column,
    ...(first.field === undefined ? {} : { field: first.field }),
    diagnostics: [...diags],
  });
}

export function throwIfErrors(diags: readonly Diagnostic[]): void {
  if (errorsOf(diags).length > 0) throw badInputError(diags);
}

/** The diagnostics a RatchetError carries, or one built from its message when it carries none. */
export function diagnosticsOf(err: unknown, fallback: Location): Diagnostic[] {
  if (RatchetError.is(err) && Array.isArray(err.details.diagnostics)) return err.details.diagnostics as Diagnostic[];
  const message = err instanceof Error ? err.message : String(err);
  return [diagnostic(fallback, message)];
}

/** Maps string offsets to 1-based line/column (UTF-16 columns, as editors count them). */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }

  location(file: string, start: number, end: number): Location {
    const a = this.position(start);
    const b = this.position(Math.max(start, end));
    return { file, line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
  }
}

/** A whole line (or its first `length` characters) as a Location. */
export function lineLocation(file: string, line: number, length = 0): Location {
  return { file, line, column: 1, endLine: line, endColumn: length + 1 };
}

/** The closest candidate within a small edit distance, for "did you mean" hints. */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = c.toLowerCase() === lower ? 0 : editDistance(lower, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  // Two edits catch typos ("gatee", "alpah") without suggesting unrelated short words.
  const limit = Math.max(1, Math.min(2, Math.floor(word.length / 3)));
  return bestDistance <= limit ? best : undefined;
}

/** Damerau (optimal string alignment) distance, so a swapped pair of letters counts as one edit. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** A short rendering of a value for "(got …)" hints. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  const s = JSON.stringify(value) ?? String(value);
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
}
