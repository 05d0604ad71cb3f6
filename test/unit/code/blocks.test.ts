import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { classifyLine, frozenSegments, parseBlocks, spliceFrozen } from '../../../src/core/code/blocks';

/** A file in `syntax` with one block around `body`. */
function oneBlock(start: string, end: string, body = 'x = 1\n'): string {
  return `head\n${start}\n${body}${end}\ntail\n`;
}

const SYNTAXES: [string, string, string][] = [
  ['#', '# EVOLVE-BLOCK-START', '# EVOLVE-BLOCK-END'],
  ['//', '// EVOLVE-BLOCK-START', '// EVOLVE-BLOCK-END'],
  ['--', '-- EVOLVE-BLOCK-START', '-- EVOLVE-BLOCK-END'],
  [';', ';; EVOLVE-BLOCK-START', ';; EVOLVE-BLOCK-END'],
  ['!', '! EVOLVE-BLOCK-START', '! EVOLVE-BLOCK-END'],
  ['/* */', '/* EVOLVE-BLOCK-START */', '/* EVOLVE-BLOCK-END */'],
  ['<!-- -->', '<!-- EVOLVE-BLOCK-START -->', '<!-- EVOLVE-BLOCK-END -->'],
  ['(* *)', '(* EVOLVE-BLOCK-START *)', '(* EVOLVE-BLOCK-END *)'],
  ['indented, no space', '    #EVOLVE-BLOCK-START', '\t//EVOLVE-BLOCK-END'],
  ['words after a line comment', '# EVOLVE-BLOCK-START: the heuristic', '# EVOLVE-BLOCK-END (heuristic)'],
  ['bare word', 'EVOLVE-BLOCK-START', 'EVOLVE-BLOCK-END'],
];

function thrown(f: () => unknown): RatchetError {
  try {
    f();
  } catch (err) {
    if (err instanceof RatchetError) return err;
    throw err;
  }
  throw new Error('expected a RatchetError');
}

