// Broken inputs on disk, loaded through the same path the CLI and the server use: every problem
// comes back at once, each with its file, line and column.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/data/diagnostics';
import type { Diagnostic } from '../../../src/core/data/diagnostics';
import { RatchetError } from '../../../src/core/errors';
import { loadRunInputs } from '../../../src/core/setup/spec';
import { diskFiles } from '../data/fakeFiles';

const files = diskFiles(path.resolve(__dirname, '../../fixtures/bad-inputs'));

async function problems(prompt: string): Promise<string[]> {
  const err = await loadRunInputs(files, prompt).catch((e: unknown) => e);
  if (!RatchetError.is(err, 'badInput')) throw new Error(`expected badInput, got ${String(err)}`);
  return (err.details.diagnostics as Diagnostic[]).filter((d) => d.severity === 'error').map(formatDiagnostic);
}

describe('broken input fixtures', () => {
  it('a run spec with a typo, wrong types and an unknown scorer option', async () => {
    expect(await problems('bad-spec/word.prompt.md')).toEqual([
      'bad-spec/word.ratchet.yaml:4:3: unknown key "tolerence" in scorer (did you mean "tolerance"?)',
      'bad-spec/word.ratchet.yaml:7:10: gate.alpha must be a number (got "0.05")',
      'bad-spec/word.ratchet.yaml:8:14: concurrency must be a whole number (got "many")',
    ]);
  });

  it('a dataset with bad JSON, a missing variable and a missing label', async () => {
    expect(await problems('bad-data/word.prompt.md')).toEqual([
      expect.stringMatching(/^bad-data\/problems\.jsonl:2:\d+: not valid JSON \(/),
      'bad-data/problems.jsonl:4:1: item has no expected answer, which scorer numeric needs',
      'bad-data/problems.jsonl:3:1: item has no "question" variable, which word.prompt.md uses on line 7',
    ]);
  });
});
