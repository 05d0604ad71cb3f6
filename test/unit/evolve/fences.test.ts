import { describe, expect, it } from 'vitest';
import { fence } from '../../../src/core/evolve/fences';
import { readAnswerBlock } from '../../../src/core/llm/answerBlock';

describe('fence', () => {
  it('is one backtick longer than the longest run inside, at least three', () => {
    expect(fence('plain', 'data')).toBe('```data\nplain\n```');
    expect(fence('a ``` b ````` c ` d')).toBe('``````\na ``` b ````` c ` d\n``````');
  });

  // #14: the lengths of every run used to be spread into Math.max, which overflows the call stack.
  it('handles a text of 200k backtick runs', () => {
    const text = 'x`'.repeat(200_000) + ' ````';
    const fenced = fence(text, 'data');
    expect(fenced.startsWith('`````data\n')).toBe(true);
    expect(fenced.endsWith('\n`````')).toBe(true);
    const lines = { open: '<<<DATA-0>>>', close: '<<<END DATA-0>>>' };
    expect(readAnswerBlock(fenced, lines, { infos: ['data'], what: 'the data' })).toEqual({ ok: true, value: { text, before: '' } });
  });
});
