import { describe, expect, it } from 'vitest';
import { commandUsesInstances, expandCommand, fromRatchetOutput, fromShinkaResults, mergeShards, splitCommand, splitShards, withProcessOutcome } from '../../../src/core/code/evaluation';
import { parseJsonLenient } from '../../../src/core/code/pythonJson';
import { isSecretName } from '../../../src/core/code/evaluatorPort';
import { RatchetError } from '../../../src/core/errors';

const ok = { exitCode: 0, signal: null, timedOut: false, cancelled: false };

describe('fromRatchetOutput', () => {
  it('reads the whole contract from stdout', () => {
    const stdout = JSON.stringify({
      correct: true,
      combined_score: 2.61,
      instances: { 'inst-001': 0.93, 'inst-002': 1 },
      public: { n: 26 },
      private: { seed: 3 },
      text_feedback: 'tight packing',
    });
    expect(fromRatchetOutput(stdout)).toEqual({
      correct: true,
      score: 2.61,
      instances: { 'inst-001': 0.93, 'inst-002': 1 },
      public: { n: 26 },
      private: { seed: 3 },
      feedback: 'tight packing',
    });
  });

  it('reads the last JSON line after logs, and prefers metrics.json when written', () => {
    expect(fromRatchetOutput('compiling…\nrunning 3 cases\n{"combined_score": 1.5}\n')).toEqual({ correct: true, score: 1.5 });
    expect(fromRatchetOutput('{"combined_score": 1}', '{"correct": true, "combined_score": 4}')).toEqual({ correct: true, score: 4 });
  });

  it('averages instance scores when there is no combined_score; booleans count as 1/0', () => {
    expect(fromRatchetOutput('{"instances": {"a": true, "b": false, "c": 0.5}}')).toEqual({ correct: true, score: 0.5, instances: { a: 1, b: 0, c: 0.5 } });
  });

  it('takes instances from private.instances when there is no top-level instances', () => {
    expect(fromRatchetOutput('{"combined_score": 1, "private": {"instances": {"a": 1}}}')).toEqual({
      correct: true,
      score: 1,
      instances: { a: 1 },
      private: { instances: { a: 1 } },
    });
  });

  it.each([
    ['correct: false, with the reason', '{"correct": false, "error": "wrong size", "combined_score": 1}', { correct: false, error: 'wrong size', score: 1 }],
    ['correct: false, no reason', '{"correct": false}', { correct: false, error: 'the evaluator reported correct: false' }],
    ['a NaN score', '{"correct": true, "combined_score": NaN}', { correct: false, error: 'stdout: "combined_score" is NaN' }],
    ['an infinite score', '{"combined_score": -Infinity}', { correct: false, error: 'stdout: "combined_score" is -Infinity' }],
    ['a string score', '{"combined_score": "2.5"}', { correct: false, error: 'stdout: "combined_score" is "2.5", not a number' }],
    ['no score', '{"correct": true}', { correct: false, error: 'stdout: no "combined_score" (and no instance scores to average)' }],
    ['a non-finite instance score', '{"combined_score": 1, "instances": {"a": 1, "b": Infinity}}', { correct: false, error: 'stdout: instance "b" scored Infinity; instance scores must be finite numbers', score: 1 }],
    ['a non-numeric instance score', '{"combined_score": 1, "instances": {"a": "high"}}', { correct: false, error: 'stdout: instance "a" scored "high"; instance scores must be finite numbers', score: 1 }],
    ['instances as a list', '{"combined_score": 1, "instances": [1, 2]}', { correct: false, error: 'stdout: "instances" is an array, not an object of id → score', score: 1 }],
    ['correct as a string', '{"correct": "yes", "combined_score": 1}', { correct: false, error: 'stdout: "correct" is "yes", not true or false', score: 1 }],
    ['public not an object', '{"combined_score": 1, "public": 3}', { correct: false, error: 'stdout: "public" is 3, not an object', score: 1 }],
    ['a JSON array', '[1, 2]', { correct: false, error: 'stdout holds an array, not a JSON object' }],
    ['nothing', '', { correct: false, error: 'the evaluator printed no JSON object on stdout and wrote no {results}/metrics.json' }],
    ['logs only', 'done\n', { correct: false, error: 'the evaluator printed no JSON object on stdout and wrote no {results}/metrics.json' }],
  ])('an incorrect program: %s', (_what, stdout, expected) => {
    expect(fromRatchetOutput(stdout)).toEqual(expected);
  });

  it('says why unparsable output is incorrect', () => {
    expect(fromRatchetOutput('{"combined_score": 1,')).toEqual({ correct: false, error: expect.stringMatching(/^stdout is not JSON: /) });
    expect(fromRatchetOutput('', '{oops')).toEqual({ correct: false, error: expect.stringMatching(/^metrics\.json is not JSON: /) });
  });
});

