// The Challenger's `<question>` format (#17): tasks kept, malformed blocks discarded and counted by reason.
import { describe, expect, it } from 'vitest';
import { parseChallengerAnswer, questionBlock, taskText } from '../../../src/core/zero/challengerFormat';

const TWO = ['question', 'context'];

describe('one-variable prompt: the block is the value', () => {
  it('keeps each closed block as a task, trimmed, in order', () => {
    const answer = 'Here are two tasks.\n<question>\nWhat is 7 × 8?\n</question>\nand\n<QUESTION>Name a prime over 100.</Question>';
    const parsed = parseChallengerAnswer(answer, { variables: ['question'] });
    expect(parsed.tasks).toEqual([
      { vars: { question: 'What is 7 × 8?' }, text: 'What is 7 × 8?', block: 0 },
      { vars: { question: 'Name a prime over 100.' }, text: 'Name a prime over 100.', block: 1 },
    ]);
    expect(parsed.discards).toEqual([]);
  });

  it('counts an unclosed block, an orphan close, an empty block and an over-long one', () => {
    const answer = ['<question>Left open', '<question>Fine one</question>', 'stray text</question>', '<question>   </question>', `<question>${'x'.repeat(51)}</question>`, '<question>Also open at the end'].join('\n');
    const parsed = parseChallengerAnswer(answer, { variables: ['question'], maxChars: 50 });
    expect(parsed.tasks.map((t) => t.text)).toEqual(['Fine one']);
    expect(parsed.counts).toEqual({ missingTag: 1, unclosedTag: 2, notJson: 0, missingVariable: 0, empty: 1, overLength: 1 });
    expect(parsed.discards.find((d) => d.reason === 'overLength')?.detail).toBe('51 characters, over the limit of 50');
  });

  it('counts each task asked for and never written as a missing tag', () => {
    const parsed = parseChallengerAnswer('I cannot think of any. <question>One</question>', { variables: ['q'], requested: 4 });
    expect(parsed.tasks).toHaveLength(1);
    expect(parsed.counts.missingTag).toBe(3);
    expect(parseChallengerAnswer('no tags at all', { variables: ['q'], requested: 2 }).counts.missingTag).toBe(2);
  });
});

describe('several variables: a JSON object per block', () => {
  it('keeps the prompt variables only, from plain or fenced JSON', () => {
    const answer = [
      '<question>{"question": "Who wrote it?", "context": "Dickens wrote Bleak House.", "extra": 1}</question>',
      '<question>\n```json\n{"context": "Water boils at 100 °C.", "question": "At what temperature?"}\n```\n</question>',
    ].join('\n');
    const parsed = parseChallengerAnswer(answer, { variables: TWO });
    expect(parsed.tasks.map((t) => t.vars)).toEqual([
      { question: 'Who wrote it?', context: 'Dickens wrote Bleak House.' },
      { question: 'At what temperature?', context: 'Water boils at 100 °C.' },
    ]);
    expect(parsed.tasks[0]!.text).toBe('Who wrote it?\nDickens wrote Bleak House.');
  });

  it('discards a block that is not an object, lacks a variable or leaves one empty', () => {
    const answer = [
      '<question>Who wrote it? (plain text where JSON was asked)</question>',
      '<question>["question", "context"]</question>',
      '<question>{"question": "Only one"}</question>',
      '<question>{"question": "Null context", "context": null}</question>',
      '<question>{"question": "", "context": "Blank question"}</question>',
      '<question>{"question": "Kept", "context": {"table": [1, 2]}}</question>',
    ].join('\n');
    const parsed = parseChallengerAnswer(answer, { variables: TWO });
    expect(parsed.counts).toEqual({ missingTag: 0, unclosedTag: 0, notJson: 2, missingVariable: 2, empty: 1, overLength: 0 });
    expect(parsed.discards.filter((d) => d.reason === 'missingVariable').map((d) => [d.block, d.detail])).toEqual([
      [2, 'no value for "context"'],
      [3, 'no value for "context"'],
    ]);
    expect(parsed.tasks).toEqual([{ vars: { question: 'Kept', context: { table: [1, 2] } }, text: 'Kept\n{"table":[1,2]}', block: 5 }]);
  });
});

describe('the formatter is the parser inverse', () => {
  it('round-trips one and several variables', () => {
    const one = { q: 'A task\nover two lines' };
    expect(parseChallengerAnswer(questionBlock(one, ['q']), { variables: ['q'] }).tasks[0]!.vars).toEqual(one);
    const two = { question: 'Q?', context: 'C.' };
    expect(parseChallengerAnswer(questionBlock(two, TWO), { variables: TWO }).tasks[0]!.vars).toEqual(two);
    expect(taskText(two, TWO)).toBe('Q?\nC.');
  });
});