describe('parseBlocks', () => {
  it.each(SYNTAXES)('finds a block in %s comments', (_, start, end) => {
    const text = oneBlock(start, end);
    const b = parseBlocks(text);
    const mutableStart = text.indexOf('x = 1');
    expect(b).toEqual({
      regions: [{ start: mutableStart, end: mutableStart + 6, startLine: 2, endLine: 4, depth: 0 }],
      markers: [
        { kind: 'start', line: 2, start: 5, end: mutableStart },
        { kind: 'end', line: 4, start: mutableStart + 6, end: mutableStart + 7 + end.length },
      ],
      spans: [{ start: mutableStart, end: mutableStart + 6, firstLine: 3, lastLine: 3 }],
      wholeFile: false,
    });
    expect(frozenSegments(text, b)).toEqual([`head\n${start}\n`, `${end}\ntail\n`]);
  });

  it('reads sequential blocks, frozen text between them', () => {
    const text = 'a\n# EVOLVE-BLOCK-START\nb\n# EVOLVE-BLOCK-END\nc\n# EVOLVE-BLOCK-START\nd\ne\n# EVOLVE-BLOCK-END\n';
    const b = parseBlocks(text);
    expect(b.regions.map((r) => [r.startLine, r.endLine, r.depth])).toEqual([
      [2, 4, 0],
      [6, 9, 0],
    ]);
    expect(b.spans.map((s) => text.slice(s.start, s.end))).toEqual(['b\n', 'd\ne\n']);
    expect(frozenSegments(text, b)).toEqual(['a\n# EVOLVE-BLOCK-START\n', '# EVOLVE-BLOCK-END\nc\n# EVOLVE-BLOCK-START\n', '# EVOLVE-BLOCK-END\n']);
  });

  it('makes the outermost block mutable when nested, the inner marker lines frozen', () => {
    const text = '# EVOLVE-BLOCK-START\na\n  # EVOLVE-BLOCK-START\n  b\n  # EVOLVE-BLOCK-END\nc\n# EVOLVE-BLOCK-END\nz\n';
    const b = parseBlocks(text);
    expect(b.regions.map((r) => [r.startLine, r.endLine, r.depth])).toEqual([
      [1, 7, 0],
      [3, 5, 1],
    ]);
    expect(text.slice(b.regions[0]!.start, b.regions[0]!.end)).toBe('a\n  # EVOLVE-BLOCK-START\n  b\n  # EVOLVE-BLOCK-END\nc\n');
    expect(b.spans.map((s) => text.slice(s.start, s.end))).toEqual(['a\n', '  b\n', 'c\n']);
    expect(frozenSegments(text, b)).toEqual(['# EVOLVE-BLOCK-START\n', '  # EVOLVE-BLOCK-START\n', '  # EVOLVE-BLOCK-END\n', '# EVOLVE-BLOCK-END\nz\n']);
  });

  it('keeps CRLF offsets and an empty block', () => {
    const text = 'a\r\n# EVOLVE-BLOCK-START\r\n# EVOLVE-BLOCK-END\r\nb\r\n# EVOLVE-BLOCK-START\r\nx\r\n# EVOLVE-BLOCK-END';
    const b = parseBlocks(text);
    expect(b.spans.map((s) => [text.slice(s.start, s.end), s.firstLine, s.lastLine])).toEqual([
      ['', 3, 2],
      ['x\r\n', 6, 6],
    ]);
    expect(frozenSegments(text, b).join('')).toBe('a\r\n# EVOLVE-BLOCK-START\r\n# EVOLVE-BLOCK-END\r\nb\r\n# EVOLVE-BLOCK-START\r\n# EVOLVE-BLOCK-END');
  });

  it('makes a file without markers mutable as a whole, with a notice', () => {
    expect(parseBlocks('print(1)\n', 'a.py')).toEqual({
      regions: [],
      markers: [],
      spans: [{ start: 0, end: 9, firstLine: 1, lastLine: 1 }],
      wholeFile: true,
      notice: 'a.py has no EVOLVE-BLOCK-START/EVOLVE-BLOCK-END marker lines, so the whole file is mutable.',
    });
  });

  it('ignores mentions of the marker word that are not marker lines', () => {
    const text = 's = "# EVOLVE-BLOCK-START"\n# see EVOLVE-BLOCK-START in the docs\nx = 1  # EVOLVE-BLOCK-END\nEVOLVE-BLOCK-STARTED\n';
    expect(parseBlocks(text).wholeFile).toBe(true);
  });

  it.each([
    ['an END without a START', 'a\nb\n# EVOLVE-BLOCK-END\n', 'a.py:3: EVOLVE-BLOCK-END without a START', 3],
    ['reversed markers', '# EVOLVE-BLOCK-END\nx\n# EVOLVE-BLOCK-START\n', 'a.py:1: EVOLVE-BLOCK-END without a START', 1],
    ['a START never closed', 'a\n# EVOLVE-BLOCK-START\nx\n', 'a.py:2: EVOLVE-BLOCK-START is never closed by an EVOLVE-BLOCK-END', 2],
    ['two STARTs never closed', '# EVOLVE-BLOCK-START\n# EVOLVE-BLOCK-START\nx\n', 'a.py:1: EVOLVE-BLOCK-START is never closed by an EVOLVE-BLOCK-END (nor are those on lines 2)', 1],
    [
      'an END after code',
      '# EVOLVE-BLOCK-START\nx = 1  # EVOLVE-BLOCK-END\n',
      'a.py:1: EVOLVE-BLOCK-START is never closed by an EVOLVE-BLOCK-END (line 2 mentions EVOLVE-BLOCK-END but is not a marker line: a marker stands alone on its line, in a comment)',
      1,
    ],
    ['an extra END after a pair', '# EVOLVE-BLOCK-START\n# EVOLVE-BLOCK-END\n# EVOLVE-BLOCK-END\n', 'a.py:3: EVOLVE-BLOCK-END without a START', 3],
    ['an unclosed block comment', '<!-- EVOLVE-BLOCK-START\nx\n<!-- EVOLVE-BLOCK-END -->\n', 'a.py:1: the <!-- comment holding EVOLVE-BLOCK-START is not closed on its line (write `<!-- EVOLVE-BLOCK-START -->`)', 1],
    ['code after a block comment marker', '(* EVOLVE-BLOCK-START *)\nx\n(* EVOLVE-BLOCK-END *) y = 2\n', 'a.py:3: nothing may follow the EVOLVE-BLOCK-END comment on its line (write `(* EVOLVE-BLOCK-END *)` alone)', 3],
    ['a CRLF file', 'a\r\nb\r\n// EVOLVE-BLOCK-START\r\n', 'a.py:3: EVOLVE-BLOCK-START is never closed by an EVOLVE-BLOCK-END', 3],
  ])('locates %s', (_, text, message, line) => {
    const err = thrown(() => parseBlocks(text, 'a.py'));
    expect(err.code).toBe('badInput');
    expect(err.message).toBe(message);
    expect(err.details).toMatchObject({ file: 'a.py', line });
  });

  it('says `line N` when no path is given', () => {
    expect(thrown(() => parseBlocks('# EVOLVE-BLOCK-END\n')).message).toBe('line 1: EVOLVE-BLOCK-END without a START');
  });
});

describe('classifyLine', () => {
  it('tells markers, malformed markers and mentions apart', () => {
    expect(classifyLine('  /** EVOLVE-BLOCK-START */')).toEqual({ kind: 'start' });
    expect(classifyLine('# EVOLVE-BLOCK-END\r')).toEqual({ kind: 'end' });
    expect(classifyLine('/* EVOLVE-BLOCK-END')).toHaveProperty('malformed');
    expect(classifyLine('print("EVOLVE-BLOCK-END")')).toEqual({ mention: 'end' });
    expect(classifyLine('EVOLVE-BLOCK-START here')).toEqual({ mention: 'start' });
    expect(classifyLine('plain code')).toBeUndefined();
  });
});

