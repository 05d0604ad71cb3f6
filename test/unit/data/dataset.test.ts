import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/data/diagnostics';
import { labelCoverage, loadDataset, parseDataset } from '../../../src/core/data/dataset';
import { contentId } from '../../../src/core/data/item';
import { checkItemsAgainstTemplate } from '../../../src/core/data/templateCheck';
import { RatchetError } from '../../../src/core/errors';
import { parsePromptFile } from '../../../src/core/prompt/promptFile';
import { templateOf } from '../../../src/core/prompt/template';
import { memFiles } from './fakeFiles';

const messages = (file: string, text: string): string[] => parseDataset(file, text).diagnostics.map(formatDiagnostic);

describe('JSONL datasets', () => {
  it('reads flat and structured items; reserved keys are not variables', () => {
    const text = ['{"question": "2+2?", "answer": 4}', '', '{"id": "q2", "vars": {"question": "3+3?"}, "expected": 6, "description": "easy"}', '{"question": "no label"}'].join('\n');
    const { items, diagnostics } = parseDataset('d.jsonl', text);
    expect(diagnostics).toEqual([]);
    expect(items).toEqual([
      { id: contentId({ question: '2+2?' }), vars: { question: '2+2?' }, expected: 4, source: { file: 'd.jsonl', line: 1 } },
      { id: 'q2', vars: { question: '3+3?' }, expected: 6, description: 'easy', source: { file: 'd.jsonl', line: 3 } },
      { id: contentId({ question: 'no label' }), vars: { question: 'no label' }, source: { file: 'd.jsonl', line: 4 } },
    ]);
    expect(labelCoverage(items)).toBe('some');
  });

  it('reports every bad line with its line and the JSON error column', () => {
    const lines = Array.from({ length: 13 }, (_, i) => JSON.stringify({ q: `item ${i}` }));
    lines.push('{"q": "x",, "y": 1}', '[1, 2]', '{"q": "z", "vars": {"a": 1}}', '{"expected": 1, "answer": 1, "q": 2}', '{"id": {}, "q": 3}');
    expect(messages('data/problems.jsonl', `${lines.join('\r\n')}\r\n`)).toEqual([
      expect.stringMatching(/^data\/problems\.jsonl:14:11: not valid JSON \(.+\)$/),
      'data/problems.jsonl:15:1: each item must be an object of variables, got a list',
      'data/problems.jsonl:16:1: "q" sits next to "vars": move it inside "vars", or drop "vars" and write every variable at the top level',
      'data/problems.jsonl:17:1: item has both "expected" and "answer"; they mean the same thing, keep one',
      'data/problems.jsonl:18:1: "id" must be a non-empty string or a number',
    ]);
  });

  it('throws badInput from loadDataset with every diagnostic in details', async () => {
    const files = memFiles({ '/w/d.jsonl': '{"a": 1}\nnope\n{"a": 2}\n[]\n' });
    const err = await loadDataset(files, '/w/d.jsonl').catch((e: unknown) => e);
    expect(RatchetError.is(err, 'badInput')).toBe(true);
    expect((err as RatchetError).message).toMatch(/^\/w\/d\.jsonl:2:1: not valid JSON .* \(and 1 more problem\)$/);
    expect(((err as RatchetError).details.diagnostics as unknown[]).length).toBe(2);
    await expect(loadDataset(files, '/w/missing.jsonl')).rejects.toThrow('/w/missing.jsonl:1:1: dataset file not found: /w/missing.jsonl');
  });
});