describe('fromShinkaResults', () => {
  const metrics = JSON.stringify({ combined_score: 0.96, public: { centers: 26 }, private: { instances: { r1: 0.9, r2: 1 } }, text_feedback: 'ok', execution_time_mean: 3.7 });

  it('reads correct.json and metrics.json, instances from private.instances', () => {
    expect(fromShinkaResults('{"correct": true, "error": null}', metrics)).toEqual({
      correct: true,
      score: 0.96,
      instances: { r1: 0.9, r2: 1 },
      public: { centers: 26 },
      private: { instances: { r1: 0.9, r2: 1 } },
      feedback: 'ok',
    });
  });

  it('prefers top-level instances to private.instances', () => {
    expect(fromShinkaResults('{"correct": true}', '{"combined_score": 1, "instances": {"a": 0}, "private": {"instances": {"b": 1}}}')).toMatchObject({ instances: { a: 0 } });
  });

  it.each([
    [
      'correct: false keeps the metrics for the fix-up prompt',
      '{"correct": false, "error": "overlap"}',
      '{"combined_score": 0.0, "text_feedback": "circles 3 and 4 overlap"}',
      { correct: false, error: 'overlap', score: 0, feedback: 'circles 3 and 4 overlap' },
    ],
    ['no correct.json', undefined, metrics, { correct: false, error: 'the evaluator wrote no correct.json' }],
    ['no metrics.json', '{"correct": true, "error": null}', undefined, { correct: false, error: 'the evaluator wrote no metrics.json' }],
    ['neither', undefined, undefined, { correct: false, error: 'the evaluator wrote no correct.json' }],
    ['correct.json without "correct"', '{"error": null}', metrics, { correct: false, error: 'correct.json has no "correct" field' }],
    ['a NaN combined_score (json.dump writes NaN)', '{"correct": true, "error": null}', '{"combined_score": NaN}', { correct: false, error: 'metrics.json: "combined_score" is NaN' }],
    ['an incorrect program with an unreadable metrics.json', '{"correct": false, "error": "crash"}', '{', { correct: false, error: 'crash' }],
  ])('%s', (_what, correct, metricsText, expected) => {
    // An incorrect program keeps what metrics it has (Shinka's FIX mode shows them): match, not equal.
    expect(fromShinkaResults(correct, metricsText)).toMatchObject(expected);
  });

  it('says why an unparsable file is incorrect', () => {
    expect(fromShinkaResults('{"correct": tru', metrics).error).toMatch(/^correct\.json is not JSON: /);
    expect(fromShinkaResults('{"correct": true}', 'nope').error).toMatch(/^metrics\.json is not JSON: /);
  });
});

describe('withProcessOutcome', () => {
  const good = { correct: true, score: 2, feedback: 'f' };

  it('keeps a clean run as its outputs say', () => {
    expect(withProcessOutcome(ok, good)).toEqual(good);
  });

  it.each([
    ['a non-zero exit', { ...ok, exitCode: 2, stderr: 'Traceback…\nValueError: x\n' }, 'the evaluator exited with code 2: Traceback… | ValueError: x'],
    ['a shell reporting a child killed for file size', { ...ok, exitCode: 153 }, 'the evaluator exited with code 153 (128 + SIGXFSZ: its file-size limit)'],
    ['a signal', { ...ok, exitCode: null, signal: 'SIGXCPU' }, 'the evaluator was killed by SIGXCPU (its CPU-time limit)'],
    ['a timeout', { ...ok, exitCode: null, signal: 'SIGTERM', timedOut: true, timeoutMs: 1500 }, 'the evaluator did not finish within 1.5 s and was killed'],
    ['a cancel', { ...ok, exitCode: null, signal: 'SIGTERM', cancelled: true }, 'the evaluation was cancelled'],
  ])('makes the program incorrect after %s, whatever its outputs say', (_what, outcome, error) => {
    expect(withProcessOutcome(outcome, good)).toEqual({ correct: false, score: 2, feedback: 'f', error });
  });
});

describe('parseJsonLenient', () => {
  it('reads the non-finite tokens Python writes, outside strings only', () => {
    expect(parseJsonLenient('{"a": NaN, "b": [Infinity, -Infinity], "c": "NaN and Infinity"}')).toEqual({
      value: { a: Number.NaN, b: [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY], c: 'NaN and Infinity' },
    });
    expect(parseJsonLenient('{"s": "say \\"NaN\\"", "n": NaN}')).toEqual({ value: { s: 'say "NaN"', n: Number.NaN } });
  });

  it('reports the original parse error', () => {
    expect(parseJsonLenient('{"a": 1,')).toEqual({ error: expect.any(String) });
    expect(parseJsonLenient('{"a": NaN,')).toEqual({ error: expect.any(String) });
  });
});

