/**
 * RFC 4180 CSV records with the line each one starts on.
 *
 * Why not csv-parse here: its type declarations start with `/// <reference types="node" />`, which
 * would pull Node's globals into the pure core's type check (src/core compiles with "types": []), and
 * its runtime needs `Buffer`. The format is small; what matters is line numbers in errors, which
 * this reader keeps. test/unit/data/csv.test.ts checks it against csv-parse on the same inputs.
 *
 * Accepted: `,` (or another one-character delimiter), `"quoted ""fields"""` spanning lines, LF or
 * CRLF, a UTF-8 BOM, blank lines (skipped). A quote inside an unquoted field is kept literally.
 */

export interface CsvRecord {
  /** 1-based line where the record starts. */
  line: number;
  fields: string[];
}

export interface CsvError {
  line: number;
  column: number;
  message: string;
}

export function parseCsv(text: string, delimiter = ','): { records: CsvRecord[]; error?: CsvError } {
  const records: CsvRecord[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let lineStart = i;
  const n = text.length;
  while (i < n) {
    const recordLine = line;
    const fields: string[] = [];
    for (;;) {
      let value = '';
      if (text[i] === '"') {
        const openLine = line;
        const openColumn = i - lineStart + 1;
        i++;
        for (;;) {
          if (i >= n) return { records, error: { line: openLine, column: openColumn, message: 'quoted field is never closed' } };
          const c = text[i]!;
          if (c === '"') {
            if (text[i + 1] === '"') {
              value += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') {
            line++;
            lineStart = i + 1;
          }
          value += c;
          i++;
        }
        const after = text[i];
        if (after !== undefined && after !== delimiter && after !== '\n' && !(after === '\r' && text[i + 1] === '\n')) {
          return {
            records,
            error: { line, column: i - lineStart + 1, message: `unexpected ${JSON.stringify(after)} after a closing quote (write "" for a quote inside a quoted field)` },
          };
        }
      } else {
        const start = i;
        while (i < n && text[i] !== delimiter && text[i] !== '\n' && !(text[i] === '\r' && text[i + 1] === '\n')) i++;
        value = text.slice(start, i);
      }
      fields.push(value);
      if (text[i] === delimiter) {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') {
      i++;
      line++;
      lineStart = i;
    }
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: recordLine, fields });
  }
  return { records };
}

/**
 * The writing side of the same format: one record per line (CRLF, as RFC 4180 says), a field
 * quoted only when it holds the delimiter, a quote, or a line break, its quotes doubled. What
 * `formatCsv` writes, `parseCsv` reads back field for field.
 */
export function formatCsv(rows: readonly (readonly string[])[], delimiter = ','): string {
  return rows.map((fields) => fields.map((f) => csvField(f, delimiter)).join(delimiter)).join('\r\n') + (rows.length > 0 ? '\r\n' : '');
}

function csvField(field: string, delimiter: string): string {
  return field.includes(delimiter) || /["\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}
