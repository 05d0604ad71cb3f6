import { describe, expect, it } from 'vitest';
import { parseAnswer } from '../../../src/core/code/answers';

const DIFF = `<NAME>
faster_loop
</NAME>

<DESCRIPTION>
Reorder the loops.
</DESCRIPTION>

<DIFF>
<<<<<<< SEARCH
for i in range(m):
    pass
=======
for k in range(n):
    pass
>>>>>>> REPLACE

<<<<<<< SEARCH
x = 1
=======
>>>>>>> REPLACE
</DIFF>
`;

describe('parseAnswer', () => {
  it('reads a diff answer: name, description, each block with its answer line', () => {
    expect(parseAnswer(DIFF)).toEqual({
      ok: true,
      answer: {
        kind: 'diff',
        name: 'faster_loop',
        description: 'Reorder the loops.',
        edits: [
          { search: 'for i in range(m):\n    pass', replace: 'for k in range(n):\n    pass', line: 10 },
          { search: 'x = 1', replace: '', line: 18 },
        ],
      },
    });
  });

  it('reads the same answer with CRLF line breaks', () => {
    expect(parseAnswer(DIFF.replace(/\n/g, '\r\n'))).toEqual(parseAnswer(DIFF));
  });

  it('reads a full answer, whatever the fence', () => {
    const full = (fence: string, close: string): string => `<NAME>n</NAME>\n<DESCRIPTION>d</DESCRIPTION>\n<CODE>\n${fence}\nprint(1)\n${close}\n</CODE>`;
    const want = { ok: true, answer: { kind: 'full', name: 'n', description: 'd', code: 'print(1)' } };
    expect(parseAnswer(full('```python', '```'))).toEqual(want);
    expect(parseAnswer(full('```', '```'))).toEqual(want);
    expect(parseAnswer(full('~~~py', '~~~'))).toEqual(want);
    expect(parseAnswer(full('````python', '````'))).toEqual(want);
    expect(parseAnswer(full('```python', ''))).toEqual(want);
  });

  it('keeps a shorter fence inside the code, and stops a tag-less fence at its first close', () => {
    const code = 'def f():\n    """\n    ```\n    f()\n    ```\n    """';
    expect(parseAnswer(`<CODE>\n\`\`\`python\n${code}\n\`\`\`\n</CODE>`)).toMatchObject({ ok: true, answer: { code } });
    expect(parseAnswer('Here:\n```python\nx = 1\n```\nand an example:\n```\nother\n```\n')).toMatchObject({ ok: true, answer: { kind: 'full', code: 'x = 1', name: '' } });
  });

  it('reads an unfenced <CODE> section without its padding lines', () => {
    expect(parseAnswer('<CODE>\n\nx = 1\ny = 2\n\n</CODE>')).toMatchObject({ ok: true, answer: { kind: 'full', code: 'x = 1\ny = 2' } });
  });

  it('ignores a lone ======= line between blocks (a Markdown underline)', () => {
    const r = parseAnswer('<DIFF>\nTitle\n=======\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n</DIFF>');
    expect(r).toMatchObject({ ok: true, answer: { edits: [{ search: 'a', replace: 'b', line: 4 }] } });
  });

  it('reads the last section that holds something of its kind: a tag named in prose, or an abandoned draft, is not the answer (#25)', () => {
    const block = (a: string, b: string) => `<<<<<<< SEARCH\n${a}\n=======\n${b}\n>>>>>>> REPLACE`;
    // Prose naming both tags, then the real diff.
    expect(parseAnswer(`I will send a <DIFF> rather than a <CODE> rewrite.\n<DIFF>\n${block('a', 'b')}\n</DIFF>`)).toMatchObject({ ok: true, answer: { kind: 'diff', edits: [{ search: 'a', replace: 'b' }] } });
    // A draft diff, abandoned, then the final one.
    expect(parseAnswer(`<DIFF>\n${block('a', 'draft')}\n</DIFF>\nNo, better:\n<DIFF>\n${block('a', 'final')}\n</DIFF>`)).toMatchObject({ ok: true, answer: { edits: [{ replace: 'final' }] } });
    // An empty <DIFF> named before a real <CODE> section.
    expect(parseAnswer('<DIFF>\n</DIFF>\n<CODE>x</CODE>')).toMatchObject({ ok: true, answer: { kind: 'full', code: 'x' } });
    // Both kinds: the one the proposal asked for.
    const both = `<DIFF>\n${block('a', 'b')}\n</DIFF>\n<CODE>\n\`\`\`\nx = 1\n\`\`\`\n</CODE>`;
    expect(parseAnswer(both, 'diff')).toMatchObject({ ok: true, answer: { kind: 'diff' } });
    expect(parseAnswer(both, 'full')).toMatchObject({ ok: true, answer: { kind: 'full', code: 'x = 1' } });
  });

  it('reads SEARCH/REPLACE marker lines of 5 to 9 characters, as Aider does', () => {
    expect(parseAnswer('<DIFF>\n<<<<<< SEARCH\na\n=========\nb\n>>>>>>>>> REPLACE\n</DIFF>')).toMatchObject({ ok: true, answer: { edits: [{ search: 'a', replace: 'b' }] } });
    expect(parseAnswer('<DIFF>\n<<<< SEARCH\na\n====\nb\n>>>> REPLACE\n</DIFF>')).toMatchObject({ ok: false, error: { kind: 'malformedDiff' } });
  });

  it.each([
    ['empty', '\n \t\n', 'The answer was empty.'],
    ['noProposal', 'Maybe try a lattice.', 'The answer has neither a <DIFF> nor a <CODE> section.'],
    ['bothKinds', '<DIFF>\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n</DIFF>\n<CODE>x</CODE>', 'The answer has both a <DIFF> and a <CODE> section'],
    ['malformedDiff', '<DIFF>\n<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n</DIFF>', 'SEARCH/REPLACE block 1 (answer line 2) has no "=======" line'],
    ['malformedDiff', '<DIFF>\n<<<<<<< SEARCH\na\n=======\nb\n<<<<<<< SEARCH\n</DIFF>', 'SEARCH/REPLACE block 1 (answer line 2) is not closed'],
    ['noCode', '<CODE>\n```python\n```\n</CODE>', 'The <CODE> section is empty'],
  ])('says %s in words the proposer can act on', (kind, text, message) => {
    const r = parseAnswer(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe(kind);
      expect(r.error.message).toContain(message);
    }
  });
});
