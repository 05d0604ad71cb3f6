import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { changedSpan } from '../../../src/server/textChange';

const applied = (base: string, next: string): string => {
  const { range, replacement } = changedSpan(base, next);
  const doc = TextDocument.create('untitled:x', 'plaintext', 0, base);
  return base.slice(0, doc.offsetAt(range.start)) + replacement + base.slice(doc.offsetAt(range.end));
};
const replaced = (base: string, next: string): string => {
  const { range } = changedSpan(base, next);
  const doc = TextDocument.create('untitled:x', 'plaintext', 0, base);
  return base.slice(doc.offsetAt(range.start), doc.offsetAt(range.end));
};

const pairs: [string, string][] = [
  ['Solve it.\n', 'Solve it step by step.\n'],
  ['a\nb\n', 'a\nnew\nb\n'],
  ['a\nb', 'a\nb\nc'],
  ['one\r\ntwo\r\n', 'one\r\nX\r\ntwo\r\n'],
  ['x😀y', 'x😀😀y'],
  ['😀', '😀😀'],
  ['abc', 'abXc'],
  ['abc', 'ac'],
  ['', 'new'],
  ['same', 'same'],
  ['keep\ndrop this', 'keep\n'],
];

describe('the span an Accept edit replaces', () => {
  it.each(pairs)('reproduces the new text from %j', (base, next) => {
    expect(applied(base, next)).toBe(next);
  });

  it('replaces the smallest span, one character wider where the change only inserts', () => {
    expect(replaced('abc', 'abXc')).toBe('c');
    expect(replaced('abc', 'ac')).toBe('b');
    expect(replaced('Solve it.\n', 'Solve it step by step.\n')).toBe('.');
    // At the end of the text the character before is taken along.
    expect(replaced('a\nb', 'a\nb\nc')).toBe('b');
  });

  it('never splits a CRLF or a surrogate pair when it takes a character along', () => {
    expect(replaced('one\r\ntwo\r\n', 'one\r\nX\r\ntwo\r\n')).toBe('t');
    expect(replaced('a\r\n', 'a!\r\n')).toBe('\r\n');
    expect(replaced('x😀y', 'xZ😀y')).toBe('😀');
    expect(replaced('😀', '😀😀')).toBe('😀');
  });

  it('is empty only when nothing changes or there was no text', () => {
    expect(replaced('same', 'same')).toBe('');
    expect(replaced('', 'new')).toBe('');
  });
});
