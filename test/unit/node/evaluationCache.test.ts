// Evaluations on disk: the same program on the same instances through the same evaluator runs
// once; a deliberate repeat (is the evaluator repeatable?) and another evaluator do run. An entry
// that is not one (torn, edited, `{}`, `null`, another key's) is evaluated again, and said.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProgramEvaluator } from '../../../src/core/code/search';
import { cachedEvaluator, evaluationKey, readEntry } from '../../../src/node/runs/evaluationCache';
import { NodeFiles } from '../../../src/node/files';

const signal = new AbortController().signal;

describe('evaluation cache', () => {
  it('answers a repeated evaluation from disk, across cache instances, but not a repeat or another evaluator', async () => {
    const files = new NodeFiles();
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-evalcache-'));
    let runs = 0;
    const inner: ProgramEvaluator = async (text) => ({ correct: true, score: text.length + runs++ / 1000 });
    const first = cachedEvaluator(files, dir, 'evaluator-a', inner);
    const a = await first.evaluate('print(1)', ['i1', 'i2'], signal);
    // A new process (a resume) reads what the killed one kept.
    const second = cachedEvaluator(files, dir, 'evaluator-a', inner);
    expect(await second.evaluate('print(1)', ['i1', 'i2'], signal)).toEqual(a);
    expect(second.stats).toEqual({ hits: 1, runs: 0 });
    expect((await second.evaluate('print(1)', ['i1', 'i2'], signal, 1)).score).not.toBe(a.score);
    expect((await second.evaluate('print(1)', ['i1'], signal)).score).not.toBe(a.score);
    const other = cachedEvaluator(files, dir, 'evaluator-b', inner);
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

  it.each([
    ['{}', 'it is not an evaluation cache entry of format 2'],
    ['null', 'it is not an evaluation cache entry of format 2'],
    ['{"correct": true, "score": 3}', 'it is not an evaluation cache entry of format 2'],
    ['{"format": 2, "key": "KEY", "evaluation": null}', 'its evaluation is not an object'],
    ['{"format": 2, "key": "KEY", "evaluation": {"score": 3}}', 'its evaluation has no true/false "correct"'],
    ['{"format": 2, "key": "KEY", "evaluation": {"correct": true}}', 'its evaluation is correct with neither a score nor instance scores'],
    ['{"format": 2, "key": "KEY", "evaluation": {"correct": true, "score": "9"}}', 'its evaluation has a score that is not a finite number'],
    ['{"format": 2, "key": "KEY", "evaluation": {"correct": true, "score": 1, "instances": {"a": "x"}}}', 'its evaluation has instance scores that are not finite numbers'],
    ['{"format": 2, "key": "other", "evaluation": {"correct": true, "score": 1}}', 'it holds the entry of another key (moved or copied by hand?)'],
    ['{"format": 2, "key": "KEY", "evaluation": {"correct": true, "score": 1', expect.stringMatching(/^it is not JSON \(.*; torn by a crash\?\)$/)],
  ])('a bad entry (%s) is evaluated again, rewritten, and named', async (text, why) => {
    const files = new NodeFiles();
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-evalcache-'));
    const key = evaluationKey('evaluator-a', 'print(1)', undefined);
    const file = join(dir, key.slice(0, 2), `${key}.json`);
    const bad: { file: string; why: string }[] = [];
    let runs = 0;
    const inner: ProgramEvaluator = async () => ({ correct: true, score: ++runs });
    const cache = cachedEvaluator(files, dir, 'evaluator-a', inner, (f, w) => bad.push({ file: f, why: w }));
    await cache.evaluate('print(1)', undefined, signal);
    writeFileSync(file, text.replaceAll('KEY', key));
    expect(await cache.evaluate('print(1)', undefined, signal)).toEqual({ correct: true, score: 2 });
    expect(bad).toEqual([{ file, why }]);
    // Rewritten: the next look finds a good entry.
    expect(await cachedEvaluator(files, dir, 'evaluator-a', inner).evaluate('print(1)', undefined, signal)).toEqual({ correct: true, score: 2 });
    expect(readdirSync(join(dir, key.slice(0, 2)))).toEqual([`${key}.json`]);
  });

  it('reads a good entry whole, the sandbox notes included', () => {
    const evaluation = { correct: false, error: 'x', isolation: { tier: 'jail', network: 'off' }, incidents: ['the evaluation hit its disk limit (1 MB in its sandbox)'] };
    expect(readEntry(JSON.stringify({ format: 2, key: 'k', evaluation }), 'k')).toEqual(evaluation);
    expect(readEntry(JSON.stringify({ format: 2, key: 'k', evaluation: { ...evaluation, isolation: { tier: 'sort of', network: 'off' } } }), 'k')).toBe('its evaluation names an unknown isolation');
  });
});