describe('CSV datasets', () => {
  it('reads a header row, quoted fields across lines, and the expected column', () => {
    const text = 'id,ticket,expected\r\nt1,"My card, it was charged twice",billing\r\nt2,"Line one\r\nline ""two""",\r\n,plain,bug\r\n';
    const { items, diagnostics } = parseDataset('tickets.csv', text);
    expect(diagnostics).toEqual([]);
    expect(items).toEqual([
      { id: 't1', vars: { ticket: 'My card, it was charged twice' }, expected: 'billing', source: { file: 'tickets.csv', line: 2 } },
      { id: 't2', vars: { ticket: 'Line one\r\nline "two"' }, source: { file: 'tickets.csv', line: 3 } },
      { id: contentId({ ticket: 'plain' }), vars: { ticket: 'plain' }, expected: 'bug', source: { file: 'tickets.csv', line: 5 } },
    ]);
  });

  it('reports rows with the wrong number of fields and header problems by line', () => {
    expect(messages('t.csv', 'a,b\n1,2\n1,2,3\n4\n')).toEqual([
      't.csv:3:1: row has 3 fields but the header has 2 (a comma inside a value needs "quotes")',
      't.csv:4:1: row has 1 fields but the header has 2 (a comma inside a value needs "quotes")',
    ]);
    expect(messages('t.csv', 'a,,a\n1,2,3\n')).toEqual(['t.csv:1:1: column 2 of the header row has no name', 't.csv:1:1: column "a" appears twice in the header row']);
    expect(messages('t.csv', 'a,b\n1,"open\n2,3\n')).toEqual(['t.csv:2:3: not valid CSV: quoted field is never closed']);
  });

  it('reads TSV', () => {
    expect(parseDataset('t.tsv', 'q\texpected\nhello, world\t1\n').items[0]).toMatchObject({ vars: { q: 'hello, world' }, expected: '1' });
  });
});

describe('YAML datasets', () => {
  it('reads a promptfoo-like tests: list with line numbers, equals assertions as labels', () => {
    const text = [
      'description: ignored',
      'tests:',
      '  - vars:',
      '      text: first',
      '  - description: second',
      '    vars: { text: second }',
      '    assert:',
      '      - type: equals',
      '        value: B',
      '  - vars: { text: third }',
      '    options: { provider: x }',
      '    weird: 1',
    ].join('\n');
    const { items, diagnostics } = parseDataset('s.yaml', text);
    expect(items.map((i) => [i.vars.text, i.source.line, i.expected, i.description])).toEqual([
      ['first', 3, undefined, undefined],
      ['second', 5, 'B', 'second'],
      ['third', 10, undefined, undefined],
    ]);
    expect(diagnostics.map(formatDiagnostic)).toEqual(['s.yaml:12:1: key "weird" is ignored']);
  });

  it('reads a bare list and reports YAML syntax errors with their line', () => {
    expect(parseDataset('l.yml', '- a: 1\n- a: 2\n').items.map((i) => i.vars)).toEqual([{ a: 1 }, { a: 2 }]);
    expect(messages('l.yml', '- a: 1\n- a: [2\n')[0]).toMatch(/^l\.yml:[23]:\d+: not valid YAML/);
    expect(messages('l.yml', 'just: a map\n')).toEqual(['l.yml:1:1: expected a list of items, or a "tests:" list of { vars, expected } entries']);
  });

  it('reads .json (an array) through the same reader, with lines', () => {
    const { items } = parseDataset('d.json', '[\n  {"q": 1},\n  {"q": 2, "expected": 3}\n]');
    expect(items.map((i) => [i.vars.q, i.source.line, i.expected])).toEqual([
      [1, 2, undefined],
      [2, 3, 3],
    ]);
  });
});

describe('item ids and duplicates', () => {
  it('are stable when the file is reordered', () => {
    const rows = ['{"q": "a"}', '{"q": "b", "expected": 1}', '{"id": 7, "q": "c"}', '{"q": "d", "extra": [1, {"z": 1, "y": 2}]}'];
    const ids = (lines: string[]): string[] =>
      parseDataset('d.jsonl', lines.join('\n'))
        .items.map((i) => i.id)
        .sort();
    expect(ids([...rows].reverse())).toEqual(ids(rows));
    expect(parseDataset('d.jsonl', '{"b": 1, "a": 2}').items[0]!.id).toBe(parseDataset('d.jsonl', '{"a": 2, "b": 1}').items[0]!.id);
    expect(ids(rows)).toContain('7');
  });

  it('drops an exact duplicate with a warning and rejects conflicting labels or repeated ids', () => {
    const { items, diagnostics } = parseDataset('d.jsonl', '{"q": "a", "expected": 1}\n{"q": "a", "expected": 1}\n{"q": "a", "expected": 2}\n{"id": "x", "q": 1}\n{"id": "x", "q": 2}\n');
    expect(items.map((i) => i.source.line)).toEqual([1, 4]);
    expect(diagnostics.map((d) => [d.severity, formatDiagnostic(d)])).toEqual([
      ['warning', 'd.jsonl:2:1: duplicate of the item on line 1 (same variables and label); ignored'],
      ['error', 'd.jsonl:3:1: same variables as the item on line 1 but a different expected answer; keep one'],
      ['error', 'd.jsonl:5:1: id "x" is already used on line 4; ids must be unique'],
    ]);
  });

  it('rejects an unknown extension and an empty file', () => {
    expect(messages('d.xml', '<a/>')).toEqual(['d.xml:1:1: unknown dataset format: use .jsonl, .csv, .tsv, .yaml, .yml or .json']);
    expect(messages('d.jsonl', '\n\n')).toEqual(['d.jsonl:1:1: dataset has no items']);
  });
});

