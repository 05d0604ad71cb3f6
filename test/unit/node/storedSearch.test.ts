// run.json keeps a code search's program, spec files and support files relative to its workspace,
// and the face's model and price choices, so a resume in a copied or moved folder finds its own
// files and calls and counts as the run did; an older run.json with absolute paths under the
// workspace it started in is mapped the same way, and a file outside any workspace stays where it is.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src/core/journal/journal';
import { promptPathOfRun } from '../../../src/node/runs/storedRun';
import { locateSearch, storeSearch } from '../../../src/node/runs/storedSearch';
import type { StoredSearch } from '../../../src/node/runs/storedSearch';
import { spec as searchSpec } from '../code/searchWorld';

const A = path.resolve('/work/a');
const B = path.resolve('/copies/b');
const OUTSIDE = path.resolve('/opt/shared/data.csv');

const started = {
  ...searchSpec('pace+', 4),
  programPath: path.join(A, 'src', 'step.mjs'),
  baseDir: path.join(A, 'src'),
  sources: [{ file: path.join(A, 'src', 'step.mjs.ratchet.yaml'), kind: 'sidecar' as const }],
  evaluator: { ...searchSpec('pace+', 4).evaluator, supportFiles: [path.join(A, 'src', 'evaluate.mjs'), OUTSIDE] },
};

describe('storeSearch and locateSearch', () => {
  it('keeps paths under the workspace relative, with /, and the face’s models and prices', () => {
    const stored = storeSearch(started, A, { roleModels: { proposer: 'p' }, prices: { p: { inputPerMTok: 1, outputPerMTok: 2 } }, free: undefined });
    expect(stored).toMatchObject({
      programPath: 'src/step.mjs',
      baseDir: 'src',
      sources: [{ file: 'src/step.mjs.ratchet.yaml', kind: 'sidecar' }],
      evaluator: { supportFiles: ['src/evaluate.mjs', OUTSIDE] },
      workspace: A,
      face: { roleModels: { proposer: 'p' }, prices: { p: { inputPerMTok: 1, outputPerMTok: 2 } } },
    });
    expect(stored.face).not.toHaveProperty('free');
  });

  it('locates them in the workspace the run is resumed in: a copy’s own files, the outside file as it was', () => {
    const stored = JSON.parse(JSON.stringify(storeSearch(started, A, {}))) as StoredSearch;
    const { spec, face } = locateSearch(stored, B);
    expect(spec.programPath).toBe(path.join(B, 'src', 'step.mjs'));
    expect(spec.baseDir).toBe(path.join(B, 'src'));
    expect(spec.sources[0]!.file).toBe(path.join(B, 'src', 'step.mjs.ratchet.yaml'));
    expect(spec.evaluator.supportFiles).toEqual([path.join(B, 'src', 'evaluate.mjs'), OUTSIDE]);
    expect(spec).not.toHaveProperty('workspace');
    expect(face).toEqual({});
  });

  it('an older run.json (absolute paths, no workspace) resumes with its paths as written', () => {
    const { spec } = locateSearch(started, B);
    expect(spec.programPath).toBe(started.programPath);
    expect(spec.evaluator.supportFiles).toEqual(started.evaluator.supportFiles);
  });
});

describe('promptPathOfRun for a code search', () => {
  it('is the program in the workspace the run is resumed in', () => {
    const record: RunRecord = { format: 1, runId: '20261202-101010-000abc', kind: 'search', target: started.programPath, createdAt: '', seed: 1, version: 'test', spec: storeSearch(started, A, {}) };
    expect(promptPathOfRun(record, B)).toBe(path.join(B, 'src', 'step.mjs'));
  });
});
