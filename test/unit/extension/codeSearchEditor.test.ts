// The editor's side of a code search that needs no VS Code: which lines are shaded and which are
// marked frozen, the colours the manifest must contribute for them, and Test Evaluator's words.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBlocks } from '../../../src/core/code/blocks';
import { testEvaluatorReport } from '../../../src/extension/commands/testEvaluatorText';
import { EVOLVE_BLOCK_COLORS, blockLines } from '../../../src/extension/views/blockLines';

describe('blockLines', () => {
  it('shades the lines between the markers and marks the rest, marker lines included, frozen', () => {
    const text = 'import x\n# EVOLVE-BLOCK-START\na = 1\nb = 2\n# EVOLVE-BLOCK-END\nrun()\n# EVOLVE-BLOCK-START\nc = 3\n# EVOLVE-BLOCK-END\n';
    expect(blockLines(parseBlocks(text), 9)).toEqual({
      mutable: [
        [3, 4],
        [8, 8],
      ],
      frozen: [
        [1, 2],
        [5, 7],
        [9, 9],
      ],
    });
  });

  it('leaves an empty block unshaded and marks nothing past the last line', () => {
    const text = '# EVOLVE-BLOCK-START\n# EVOLVE-BLOCK-END\n';
    expect(blockLines(parseBlocks(text), 2)).toEqual({ mutable: [], frozen: [[1, 2]] });
  });

  it('keeps the inner markers of a nested block inside the shade only as frozen lines', () => {
    const text = '# EVOLVE-BLOCK-START\na\n# EVOLVE-BLOCK-START\nb\n# EVOLVE-BLOCK-END\nc\n# EVOLVE-BLOCK-END\n';
    expect(blockLines(parseBlocks(text), 7)).toEqual({
      mutable: [
        [2, 2],
        [4, 4],
        [6, 6],
      ],
      frozen: [
        [1, 1],
        [3, 3],
        [5, 5],
        [7, 7],
      ],
    });
  });

  it('uses colours the manifest contributes, each with a light, dark and high-contrast default', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { colors: { id: string; defaults: Record<string, string> }[] } };
    for (const id of Object.values(EVOLVE_BLOCK_COLORS)) {
      const color = pkg.contributes.colors.find((c) => c.id === id);
      expect(Object.keys(color?.defaults ?? {}).sort()).toEqual(['dark', 'highContrast', 'highContrastLight', 'light']);
    }
  });
});

describe('testEvaluatorReport', () => {
  it('gives the score, instances and metrics of a program the evaluator accepts', () => {
    const r = testEvaluatorReport('pack.mjs', { command: 'node evaluate.mjs {program} {results}', correct: true, score: 1.9169561144739518, instances: 0, metrics: { circles: 26, valid: true }, ms: 1234 });
    expect(r).toEqual({
      ok: true,
      message: 'Ratchet: the evaluator works — pack.mjs is correct, combined_score 1.917; circles 26, valid true (1.2 s).',
      details: ['Test Evaluator on pack.mjs: node evaluate.mjs {program} {results}, 1.2 s.', 'Correct: combined_score 1.917; circles 26, valid true.'],
    });
  });

  it('says exactly why a run broke the contract, and keeps what the evaluator printed for the log', () => {
    const r = testEvaluatorReport('pack.mjs', { command: 'node broken.mjs {program}', correct: false, instances: 0, error: 'stdout holds no JSON object', output: 'stdout:\nhello', ms: 80 });
    expect(r.ok).toBe(false);
    expect(r.message).toBe('Ratchet: the evaluator found pack.mjs incorrect — stdout holds no JSON object.');
    expect(r.details).toEqual(['Test Evaluator on pack.mjs: node broken.mjs {program}, 0.1 s.', 'What it printed:\nstdout:\nhello', 'Incorrect: stdout holds no JSON object']);
  });
});