describe('expandCommand', () => {
  const paths = { program: '/tmp/ratchet-eval-x/work/my main.py', results: '/tmp/ratchet-eval-x/work/results' };

  it('splits like sh, without a shell, and fills each placeholder inside its word', () => {
    expect(expandCommand(`python3 "eval uate.py" --program={program} --out '{results}/m.json' -v`, paths)).toEqual([
      'python3',
      'eval uate.py',
      '--program=/tmp/ratchet-eval-x/work/my main.py',
      '--out',
      '/tmp/ratchet-eval-x/work/results/m.json',
      '-v',
    ]);
  });

  it('never lets a path become shell text: a path with quotes or $ stays one literal argument', () => {
    const nasty = { program: `/tmp/a'b"$(rm -rf ~)`, results: '/r' };
    expect(expandCommand('node eval.js {program}', nasty)).toEqual(['node', 'eval.js', `/tmp/a'b"$(rm -rf ~)`]);
  });

  it('fills {instances} only when given, and says when it is missing', () => {
    expect(commandUsesInstances('run {program} --ids {instances}')).toBe(true);
    expect(commandUsesInstances('run {program}')).toBe(false);
    expect(expandCommand('run {program} --ids {instances}', { ...paths, instances: '/i.txt' })).toEqual(['run', paths.program, '--ids', '/i.txt']);
    expect(() => expandCommand('run {instances}', paths)).toThrow(/uses \{instances\} but no instance list/);
  });

  it('leaves other braces alone', () => {
    expect(expandCommand(`python3 -c 'print({"a": 1})' {program}`, paths)).toEqual(['python3', '-c', 'print({"a": 1})', paths.program]);
  });
});

describe('splitCommand', () => {
  it('handles sh quoting: adjacent parts, escapes in and out of double quotes', () => {
    expect(splitCommand(`a 'b c'd "e \\"f\\" \\n" g\\ h ''`)).toEqual(['a', 'b cd', 'e "f" \\n', 'g h', '']);
    expect(splitCommand('  ')).toEqual([]);
  });

  it.each([
    ['a pipe', 'python3 eval.py | tail -1', '|'],
    ['a redirect', 'python3 eval.py > out', '>'],
    ['a variable', 'python3 $HOME/eval.py', '$'],
    ['a sequence', 'make; ./run', ';'],
  ])('refuses %s, which would do nothing without a shell', (_what, line, op) => {
    expect(() => splitCommand(line)).toThrow(new RegExp(`without a shell, so "\\${op}" would do nothing`));
  });

  it('throws badInput on an unclosed quote', () => {
    let err: unknown;
    try {
      splitCommand(`python3 'eval.py`);
    } catch (e) {
      err = e;
    }
    expect(RatchetError.is(err, 'badInput')).toBe(true);
    expect(() => splitCommand('say "hi')).toThrow(/unclosed double quote/);
  });
});

describe('shards', () => {
  it('splits ids into contiguous shards of near-equal size', () => {
    expect(splitShards(['a', 'b', 'c', 'd', 'e'], 2)).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
    expect(splitShards(['a', 'b'], 5)).toEqual([['a'], ['b']]);
    expect(splitShards(['a', 'b'], 0)).toEqual([['a', 'b']]);
    expect(splitShards([], 3)).toEqual([]);
  });

  it('merges correct shards: the union of instances, their mean as the score, feedback joined', () => {
    const merged = mergeShards([
      { instances: ['a', 'b'], evaluation: { correct: true, score: 9, instances: { a: 1, b: 0 }, feedback: 'first', public: { t: 1 } } },
      { instances: ['c'], evaluation: { correct: true, score: 9, instances: { c: 0.5 }, feedback: 'second' } },
    ]);
    expect(merged).toEqual({ correct: true, score: 0.5, instances: { a: 1, b: 0, c: 0.5 }, feedback: 'first\nsecond' });
  });

  it('keeps a single shard as it is', () => {
    const only = { correct: true, score: 3, instances: { a: 3 }, public: { t: 1 } };
    expect(mergeShards([{ instances: ['a'], evaluation: only }])).toBe(only);
  });

  type Shards = Parameters<typeof mergeShards>[0];
  it.each<[string, Shards, string]>([
    [
      'an incorrect shard',
      [
        { instances: ['a'], evaluation: { correct: true, instances: { a: 1 } } },
        { instances: ['b'], evaluation: { correct: false, error: 'timeout' } },
      ],
      'shard 2 of 2: timeout',
    ],
    [
      'a dropped instance',
      [
        { instances: ['a', 'b'], evaluation: { correct: true, instances: { a: 1 } } },
        { instances: ['c'], evaluation: { correct: true, instances: { c: 1 } } },
      ],
      'shard 1 of 2 scored no instance "b"',
    ],
    [
      'an invented instance',
      [
        { instances: ['a'], evaluation: { correct: true, instances: { a: 1, z: 1 } } },
        { instances: ['c'], evaluation: { correct: true, instances: { c: 1 } } },
      ],
      'shard 1 of 2 scored instance "z", which it was not given',
    ],
  ])('is incorrect with %s', (_what, shards, error) => {
    expect(mergeShards(shards)).toEqual({ correct: false, error });
  });
});

describe('isSecretName', () => {
  it.each(['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'MY_APIKEY', 'DB_PASSWORD', 'HF_TOKEN', 'api_key'])('refuses %s', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each(['PATH', 'SEED', 'TOKENIZERS_PARALLELISM', 'CUDA_VISIBLE_DEVICES', 'OMP_NUM_THREADS', 'PYTHONPATH', 'KEYBOARD', 'HF_HOME'])('lets %s through', (name) => {
    expect(isSecretName(name)).toBe(false);
  });
});
