import { describe, expect, it } from 'vitest';
import { checkMarkers } from '../../../src/core/code/markerProblems';

const FILE = '/w/solve.py';

describe('checkMarkers', () => {
  it('has nothing to say about a well-formed program', () => {
    const text = 'import math\n# EVOLVE-BLOCK-START\nx = 1\n# EVOLVE-BLOCK-END\nprint(x)\n';
    const check = checkMarkers(FILE, text, true);
    expect(check.diagnostics).toEqual([]);
    expect(check.blocks?.regions).toHaveLength(1);
  });

  it('puts an END without a START at the END line, as an error, with the line spanned', () => {
    const text = 'a = 1\n# EVOLVE-BLOCK-END\n';
    expect(checkMarkers(FILE, text, false).diagnostics).toEqual([{ file: FILE, line: 2, column: 1, endLine: 2, endColumn: 19, severity: 'error', field: 'EVOLVE-BLOCK', message: 'EVOLVE-BLOCK-END without a START' }]);
  });

  it('puts a START never closed at the START line', () => {
    const text = 'a = 1\n\n// EVOLVE-BLOCK-START\nlet x = 1;\n';
    const [d] = checkMarkers(FILE, text, false).diagnostics;
    expect(d).toMatchObject({ line: 3, severity: 'error', message: 'EVOLVE-BLOCK-START is never closed by an EVOLVE-BLOCK-END' });
  });

  it('says when a mention that is not a marker line is why the pairing fails', () => {
    const text = '# EVOLVE-BLOCK-START\nx = 1  # EVOLVE-BLOCK-END\n';
    const [d] = checkMarkers(FILE, text, false).diagnostics;
    expect(d).toMatchObject({ line: 1, severity: 'error' });
    expect(d!.message).toContain('line 2 mentions EVOLVE-BLOCK-END but is not a marker line');
  });

  it('flags a block comment marker left open on its line', () => {
    const text = 'int a;\n/* EVOLVE-BLOCK-START\nint b;\n/* EVOLVE-BLOCK-END */\n';
    const [d] = checkMarkers(FILE, text, false).diagnostics;
    expect(d).toMatchObject({ line: 2, severity: 'error' });
    expect(d!.message).toContain('is not closed on its line');
  });

  it('warns at a nested block, naming the outer one', () => {
    const text = '# EVOLVE-BLOCK-START\na = 1\n    # EVOLVE-BLOCK-START\nb = 2\n    # EVOLVE-BLOCK-END\n# EVOLVE-BLOCK-END\n';
    const diags = checkMarkers(FILE, text, false).diagnostics;
    expect(diags).toHaveLength(1);
    expect(diags[0]).toMatchObject({ line: 3, column: 1, endColumn: 25, severity: 'warning' });
    expect(diags[0]!.message).toContain('nested inside the one at lines 1–6');
  });

  it('warns about a file without markers only when a code spec names it', () => {
    const text = 'def solve():\n    return 1\n';
    expect(checkMarkers(FILE, text, false).diagnostics).toEqual([]);
    const [d] = checkMarkers(FILE, text, true).diagnostics;
    expect(d).toMatchObject({ line: 1, severity: 'warning' });
    expect(d!.message).toContain('no EVOLVE-BLOCK-START / EVOLVE-BLOCK-END lines');
  });

  it('keeps up with CRLF text: the line, not its terminator, is spanned', () => {
    const text = 'a\r\n# EVOLVE-BLOCK-END\r\n';
    expect(checkMarkers(FILE, text, false).diagnostics[0]).toMatchObject({ line: 2, endColumn: 19 });
  });
});
