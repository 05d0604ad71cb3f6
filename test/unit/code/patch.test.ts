import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchReplace } from '../../../src/core/code/answers';
import { frozenSegments, parseBlocks } from '../../../src/core/code/blocks';
import { applyDiff, applyFull } from '../../../src/core/code/patch';
import { SeededRandom } from '../../../src/core/random';

const edit = (search: string, replace: string, line = 1): SearchReplace => ({ search, replace, line });

const PROGRAM = ['import os', '', '# EVOLVE-BLOCK-START', 'def f(x):', '    if x:', '        return 1', '    return 0', '# EVOLVE-BLOCK-END', '', 'def g():', '    return 0', ''].join('\n');

describe('applyDiff', () => {
  it('replaces an exact match inside a block', () => {
    expect(applyDiff(PROGRAM, [edit('        return 1', '        return 2')])).toEqual({ ok: true, text: PROGRAM.replace('return 1', 'return 2') });
  });

  it('prefers the one editable match to frozen ones (`    return 0` is also in g)', () => {
    const r = applyDiff(PROGRAM, [edit('    return 0', '    return -1')]);
    expect(r).toEqual({ ok: true, text: PROGRAM.replace('    return 0\n# EVOLVE', '    return -1\n# EVOLVE') });
  });

  it('matches ignoring indentation and re-indents the REPLACE text to the match', () => {
    expect(applyDiff(PROGRAM, [edit('if x:\n    return 1', 'if x > 0:\n    return 1\nelif x < 0:\n    return -1')])).toEqual({
      ok: true,
      text: PROGRAM.replace('    if x:\n        return 1', '    if x > 0:\n        return 1\n    elif x < 0:\n        return -1'),
    });
  });

  it('re-indents the later lines of a REPLACE for a one-line SEARCH found after its indentation', () => {
    expect(applyDiff(PROGRAM, [edit('return 1', 'y = 1\nreturn y')])).toEqual({ ok: true, text: PROGRAM.replace('        return 1', '        y = 1\n        return y') });
  });

  it('applies blocks in order, each on the previous result', () => {
    const r = applyDiff(PROGRAM, [edit('        return 1', '        return 2'), edit('        return 2', '        return 3')]);
    expect(r).toEqual({ ok: true, text: PROGRAM.replace('return 1', 'return 3') });
  });

  it('says when line numbers count after earlier blocks', () => {
    const r = applyDiff(PROGRAM, [edit('def f(x):', '# doc\ndef f(x):'), edit('    return 9', '    return 8')]);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatchObject({ kind: 'notFound', edit: 2 });
      expect(r.error.message).toContain('(line numbers count after the earlier blocks of this answer were applied)');
      expect(r.error.message).toContain('The editable regions are lines 4–8.');
    }
  });

  it('deletes whole lines without leaving a blank one', () => {
    expect(applyDiff(PROGRAM, [edit('    if x:\n        return 1\n', '')])).toEqual({ ok: true, text: PROGRAM.replace('    if x:\n        return 1\n', '') });
  });

  it('inserts an empty SEARCH at the end of the last block, or of a whole file', () => {
    expect(applyDiff(PROGRAM, [edit('', 'h = 1')])).toEqual({ ok: true, text: PROGRAM.replace('    return 0\n# EVOLVE', '    return 0\nh = 1\n# EVOLVE') });
    expect(applyDiff('a = 1', [edit('', 'b = 2')])).toEqual({ ok: true, text: 'a = 1\nb = 2' });
    expect(applyDiff('a = 1\n', [edit('', 'b = 2')])).toEqual({ ok: true, text: 'a = 1\nb = 2\n' });
  });

  it('refuses a SEARCH of marker lines only instead of guessing where to insert', () => {
    const r = applyDiff(PROGRAM, [edit('# EVOLVE-BLOCK-START\n', '# EVOLVE-BLOCK-START\nimport re')]);
    expect(r).toMatchObject({ ok: false, error: { kind: 'marker', edit: 1 } });
  });

  it('refuses a SEARCH that reaches into a marker line', () => {
    const r = applyDiff(PROGRAM, [edit('    return 0\n# EVOLVE', '    return 1\n# EVOLVE')]);
    expect(r).toEqual({
      ok: false,
      error: {
        kind: 'marker',
        edit: 1,
        message: 'SEARCH/REPLACE block 1: the SEARCH text matches lines 7–8, across the marker line 8. Marker lines and the code outside the blocks cannot change: keep each SEARCH inside one editable region (lines 4–7).',
      },
    });
  });

  it('refuses an ambiguous indentation-tolerant match', () => {
    const text = '# EVOLVE-BLOCK-START\nif a:\n    x = 1\nif b:\n        x = 1\n# EVOLVE-BLOCK-END\n';
    expect(applyDiff(text, [edit('x  = 1', 'x = 2')])).toMatchObject({ ok: false, error: { kind: 'notFound' } });
    expect(applyDiff(text, [edit('x = 1 ', 'x = 2')])).toMatchObject({ ok: false, error: { kind: 'ambiguous', message: expect.stringContaining('lines 3 and 5') } });
  });

  it('keeps a CRLF file CRLF', () => {
    const crlf = PROGRAM.replace(/\n/g, '\r\n');
    expect(applyDiff(crlf, [edit('    if x:\n        return 1', '    if x:\n        return 1\n    print(x)')])).toEqual({
      ok: true,
      text: crlf.replace('        return 1\r\n', '        return 1\r\n    print(x)\r\n'),
    });
  });
});

describe('applyFull', () => {
  it('splices the frozen text back into a rewrite', () => {
    const child = 'import sys\n# EVOLVE-BLOCK-START\ndef f(x):\n    return x\n# EVOLVE-BLOCK-END\n';
    expect(applyFull(PROGRAM, child)).toEqual({ ok: true, text: PROGRAM.replace('    if x:\n        return 1\n    return 0\n', '    return x\n') });
  });
});

describe('random edits of the fixture parents', () => {
  const dir = path.resolve(__dirname, '../../fixtures/code/parents');
  const REPLACEMENTS = ['', 'x = 1', '    y = f(x)\n    return y', '# EVOLVE-BLOCK-END', '  /* EVOLVE-BLOCK-START', 'z'];

  it.each(readdirSync(dir))('never changes the frozen text of %s, and never throws', (name) => {
    const parent = readFileSync(path.join(dir, name), 'utf8');
    const frozen = frozenSegments(parent, parseBlocks(parent));
    const lines = parent.split(/\r?\n/);
    const rng = new SeededRandom(7).fork(name);
    let applied = 0;
    for (let t = 0; t < 300; t++) {
      const a = rng.int(lines.length);
      let search = lines.slice(a, a + 1 + rng.int(4));
      if (rng.next() < 0.3) search = search.map((l) => l.trimStart());
      const r = applyDiff(parent, [edit(search.join('\n'), REPLACEMENTS[rng.int(REPLACEMENTS.length)]!)]);
      if (!r.ok) continue;
      applied++;
      expect(frozenSegments(r.text, parseBlocks(r.text))).toEqual(frozen);
    }
    expect(applied).toBeGreaterThan(0);
  });
});
