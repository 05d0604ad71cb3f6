// A code search's run spec (kind: code): the same file family as prompt runs, checked by the same
// schema, with its own keys refused in prompt runs and the prompt keys refused in it — each
// problem located at its line, as the editor shows it.
import { describe, expect, it } from 'vitest';
import { resolveCodeSpec } from '../../../src/core/code/spec';
import { validateRunSpecText } from '../../../src/core/run/spec';
import { mergeSpecTexts, readSpecText } from '../../../src/core/run/specSource';

const FILE = 'pack.mjs.ratchet.yaml';
const shown = (text: string): string[] => validateRunSpecText(FILE, text).map((d) => `${d.line}: ${d.severity} ${d.message}`);

function resolve(text: string, shinkaTask = false) {
  const { spec } = readSpecText(FILE, text);
  const { merged } = mergeSpecTexts([spec!], FILE);
  return resolveCodeSpec(merged, { programPath: 'pack.mjs', baseDir: '/ws', resolvePath: (p) => `/ws/${p}`, shinkaTask });
}

describe('code run spec', () => {
  it('a complete sidecar validates and resolves with the defaults filled in', () => {
    const text = [
      'kind: code',
      'evaluator:',
      '  command: node evaluate.mjs {program} {results} {instances}',
      '  supportFiles: [evaluate.mjs]',
      '  shards: true',
      '  scoreRange: [0, 3]',
      'gate: pace+',
      'budget: { proposals: 60, evaluations: 200 }',
      'islands: 3',
      '',
    ].join('\n');
    expect(shown(text)).toEqual([]);
    const { spec, diagnostics } = resolve(text);
    expect(diagnostics).toEqual([]);
    expect(spec.evaluator).toMatchObject({ supportFiles: ['/ws/evaluate.mjs'], shards: true, shardSize: 10, scoreRange: { lo: 0, hi: 3 }, network: 'off', timeoutSeconds: 600 });
    expect(spec.gate).toMatchObject({ name: 'pace+', alpha: 0.05, horizon: 60 });
    expect(spec.budget).toEqual({ proposals: 60, evaluations: 200 });
    expect(spec.islands).toBe(3);
    expect(spec.search.mix).toEqual({ diff: 0.6, full: 0.3, cross: 0.1 });
  });

  it('refuses prompt keys, prompt budgets and gates that cannot decide code, at their lines', () => {
    const text = ['kind: code', 'evaluator: { command: "node e.mjs {program} {results}" }', 'dataset: items.jsonl', 'gate: pace-rf', 'budget: { candidates: 5 }', ''].join('\n');
    expect(shown(text)).toEqual([
      '3: error dataset is for prompt runs; a code search (kind: code) is scored by its evaluator',
      '4: error gate pace-rf cannot decide a code search; use pace+, pace, greedy',
      '5: error a code search counts budget.proposals and budget.evaluations, not candidates or iterations',
    ]);
  });

  it('shards need {instances} in the command; a score range needs lo < hi', () => {
    const text = ['kind: code', 'evaluator:', '  command: node e.mjs {program} {results}', '  shards: true', '  scoreRange: [1, 1]', ''].join('\n');
    expect(shown(text)).toEqual([
      '4: error shards: true needs {instances} in evaluator.command (the file listing the instance ids a shard runs)',
      '5: error evaluator.scoreRange must be [lo, hi] with lo < hi (got [1, 1])',
    ]);
  });

  it('without an evaluator command a code search needs ShinkaEvolve’s evaluate.py beside the program', () => {
    expect(resolve('kind: code\n').diagnostics.map((d) => d.message)).toEqual([
      'a code search needs evaluator: { command: "… {program} {results}" }, or ShinkaEvolve\'s evaluate.py beside the program',
    ]);
    expect(resolve('kind: code\n', true).diagnostics).toEqual([]);
  });

  it('a prompt run refuses the code keys, so a forgotten kind: code is not silently a prompt run', () => {
    const text = ['evaluator: { command: "node e.mjs {program} {results}" }', 'budget: { proposals: 10 }', ''].join('\n');
    expect(validateRunSpecText('a.ratchet.yaml', text).map((d) => `${d.line}: ${d.message}`)).toEqual([
      '1: evaluator is for code search; set kind: code to evolve a code file against an evaluator',
      '2: budget.proposals counts a code search (kind: code); a prompt run counts budget.candidates',
    ]);
  });

  it('an unknown evaluator key is located with the keys it could be, as for prompt specs', () => {
    const text = ['kind: code', 'evaluator:', '  command: node e.mjs {program} {results}', '  timeout: 30', '  shard: true', ''].join('\n');
    expect(shown(text)).toEqual([
      '4: error unknown key "timeout" in evaluator (expected one of: command, supportFiles, timeoutSeconds, deterministic, shards, shardSize, repeats, scoreRange, env, network, limits)',
      '5: error unknown key "shard" in evaluator (did you mean "shards"?)',
    ]);
  });
});
