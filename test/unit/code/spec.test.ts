// A code search's run spec (kind: code): the same file family as prompt runs, checked by the same
// schema, with its own keys refused in prompt runs and the prompt keys refused in it — each
// problem located at its line, as the editor shows it.
import { describe, expect, it } from 'vitest';
import { proposerArms, resolveCodeSpec } from '../../../src/core/code/spec';
import { validateRunSpecText } from '../../../src/core/setup/spec';
import { mergeSpecTexts, readSpecText } from '../../../src/core/setup/specSource';

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

  it('the archive replaces by fitness unless the spec asks for crowding; another policy is a located error', () => {
    const base = ['kind: code', 'evaluator:', '  command: node evaluate.mjs {program} {results}'];
    expect(resolve([...base, ''].join('\n')).spec.search.archivePolicy).toBe('fitness');
    expect(resolve([...base, 'search: { archivePolicy: crowding }', ''].join('\n')).spec.search.archivePolicy).toBe('crowding');
    expect(shown([...base, 'search: { archivePolicy: newest }', ''].join('\n')).join('\n')).toMatch(/^4: error .*archivePolicy.*fitness.*crowding/);
  });

  it('refuses prompt keys, prompt budgets and gates that cannot decide code, at their lines', () => {
    const text = ['kind: code', 'evaluator: { command: "node e.mjs {program} {results}" }', 'dataset: items.jsonl', 'gate: pace-rf', 'budget: { candidates: 5 }', ''].join('\n');
    expect(shown(text)).toEqual([
      '3: error dataset is for prompt runs; a code search (kind: code) is scored by its evaluator',
      '4: error gate pace-rf cannot decide a code search; use pace+, pace, pairwise, greedy',
      '5: error a code search counts budget.proposals and budget.evaluations, not candidates or iterations',
    ]);
  });

  it('shards need {instances} in the command; a score range needs lo < hi', () => {
    const text = ['kind: code', 'evaluator:', '  command: node e.mjs {program} {results}', '  shards: true', '  scoreRange: [1, 1]', ''].join('\n');
    expect(shown(text)).toEqual(['4: error shards: true needs {instances} in evaluator.command (the file listing the instance ids a shard runs)', '5: error evaluator.scoreRange must be [lo, hi] with lo < hi (got [1, 1])']);
  });

  it('without an evaluator command a code search needs ShinkaEvolve’s evaluate.py beside the program', () => {
    expect(resolve('kind: code\n').diagnostics.map((d) => d.message)).toEqual(['a code search needs evaluator: { command: "… {program} {results}" }, or ShinkaEvolve\'s evaluate.py beside the program']);
    expect(resolve('kind: code\n', true).diagnostics).toEqual([]);
  });

  it('a prompt run refuses the code keys, so a forgotten kind: code is not silently a prompt run', () => {
    const text = ['evaluator: { command: "node e.mjs {program} {results}" }', 'budget: { proposals: 10 }', ''].join('\n');
    expect(validateRunSpecText('a.ratchet.yaml', text).map((d) => `${d.line}: ${d.message}`)).toEqual([
      '1: evaluator is for code search; set kind: code to evolve a code file against an evaluator',
      '2: budget.proposals counts a code search (kind: code); a prompt run counts budget.candidates',
    ]);
  });

  it('evaluator.isolation: best by default, a wrong value located with the ones it could be, and off with network: off warned of', () => {
    expect(resolve(['kind: code', 'evaluator:', '  command: node e.mjs {program}', ''].join('\n')).spec.evaluator).toMatchObject({ isolation: 'best', limits: { diskMb: 1024, processes: 256 } });
    expect(resolve(['kind: code', 'evaluator:', '  command: node e.mjs {program}', '  isolation: required', ''].join('\n')).spec.evaluator.isolation).toBe('required');
    const wrong = shown(['kind: code', 'evaluator:', '  command: node e.mjs {program}', '  isolation: strict', ''].join('\n'));
    expect(wrong).toHaveLength(1);
    expect(wrong[0]).toMatch(/^4: error .*isolation.*required.*best.*off/);
    expect(shown(['kind: code', 'evaluator:', '  command: node e.mjs {program}', '  isolation: off', '  network: off', ''].join('\n'))).toEqual([
      '5: warning network: off is not enforced with evaluator.isolation: off (no namespace is made); use isolation: best to turn the network off',
    ]);
  });

  it('an unknown evaluator key is located with the keys it could be, as for prompt specs', () => {
    const text = ['kind: code', 'evaluator:', '  command: node e.mjs {program} {results}', '  timeout: 30', '  shard: true', ''].join('\n');
    expect(shown(text)).toEqual([
      '4: error unknown key "timeout" in evaluator (expected one of: command, supportFiles, timeoutSeconds, deterministic, shards, shardSize, repeats, scoreRange, env, network, isolation, limits, backend, slurm)',
      '5: error unknown key "shard" in evaluator (did you mean "shards"?)',
    ]);
  });

  it('backend: slurm resolves its sbatch settings, with defaults drawn from the evaluator (time from timeoutSeconds, memory from its limit)', () => {
    const base = ['kind: code', 'evaluator:', '  command: node e.mjs {program} {results}', '  timeoutSeconds: 300', '  limits: { memoryMb: 2048 }', '  backend: slurm'];
    expect(shown([...base, ''].join('\n'))).toEqual([]);
    expect(resolve([...base, ''].join('\n')).spec.evaluator).toMatchObject({ backend: 'slurm', slurm: { time: '7', cpus: 1, memoryMb: 2048, sbatch: [], retries: 2, pollSeconds: 2 } });
    const full = [
      ...base,
      '  slurm:',
      '    partition: short',
      '    account: proj42',
      '    qos: normal',
      '    time: "0:30:00"',
      '    cpus: 4',
      '    memoryMb: 8000',
      '    gres: "gpu:1"',
      '    sbatch: ["--constraint=skylake"]',
      '    setup: module load nodejs/24',
      '    sharedDir: scratch/ratchet',
      '    retries: 1',
      '    pollSeconds: 0.5',
      '    arrayLimit: 50',
      'budget: { proposals: 10, clusterHours: 2 }',
      '',
    ].join('\n');
    expect(shown(full)).toEqual([]);
    const { spec } = resolve(full);
    expect(spec.evaluator.slurm).toEqual({
      partition: 'short',
      account: 'proj42',
      qos: 'normal',
      time: '0:30:00',
      cpus: 4,
      memoryMb: 8000,
      gres: 'gpu:1',
      sbatch: ['--constraint=skylake'],
      setup: 'module load nodejs/24',
      sharedDir: '/ws/scratch/ratchet',
      retries: 1,
      pollSeconds: 0.5,
      arrayLimit: 50,
    });
    expect(spec.budget).toEqual({ proposals: 10, clusterHours: 2 });
    expect(resolve(['kind: code', 'evaluator: { command: "node e.mjs {program} {results}" }', ''].join('\n')).spec.evaluator).toMatchObject({ backend: 'local' });
  });

  it('a Slurm setting that cannot work is a located error: a bad time, an sbatch line Ratchet owns or that is no option, cluster hours without Slurm', () => {
    const text = [
      'kind: code',
      'evaluator:',
      '  command: node e.mjs {program} {results}',
      '  backend: slurm',
      '  slurm:',
      '    time: half an hour',
      '    sbatch: ["--array=0-9", "constraint=skylake", "--exclude=node7"]',
      '    setup: "module load a\\nmodule load b"',
      '    cpus: 0',
      '',
    ].join('\n');
    expect(shown(text)).toEqual([
      '6: error evaluator.slurm.time must be a Slurm time limit: minutes, hours:minutes:seconds or days-hours:minutes:seconds (got "half an hour")',
      '8: error evaluator.slurm.setup must be one shell line (got "module load a\\nmodule load b")',
      '9: error evaluator.slurm.cpus must be ≥ 1 (got 0)',
    ]);
    const { diagnostics } = resolve(text.replace('    cpus: 0\n', '').replace('half an hour', '30').replace('    setup: "module load a\\nmodule load b"\n', ''));
    expect(diagnostics.map((d) => `${d.line}: ${d.field}: ${d.message}`)).toEqual([
      '7: evaluator.slurm.sbatch[0]: evaluator.slurm.sbatch[0]: Ratchet sets --array itself on every job (its array, output files, name and environment); remove it',
      '7: evaluator.slurm.sbatch[1]: evaluator.slurm.sbatch[1] "constraint=skylake" is not an sbatch option: write it as on sbatch\'s command line, e.g. --constraint=skylake',
    ]);
    const local = ['kind: code', 'evaluator:', '  command: node e.mjs {program} {results}', '  slurm: { partition: short }', 'budget: { clusterHours: 1 }', ''].join('\n');
    expect(resolve(local).diagnostics.map((d) => `${d.line}: ${d.severity} ${d.field}: ${d.message}`)).toEqual([
      '4: warning evaluator.slurm: evaluator.slurm is read only with evaluator.backend: slurm',
      '5: error budget.clusterHours: budget.clusterHours counts the cluster time of Slurm jobs; it needs evaluator.backend: slurm',
    ]);
  });

  it("several proposer models, each priced: by Ratchet's list, its own price, or free: true", () => {
    const text = [
      'kind: code',
      'evaluator: { command: "node e.mjs {program} {results}" }',
      'search:',
      '  proposerModels:',
      '    - gpt-5-mini',
      '    - { model: house-model, price: { input: 1, output: 4 } }',
      '    - { model: qwen-local, free: true }',
      '  bandit: { costWeight: 1 }',
      '',
    ].join('\n');
    expect(shown(text)).toEqual([]);
    const { spec } = resolve(text);
    expect(proposerArms(spec)).toEqual([
      { model: 'gpt-5-mini', price: { inputPerMTok: 0.25, outputPerMTok: 2, cachedInputPerMTok: 0.025 } },
      { model: 'house-model', price: { inputPerMTok: 1, outputPerMTok: 4 } },
      { model: 'qwen-local', price: { inputPerMTok: 0, outputPerMTok: 0 } },
    ]);
    expect(spec.search.bandit).toEqual({ costWeight: 1 });
  });

  it("without proposerModels the bandit has the proposer role's one model, priced as that role", () => {
    const { spec } = resolve(['kind: code', 'evaluator: { command: "node e.mjs {program} {results}" }', 'models: { proposer: { model: my-model, price: { input: 2, output: 3 } } }', ''].join('\n'));
    expect(proposerArms(spec)).toEqual([{ model: 'my-model', price: { inputPerMTok: 2, outputPerMTok: 3 } }]);
    expect(spec.search.proposerModels).toBeUndefined();
    expect(spec.search.bandit).toEqual({ costWeight: 0 });
    expect(proposerArms(resolve('kind: code\n', true).spec)).toEqual([{ model: '' }]);
  });

  it('a model listed twice, an unpriced model under a cost-aware bandit, and price with free are located errors', () => {
    const text = [
      'kind: code',
      'evaluator: { command: "node e.mjs {program} {results}" }',
      'search:',
      '  bandit: { costWeight: 0.5 }',
      '  proposerModels:',
      '    - gpt-5-mini',
      '    - gpt-5-mini',
      '    - house-model',
      '    - { model: local, free: true, price: { input: 1, output: 1 } }',
      '',
    ].join('\n');
    expect(shown(text)).toEqual([
      '7: error search.proposerModels lists gpt-5-mini twice; the bandit needs each model once',
      "8: error search.bandit.costWeight weighs each model's dollars, but house-model has no known price; give it price: { input: …, output: … } (USD per million tokens), or free: true",
      '9: error search.proposerModels[3] sets both a price and free: true; keep one',
    ]);
    const typos = ['kind: code', 'evaluator: { command: "node e.mjs {program} {results}" }', 'search:', '  novelty: { embedding: 7 }', '  nolvety: {}', ''].join('\n');
    expect(shown(typos)).toEqual([expect.stringMatching(/^4: error .*embedding/), '5: error unknown key "nolvety" in search (did you mean "novelty"?)']);
  });

  it('novelty: an embedding model turns on cosine similarity; the thresholds and the judge have defaults', () => {
    const base = ['kind: code', 'evaluator: { command: "node e.mjs {program} {results}" }'];
    expect(resolve([...base, ''].join('\n')).spec.search.novelty).toEqual({ cosineThreshold: 0.99, ngramThreshold: 1, judge: true });
    const text = [...base, 'search:', '  novelty: { embedding: text-embedding-3-small, cosineThreshold: 0.95, judge: false }', ''].join('\n');
    expect(shown(text)).toEqual([]);
    expect(resolve(text).spec.search.novelty).toEqual({ embedding: { model: 'text-embedding-3-small' }, cosineThreshold: 0.95, ngramThreshold: 1, judge: false });
    const priced = [...base, 'search:', '  novelty:', '    embedding: { model: e5-local, free: true }', ''].join('\n');
    expect(resolve(priced).spec.search.novelty.embedding).toEqual({ model: 'e5-local', price: { inputPerMTok: 0, outputPerMTok: 0 } });
  });

  it('a prompt run is unaffected: its spec resolves as before, and the search keys stay refused there', () => {
    const text = ['search:', '  proposerModels: [gpt-5-mini]', '  novelty: { embedding: text-embedding-3-small }', ''].join('\n');
    expect(validateRunSpecText('a.ratchet.yaml', text).map((d) => `${d.line}: ${d.message}`)).toEqual(['1: search is for code search; set kind: code to evolve a code file against an evaluator']);
    expect(validateRunSpecText('a.ratchet.yaml', 'models: { proposer: gpt-5-mini }\nbudget: { candidates: 5 }\n')).toEqual([]);
  });
});