describe('inputs too large or too deep to read (#14)', () => {
  const limits = { maxFileBytes: 1 << 20, maxLineChars: 100 };

  it('refuses a JSONL or CSV line past the line cap at its line, before parsing any of it', () => {
    const long = `{"question": "${'x'.repeat(200)}"}`;
    expect(parseDataset('d.jsonl', `{"question": "a"}\n${long}\n`, 'jsonl', limits)).toEqual({
      items: [],
      diagnostics: [expect.objectContaining({ file: 'd.jsonl', line: 2, message: 'line is 216 bytes long, over the 100 bytes limit for one line; set RATCHET_MAX_LINE_MB to raise it' })],
    });
    expect(parseDataset('d.csv', `question\n${'y'.repeat(101)}\n`, 'csv', limits).diagnostics.map(formatDiagnostic)).toEqual(['d.csv:2:1: line is 101 bytes long, over the 100 bytes limit for one line; set RATCHET_MAX_LINE_MB to raise it']);
    // A YAML or JSON file may be one long line; only its size is capped (by the files port).
    expect(parseDataset('d.json', `[{"question": "${'x'.repeat(200)}"}]`, 'json', limits).items).toHaveLength(1);
  });

  it('refuses values nested past 100 levels, and a YAML alias bomb, at the file', () => {
    expect(messages('d.jsonl', `{"question": "a"}\n{"question": ${'['.repeat(101)}${']'.repeat(101)}}\n`)).toEqual(['d.jsonl:2:1: the item nests more than 100 levels of lists or objects deep; Ratchet reads up to 100']);
    expect(messages('d.jsonl', `{"question": ${'['.repeat(99)}${']'.repeat(99)}}\n`)).toEqual([]);
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefghij'.split('').map((n, i) => `${n}: &${n} [${Array(10).fill(`*${'abcdefghij'[i]}`).join(', ')}]`), 'tests: [{ vars: { q: *j } }]'].join('\n');
    expect(messages('d.yaml', bomb)).toEqual(['d.yaml:1:1: YAML aliases (*name) here expand to too much data; write the values out or use fewer aliases']);
  });
});

describe('checkItemsAgainstTemplate', () => {
  it('reports every item missing a variable, at the item line, naming the prompt line', () => {
    const prompt = parsePromptFile('examples/math/word-problems.prompt.md', '---\nx: 1\n---\nQ: {{ question }}\nUnits: {{unit}}\n');
    const { items } = parseDataset('data/problems.jsonl', '{"question": "a", "unit": "kg"}\n{"unit": "m"}\n{"q": 1}\n');
    const diags = checkItemsAgainstTemplate(items, templateOf(prompt));
    expect(diags.map(formatDiagnostic)).toEqual([
      'data/problems.jsonl:2:1: item has no "question" variable, which word-problems.prompt.md uses on line 4',
      'data/problems.jsonl:3:1: item has no "question" variable, which word-problems.prompt.md uses on line 4',
      'data/problems.jsonl:3:1: item has no "unit" variable, which word-problems.prompt.md uses on line 5',
    ]);
  });

  it('explains reserved keys used as variables', () => {
    const prompt = parsePromptFile('p.md', 'Answer: {{answer}}');
    const { items } = parseDataset('d.jsonl', '{"q": 1, "answer": 2}');
    expect(checkItemsAgainstTemplate(items, templateOf(prompt))[0]!.message).toContain('"answer" is reserved in flat items');
  });
});
