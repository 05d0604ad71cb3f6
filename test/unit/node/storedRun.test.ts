// run.json keeps an evolve run's paths relative to its workspace, so a resume finds the prompt file
// (and a --data file) in the workspace it is given, also for run.json files written with absolute paths.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import type { RunRecord } from '../../../src/core/journal/journal';
import type { RunSpec } from '../../../src/core/run/specTypes';
import { locateRun, promptPathOfRun, storeRun, storedRunOf } from '../../../src/node/runs/storedRun';
import type { StoredRun } from '../../../src/node/runs/storedRun';

const A = path.resolve('/work/a');
const B = path.resolve('/copies/b');
const spec = { seed: 1 } as RunSpec;

function record(stored: unknown, kind: RunRecord['kind'] = 'evolve'): RunRecord {
  return { format: 1, runId: '20261129-223412-000abc', kind, target: path.join(A, 'p', 'x.prompt.md'), createdAt: '', seed: 1, version: 'test', spec: stored };
}

describe('storeRun', () => {
  it('keeps the prompt and a --data file relative to the workspace, with /', () => {
    const stored = storeRun({
      promptPath: path.join(A, 'p', 'x.prompt.md'),
      workspace: A,
      overrides: { dataset: path.join(A, 'data', 'more.jsonl'), seed: 3, baseURL: 'http://127.0.0.1:9/v1' },
      inputsHash: 'h',
      spec,
    });
    expect(stored).toEqual({
      promptPath: 'p/x.prompt.md',
      workspace: A,
      overrides: { dataset: 'data/more.jsonl', seed: 3, baseURL: 'http://127.0.0.1:9/v1' },
      inputsHash: 'h',
      spec,
    });
  });

  it('keeps a file outside the workspace absolute: copying the workspace does not copy it', () => {
    const outside = path.resolve('/elsewhere/x.prompt.md');
    expect(storeRun({ promptPath: outside, workspace: A, overrides: {}, inputsHash: 'h', spec }).promptPath).toBe(outside);
  });
});

describe('locateRun', () => {
  const stored: StoredRun = { promptPath: 'p/x.prompt.md', workspace: A, overrides: { dataset: 'data/more.jsonl', gate: 'pace' }, inputsHash: 'h', spec };

  it('finds relative paths in the workspace it is resumed in', () => {
    expect(locateRun(stored, B)).toEqual({ promptPath: path.join(B, 'p', 'x.prompt.md'), overrides: { dataset: path.join(B, 'data', 'more.jsonl'), gate: 'pace' } });
  });

  it('maps an older run.json’s absolute paths under the workspace it started in to the same place in this one', () => {
    const old: StoredRun = { ...stored, promptPath: path.join(A, 'p', 'x.prompt.md'), overrides: { dataset: path.join(A, 'data', 'more.jsonl') } };
    expect(locateRun(old, B)).toEqual({ promptPath: path.join(B, 'p', 'x.prompt.md'), overrides: { dataset: path.join(B, 'data', 'more.jsonl') } });
    expect(locateRun(old, A).promptPath).toBe(path.join(A, 'p', 'x.prompt.md'));
  });

  it('leaves an absolute path outside the starting workspace where it is', () => {
    const outside = path.resolve('/elsewhere/x.prompt.md');
    expect(locateRun({ ...stored, promptPath: outside }, B).promptPath).toBe(outside);
    // A sibling whose name starts like the workspace's is outside it too.
    expect(locateRun({ ...stored, promptPath: path.resolve('/work/ab/x.prompt.md') }, B).promptPath).toBe(path.resolve('/work/ab/x.prompt.md'));
  });
});

describe('storedRunOf and promptPathOfRun', () => {
  it('refuses a record that is not a resumable evolve run, naming it', () => {
    const err = (() => {
      try {
        return storedRunOf(record({ gate: 'pace+' }));
      } catch (e) {
        return e;
      }
    })();
    expect(RatchetError.is(err, 'badInput')).toBe(true);
    expect((err as Error).message).toBe('Run 20261129-223412-000abc is not an evolve run this version can resume.');
  });

  it('names the prompt file in the workspace given; the record’s target for other runs', () => {
    expect(promptPathOfRun(record({ promptPath: 'p/x.prompt.md', workspace: A, overrides: {} }), B)).toBe(path.join(B, 'p', 'x.prompt.md'));
    expect(promptPathOfRun(record({}, 'evaluate'), B)).toBe(path.join(A, 'p', 'x.prompt.md'));
  });
});
