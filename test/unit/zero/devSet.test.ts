// The generated dev set is an ordinary dataset with provenance (#17).
import { describe, expect, it } from 'vitest';
import { contentId } from '../../../src/core/data/item';
import { parseDataset } from '../../../src/core/data/dataset';
import { devSetJsonl, generatedItemRecord } from '../../../src/core/zero/devSet';

describe('generated dev set', () => {
  const records = [
    generatedItemRecord({ question: 'Who wrote it?', context: 'Dickens wrote Bleak House.' }, { round: 1, difficulty: 0.5, dispersion: 0.5, challengerModel: 'gpt-x', split: 'dev' }),
    generatedItemRecord({ question: 'Which year?', context: 'Line one\nline "two"' }, { round: 2, difficulty: 0.25, dispersion: 0.433, challengerModel: 'gpt-x', split: 'test' }),
  ];

  it('reads back through the dataset loader with its variables and provenance, ids from content', () => {
    const text = devSetJsonl(records);
    expect(text.split('\n')).toHaveLength(3);
    const parsed = parseDataset('questions.generated.jsonl', text);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.items.map((i) => [i.id, i.vars, i.metadata, i.expected])).toEqual(records.map((r) => [contentId(r.vars), r.vars, r.metadata, undefined]));
  });

  it('writes an empty file for no items', () => {
    expect(devSetJsonl([])).toBe('');
  });
});
