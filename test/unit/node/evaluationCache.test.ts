// Evaluations on disk: the same program on the same instances through the same evaluator runs
// once; a deliberate repeat (is the evaluator repeatable?) and another evaluator do run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProgramEvaluator } from '../../../src/core/code/search';
import { cachedEvaluator, evaluatorIdentity } from '../../../src/node/runs/evaluationCache';
import { NodeFiles } from '../../../src/node/files';

describe('evaluation cache', () => {
  it('answers a repeated evaluation from disk, across cache instances, but not a repeat or another evaluator', async () => {
    const files = new NodeFiles();
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-evalcache-'));
    let runs = 0;
    const inner: ProgramEvaluator = async (text) => ({ correct: true, score: text.length + runs++ / 1000 });
    const signal = new AbortController().signal;
    const id = await evaluatorIdentity(files, { spec: { command: 'node e.mjs {program} {results}' }, filesRun: [] });
    const first = cachedEvaluator(files, dir, id, inner);
    const a = await first.evaluate('print(1)', ['i1', 'i2'], signal);
    // A new process (a resume) reads what the killed one kept.
    const second = cachedEvaluator(files, dir, id, inner);
    expect(await second.evaluate('print(1)', ['i1', 'i2'], signal)).toEqual(a);
    expect(second.stats).toEqual({ hits: 1, runs: 0 });
    expect((await second.evaluate('print(1)', ['i1', 'i2'], signal, 1)).score).not.toBe(a.score);
    expect((await second.evaluate('print(1)', ['i1'], signal)).score).not.toBe(a.score);
    const other = cachedEvaluator(files, dir, await evaluatorIdentity(files, { spec: { command: 'node f.mjs {program} {results}' }, filesRun: [] }), inner);
    expect((await other.evaluate('print(1)', ['i1', 'i2'], signal)).score).not.toBe(a.score);
    expect(runs).toBe(4);
  });

  it('keeps nothing of a cancelled evaluation', async () => {
    const files = new NodeFiles();
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-evalcache-'));
    const controller = new AbortController();
    let runs = 0;
    const inner: ProgramEvaluator = async () => {
      runs++;
      controller.abort();
      return { correct: false, error: 'cancelled' };
    };
    const cache = cachedEvaluator(files, dir, 'x', inner);
    await cache.evaluate('p', undefined, controller.signal);
    await cachedEvaluator(files, dir, 'x', inner).evaluate('p', undefined, new AbortController().signal);
    expect(runs).toBe(2);
  });
});
