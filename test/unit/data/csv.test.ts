// The core's CSV reader (hand-written to keep Node out of src/core) must agree with csv-parse, the
// well-kept library, on every input both accept; line numbers are the reader's own addition.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../src/core/data/csv';

const CASES: [string, string][] = [
  ['simple', 'a,b,c\n1,2,3\n'],
  ['CRLF and no final newline', 'a,b\r\n1,2\r\n3,4'],
  ['quoted delimiters and quotes', 'name,note\n"Smith, J","said ""hi"""\n'],
  ['quoted line breaks', 'a,b\n"line 1\nline 2",x\n"",y\n'],
  ['empty fields', 'a,b,c\n,,\n1,,3\n'],
  ['trailing delimiter', 'a,b,\n1,2,\n'],
  ['unicode', 'q,expected\n"Combien font 2 × 3 ?",6\nnaïve café,ok\n'],
  ['BOM', '\uFEFFa,b\n1,2\n'],
  ['blank lines', 'a,b\n\n1,2\n\n'],
];

describe('parseCsv', () => {
  it.each(CASES)('agrees with csv-parse: %s', (_, text) => {
    const ours = parseCsv(text);
    expect(ours.error).toBeUndefined();
    const theirs = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
    expect(ours.records.map((r) => r.fields)).toEqual(theirs);
  });

  it('records the line each record starts on', () => {
    expect(parseCsv('a,b\n"x\ny",1\n\nz,2\n').records.map((r) => r.line)).toEqual([1, 2, 5]);
  });

  it('locates an unclosed quote and junk after a closing quote', () => {
    expect(parseCsv('a\n"open\nmore').error).toEqual({ line: 2, column: 1, message: 'quoted field is never closed' });
    expect(parseCsv('a,b\n"x"y,1\n').error).toEqual({
      line: 2,
      column: 4,
      message: 'unexpected "y" after a closing quote (write "" for a quote inside a quoted field)',
    });
  });

  it('reads other delimiters', () => {
    expect(parseCsv('a\tb\n"1\t2"\t3\n', '\t').records.map((r) => r.fields)).toEqual([
      ['a', 'b'],
      ['1\t2', '3'],
    ]);
  });
});
