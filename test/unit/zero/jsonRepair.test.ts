// The Challenger's task JSON, read as it meant it, every repair named (#25).
import { describe, expect, it } from 'vitest';
import { parseChallengerAnswer } from '../../../src/core/zero/challengerFormat';
import { parseModelJson } from '../../../src/core/zero/jsonRepair';

describe('parseModelJson', () => {
  it.each([
    ['clean JSON needs nothing', '{"a": 1, "b": "x"}', { a: 1, b: 'x' }, []],
    ['a ```json fence', '```json\n{"a": 1}\n```', { a: 1 }, ['fence']],
    ['a label line', 'Task 3:\n{"a": 1}', { a: 1 }, ['label']],
    ['a trailing comma', '{"a": 1, "b": [1, 2,],}', { a: 1, b: [1, 2] }, ['trailingComma']],
    ['comments', '{\n  "a": 1, // the first\n  /* the second */ "b": 2\n}', { a: 1, b: 2 }, ['comment']],
    ['a raw line break in a string', '{"text": "line one\nline two"}', { text: 'line one\nline two' }, ['lineBreak']],
    ['all at once', 'JSON:\n```json\n{"q": "a\nb", // note\n "n": 2,}\n```', { q: 'a\nb', n: 2 }, ['fence', 'label', 'comment', 'trailingComma', 'lineBreak']],
  ])('%s', (_name, text, value, repairs) => {
    expect(parseModelJson(text)).toEqual({ ok: true, value, repairs });
  });

  it('a comma or slashes inside a string are not repairs', () => {
    expect(parseModelJson('{"url": "http://x/y", "list": "a, }"}')).toEqual({ ok: true, value: { url: 'http://x/y', list: 'a, }' }, repairs: [] });
  });

  it('prose is not JSON, and is not made into any', () => {
    expect(parseModelJson('I could not think of a task.')).toMatchObject({ ok: false });
  });
});

describe("the Challenger's answer", () => {
  it('keeps tasks whose JSON needed repair and counts every repair; a missing variable is still a discard', () => {
    const answer = [
      '<question>\n```json\n{"question": "What is 2 + 2?", "context": "none",}\n```\n</question>',
      '<question>\nTask:\n{"question": "What is 3 + 3?", // easy\n "context": "a\nb"}\n</question>',
      '<question>\n{"question": "What is 4 + 4?",}\n</question>',
    ].join('\n');
    const parsed = parseChallengerAnswer(answer, { variables: ['question', 'context'] });
    expect(parsed.tasks.map((t) => t.vars)).toEqual([
      { question: 'What is 2 + 2?', context: 'none' },
      { question: 'What is 3 + 3?', context: 'a\nb' },
    ]);
    expect(parsed.counts.missingVariable).toBe(1);
    expect(parsed.repairs).toEqual({ fence: 1, label: 1, comment: 1, trailingComma: 2, lineBreak: 1, other: 0 });
  });
});