describe('spliceFrozen', () => {
  const parent = 'import m\n# EVOLVE-BLOCK-START\ndef f():\n    return 1\n# EVOLVE-BLOCK-END\nprint(f())\n';

  it('restores the frozen text and the parent marker lines, keeps the child blocks', () => {
    const child = 'import other\n#EVOLVE-BLOCK-START  \ndef f():\n    return 2\n  # EVOLVE-BLOCK-END\nprint("changed")';
    expect(spliceFrozen(parent, child)).toEqual({ ok: true, text: 'import m\n# EVOLVE-BLOCK-START\ndef f():\n    return 2\n# EVOLVE-BLOCK-END\nprint(f())\n' });
  });

  it('matches nested blocks by marker order', () => {
    const p = 'h\n# EVOLVE-BLOCK-START\na\n# EVOLVE-BLOCK-START\nb\n# EVOLVE-BLOCK-END\nc\n# EVOLVE-BLOCK-END\nt\n';
    const c = '# EVOLVE-BLOCK-START\nA\n# EVOLVE-BLOCK-START\nB\n# EVOLVE-BLOCK-END\nC\n# EVOLVE-BLOCK-END\n';
    expect(spliceFrozen(p, c)).toEqual({ ok: true, text: 'h\n# EVOLVE-BLOCK-START\nA\n# EVOLVE-BLOCK-START\nB\n# EVOLVE-BLOCK-END\nC\n# EVOLVE-BLOCK-END\nt\n' });
  });

  it('gives the child the parent line breaks', () => {
    const p = parent.replace(/\n/g, '\r\n');
    expect(spliceFrozen(p, 'x\n# EVOLVE-BLOCK-START\ny = 1\nz = 2\n# EVOLVE-BLOCK-END\n')).toEqual({
      ok: true,
      text: 'import m\r\n# EVOLVE-BLOCK-START\r\ny = 1\r\nz = 2\r\n# EVOLVE-BLOCK-END\r\nprint(f())\r\n',
    });
  });

  it('refuses a child that dropped or added blocks, naming both structures', () => {
    const two = parent + '# EVOLVE-BLOCK-START\ng = 1\n# EVOLVE-BLOCK-END\n';
    expect(spliceFrozen(two, parent)).toEqual({
      ok: false,
      error: {
        kind: 'blocks',
        message:
          'Your rewrite has 1 block (lines 2–5) but the current program has 2 blocks (lines 2–5, 7–9). Keep every EVOLVE-BLOCK-START and EVOLVE-BLOCK-END line of the current program, in the same order; the code outside the blocks is restored from the current program anyway.',
      },
    });
  });

  it('refuses a child whose markers do not pair, locating the line in the rewrite', () => {
    const r = spliceFrozen(parent, 'def f():\n    return 3\n# EVOLVE-BLOCK-END\n');
    expect(r).toEqual({ ok: false, error: { kind: 'blocks', message: expect.stringContaining('Your rewrite, line 3: EVOLVE-BLOCK-END without a START') } });
  });

  it('reads a marker-less rewrite that repeats the frozen text around the one block (ShinkaEvolve)', () => {
    expect(spliceFrozen(parent, 'import m\ndef f():\n    return 5\nprint(f())')).toEqual({ ok: true, text: parent.replace('return 1', 'return 5') });
  });

  it('refuses a marker-less rewrite that changed the frozen text', () => {
    const r = spliceFrozen(parent, 'import n\ndef f():\n    return 5\nprint(f())\n');
    expect(r.ok).toBe(false);
  });

  it('takes the whole child when the parent has no markers, keeping its final line break', () => {
    expect(spliceFrozen('a = 1\n', 'a = 2')).toEqual({ ok: true, text: 'a = 2\n' });
  });
});

describe('spliceFrozen on a file without markers', () => {
  it('refuses a rewrite that adds markers, or malformed ones', () => {
    expect(spliceFrozen('a = 1\n', '# EVOLVE-BLOCK-START\na = 2\n# EVOLVE-BLOCK-END\n')).toEqual({
      ok: false,
      error: { kind: 'blocks', message: 'Your rewrite adds 1 block (lines 1–3), but the current program has no EVOLVE-BLOCK markers: leave them out.' },
    });
    expect(spliceFrozen('a = 1\n', 'a = 2\n# EVOLVE-BLOCK-END\n')).toEqual({
      ok: false,
      error: { kind: 'blocks', message: 'Your rewrite, line 2: EVOLVE-BLOCK-END without a START. The current program has no EVOLVE-BLOCK markers: leave them out.' },
    });
  });
});
