import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { bodyForModel, parsePromptFile, promptFileDiagnostics, promptKindOf, splitFrontMatter, withBody } from '../../../src/core/prompt/promptFile';

const ODD = ['---   ', '# a comment the user wants kept', "description:   'Solve it'   ", 'tools: [ a,b ]', '', 'ratchet:', '    gate:  pace+', '---', 'You are a careful solver.', '', 'Question: {{ question }}', ''].join('\n');

describe('prompt files: front matter kept byte for byte', () => {
  it.each([
    ['LF with odd spacing and comments', ODD],
    ['CRLF', ODD.replace(/\n/g, '\r\n')],
    ['BOM', `\uFEFF${ODD}`],
    ['empty front matter', '---\n---\nbody\n'],
    ['no final newline', '---\na: 1\n---\nbody'],
    ['front matter only', '---\na: 1\n---'],
    ['no front matter', 'Just a body {{x}}\n'],
    ['dashes later in the body', 'intro\n---\nnot: front matter\n---\n'],
  ])('%s: withBody(file, file.body) is the original text', (_, text) => {
    const file = parsePromptFile('p.prompt.md', text);
    expect(withBody(file, file.body)).toBe(text);
    expect(file.frontMatterRaw + file.body).toBe(text);
  });

  it('splits front matter and body with positions', () => {
    const file = parsePromptFile('word.prompt.md', ODD);
    expect(file).toMatchObject({
      kind: 'prompt-md',
      frontMatter: { description: 'Solve it', tools: ['a', 'b'], ratchet: { gate: 'pace+' } },
      body: 'You are a careful solver.\n\nQuestion: {{ question }}\n',
      bodyLine: 9,
      frontMatterLine: 2,
      eol: '\n',
    });
    expect(file.text.slice(file.bodyOffset)).toBe(file.body);
  });

  it('replaces only the body and keeps CRLF', () => {
    const crlf = ODD.replace(/\n/g, '\r\n');
    const file = parsePromptFile('p.prompt.md', crlf);
    const out = withBody(file, 'New body line 1\nline 2\n');
    expect(out).toBe(`${file.frontMatterRaw}New body line 1\r\nline 2\r\n`);
    expect(out.startsWith(file.frontMatterRaw)).toBe(true);
    expect(out.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('keeps a final line ending the old body had, and gives the model LF text', () => {
    const file = parsePromptFile('p.prompt.md', '---\r\na: 1\r\n---\r\nold\r\n');
    expect(withBody(file, 'new')).toBe('---\r\na: 1\r\n---\r\nnew\r\n');
    expect(bodyForModel(file)).toBe('old\n');
    const noFinal = parsePromptFile('p.prompt.md', '---\na: 1\n---\nold');
    expect(withBody(noFinal, 'new')).toBe('---\na: 1\n---\nnew');
  });

  it('treats plain .md and .txt as all body, .prompty with front matter', () => {
    const text = '---\ntitle: x\n---\nbody\n';
    expect(parsePromptFile('notes.md', text)).toMatchObject({ kind: 'markdown', frontMatter: undefined, body: text, bodyLine: 1 });
    expect(parsePromptFile('notes.txt', text)).toMatchObject({ kind: 'text', body: text });
    expect(parsePromptFile('chat.prompty', text)).toMatchObject({ kind: 'prompty', frontMatter: { title: 'x' }, body: 'body\n' });
    expect(promptKindOf('A.PROMPT.MD')).toBe('prompt-md');
  });

  it('reports an unclosed front matter at line 1', () => {
    expect(promptFileDiagnostics('p.prompt.md', '---\na: 1\nbody\n')).toEqual([
      { file: 'p.prompt.md', line: 1, column: 1, endLine: 1, endColumn: 4, severity: 'error', message: 'front matter opened with --- is never closed; add a --- line after it' },
    ]);
    expect(splitFrontMatter('---\na: 1\n')).toEqual({ unclosedLine: 1 });
  });

  it('throws badInput at the file line of a YAML error in a front matter that holds a ratchet: block', () => {
    const text = '---\ndescription: ok\nbad: [unclosed\nratchet:\n  seed: 1\n---\nbody\n';
    let err: unknown;
    try {
      parsePromptFile('p.prompt.md', text);
    } catch (e) {
      err = e;
    }
    expect(RatchetError.is(err, 'badInput')).toBe(true);
    expect((err as RatchetError).message).toMatch(/^p\.prompt\.md:[34]:\d+: not valid YAML/);
  });

  it('leaves a Copilot front matter that strict YAML refuses to Copilot: no problem, the body found by its fences', () => {
    // VS Code reads both; strict YAML sees an alias (*) and a nested mapping.
    const text = '---\napplyTo: **/*.py\ndescription: Use when: reviewing Python\n---\nReview it.\n';
    expect(promptFileDiagnostics('.github/instructions/py.instructions.md', text)).toEqual([]);
    expect(parsePromptFile('.github/instructions/py.instructions.md', text)).toMatchObject({ kind: 'instructions-md', frontMatter: undefined, body: 'Review it.\n', bodyLine: 5 });
    expect(withBody(parsePromptFile('a.prompt.md', text), 'New.\n')).toBe('---\napplyTo: **/*.py\ndescription: Use when: reviewing Python\n---\nNew.\n');
  });

  it('rejects front matter that is not a mapping', () => {
    expect(() => parsePromptFile('p.prompt.md', '---\n- a\n- b\n---\nbody\n')).toThrow('p.prompt.md:2:1: front matter must be a YAML mapping');
  });
});
