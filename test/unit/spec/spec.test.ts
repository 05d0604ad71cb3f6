import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/data/diagnostics';
import type { Diagnostic } from '../../../src/core/data/diagnostics';
import { RatchetError } from '../../../src/core/errors';
import { findPromptForSidecar, loadRunInputs, loadRunSpec, sidecarPathFor, validateRunSpecText } from '../../../src/core/setup/spec';
import type { RunSpec } from '../../../src/core/run/specTypes';
import { memFiles } from '../data/fakeFiles';

const lines = (...l: string[]): string => `${l.join('\n')}\n`;
const show = (d: Diagnostic[]): string[] => d.map(formatDiagnostic);
const SIDE = 'examples/math/word-problems.ratchet.yaml';

async function loadError(files: ReturnType<typeof memFiles>, prompt: string): Promise<RatchetError> {
  const err = await loadRunSpec(files, prompt).catch((e: unknown) => e);
  if (!RatchetError.is(err, 'badInput')) throw new Error(`expected badInput, got ${String(err)}`);
  return err;
}
const detailMessages = (err: RatchetError): string[] => show(err.details.diagnostics as Diagnostic[]);

describe('validateRunSpecText: schema errors at line and column', () => {
  it('reports unknown keys at the key, with a suggestion', () => {
    const text = lines('# word problems', 'dataset: data/problems.jsonl', 'scorer: numeric', 'gate:', '  name: pace+', '  alpah: 0.05', 'gatee: x');
    expect(validateRunSpecText(SIDE, text)).toEqual([
      { file: SIDE, line: 6, column: 3, endLine: 6, endColumn: 8, severity: 'error', field: 'gate.alpah', message: 'unknown key "alpah" in gate (did you mean "alpha"?)' },
      { file: SIDE, line: 7, column: 1, endLine: 7, endColumn: 6, severity: 'error', field: 'gatee', message: 'unknown key "gatee" in run spec (did you mean "gate"?)' },
    ]);
  });

  it('lists the allowed keys when nothing is close', () => {
    expect(show(validateRunSpecText(SIDE, 'budget:\n  wallclock: 5\n'))).toEqual([
      `${SIDE}:2:3: unknown key "wallclock" in budget (expected one of: calls, tokens, dollars, wallTimeMinutes, iterations, candidates, proposals, evaluations, clusterHours)`,
    ]);
  });

  it('reports wrong types and ranges at the value', () => {
    const text = lines('seed: abc', 'gate:', '  alpha: high', 'concurrency: 0', 'budget: { dollars: -1 }', 'models:', '  agent: 5', '  validator: { baseURL: "localhost:11434" }');
    expect(show(validateRunSpecText(SIDE, text))).toEqual([
      `${SIDE}:1:7: seed must be a whole number (got "abc")`,
      `${SIDE}:3:10: gate.alpha must be a number (got "high")`,
      `${SIDE}:4:14: concurrency must be ≥ 1 (got 0)`,
      `${SIDE}:5:20: budget.dollars must be > 0 (got -1)`,
      `${SIDE}:7:10: models.agent must be a model name or a mapping { model, baseURL, temperature } (got 5)`,
      `${SIDE}:8:25: models.validator.baseURL must be an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1 (got "localhost:11434")`,
    ]);
  });

  it('explains enum and scorer-type typos', () => {
    expect(show(validateRunSpecText(SIDE, 'gate: greedyy\nmode: autopilott\n'))).toEqual([
      `${SIDE}:1:7: gate must be one of pace+, pace, pace-rf, pairwise, focus, elo, greedy, greedy-re, sign (got "greedyy"; did you mean "greedy"?)`,
      `${SIDE}:2:7: mode must be one of suggest, autopilot (got "autopilott"; did you mean "autopilot"?)`,
    ]);
    expect(show(validateRunSpecText(SIDE, 'scorer:\n  type: numerci\n'))).toEqual([
      `${SIDE}:2:9: scorer.type must be one of exact, contains, regex, numeric, json-schema, llm-rubric, module, command (got "numerci"; did you mean "numeric"?)`,
    ]);
    expect(show(validateRunSpecText(SIDE, 'scorer:\n  type: module\n  export: grade\n'))).toEqual([`${SIDE}:1:1: scorer of type "module" needs "path"`]);
    expect(show(validateRunSpecText(SIDE, 'scorer:\n  type: exact\n  ignorecase: true\n'))).toEqual([`${SIDE}:3:3: unknown key "ignorecase" in scorer (did you mean "ignoreCase"?)`]);
    expect(show(validateRunSpecText(SIDE, 'scorer: 3\n'))).toEqual([`${SIDE}:1:9: scorer must be a scorer type (exact, contains, regex, numeric, json-schema, llm-rubric, module, command) or a mapping with a \`type\` (got 3)`]);
  });

  it('locates problems in a prompt file front matter at file lines', () => {
    const text = lines('---', 'description: Solve word problems', 'ratchet:', '  dataset: data/problems.jsonl', '  gatee: pace+', '---', 'Body {{question}}');
    expect(show(validateRunSpecText('word-problems.prompt.md', text))).toEqual(['word-problems.prompt.md:5:3: unknown key "gatee" in run spec (did you mean "gate"?)']);
    expect(validateRunSpecText('plain.prompt.md', 'no front matter\n')).toEqual([]);
    expect(validateRunSpecText('p.prompt.md', '---\ndescription: x\n---\nbody\n')).toEqual([]);
    expect(show(validateRunSpecText('p.prompt.md', '---\nratchet: 5\n---\n'))).toEqual(['p.prompt.md:2:1: the ratchet: block must be a mapping (indented key: value lines)']);
  });

  it('reports YAML syntax errors, static checks and warnings', () => {
    expect(show(validateRunSpecText(SIDE, 'gate: [pace\n'))[0]).toMatch(/^examples\/math\/word-problems\.ratchet\.yaml:\d+:\d+: not valid YAML/);
    expect(show(validateRunSpecText(SIDE, 'scorer: { type: regex, pattern: "([" }\n'))).toEqual([`${SIDE}:1:33: scorer.pattern: invalid regular expression /([/: Unterminated character class`]);
    expect(show(validateRunSpecText(SIDE, 'gate: pace+\n'))).toEqual([
      `${SIDE}:1:7: gate pace+ compares scores, but the run spec has no scorer; add scorer: { type: … } (exact, numeric, contains, regex, json-schema, llm-rubric, module, command) or use a reward-free gate (pace-rf, pairwise, focus, elo)`,
    ]);
    const warn = validateRunSpecText(SIDE, 'scorer: exact\ngate: { name: pace+, lambda: 0.6 }\n');
    expect(warn.map((d) => [d.severity, formatDiagnostic(d)])).toEqual([['warning', `${SIDE}:2:22: gate.lambda is used only by gate pace; gate pace+ ignores it`]]);
  });

  it('checks gate.population: a located error for a bad value, a warning where no PACE gate reads it', () => {
    expect(validateRunSpecText(SIDE, lines('scorer: exact', 'gate:', '  name: pace+', '  population: finit'))).toEqual([
      {
        file: SIDE,
        line: 4,
        column: 15,
        endLine: 4,
        endColumn: 20,
        severity: 'error',
        field: 'gate.population',
        message: 'gate.population must be one of infinite, finite (got "finit"; did you mean "finite"?)',
      },
    ]);
    expect(show(validateRunSpecText(SIDE, 'scorer: exact\ngate: { name: pace+, population: 0 }\n'))).toEqual([`${SIDE}:2:34: gate.population must be one of infinite, finite (got 0)`]);
    expect(validateRunSpecText(SIDE, 'scorer: exact\ngate: { name: greedy, population: finite }\n').map((d) => [d.severity, formatDiagnostic(d)])).toEqual([
      ['warning', `${SIDE}:2:23: gate.population is used only by gate pace+ / pace / pace-rf; gate greedy ignores it`],
    ]);
    for (const name of ['pace', 'pace+', 'pace-rf']) {
      expect(validateRunSpecText(SIDE, `scorer: exact\ngate: { name: ${name}, population: finite }\n`).filter((d) => d.field === 'gate.population')).toEqual([]);
    }
  });

  it('checks models.<role>.price and free at the field, and refuses both on one entry', () => {
    const text = lines('scorer: exact', 'models:', '  agent: { model: local, price: { input: 1 } }', '  proposer:', '    model: x', '    price: { input: -1, output: 2, cachedInpt: 1 }', '  validator: { model: y, free: "yes" }');
    expect(validateRunSpecText(SIDE, text).map((d) => [d.field, formatDiagnostic(d)])).toEqual([
      ['models.agent.price', `${SIDE}:3:26: models.agent.price needs "output"`],
      ['models.proposer.price.input', `${SIDE}:6:21: models.proposer.price.input must be ≥ 0 (got -1)`],
      ['models.proposer.price.cachedInpt', `${SIDE}:6:36: unknown key "cachedInpt" in models.proposer.price (did you mean "cachedInput"?)`],
      ['models.validator.free', `${SIDE}:7:32: models.validator.free must be true or false (got "yes")`],
    ]);
    expect(show(validateRunSpecText(SIDE, lines('scorer: exact', 'models:', '  default: { model: llama3, free: true, price: { input: 1, output: 1 } }')))).toEqual([
      `${SIDE}:3:35: models.default sets both a price and free: true; keep one (free: true means its endpoint costs nothing)`,
    ]);
    expect(validateRunSpecText(SIDE, lines('scorer: exact', 'models:', '  default: { model: m, price: { input: 0.5, output: 1.5, cachedInput: 0.05 } }', '  agent: { free: true }'))).toEqual([]);
  });

  it('checks the shape of the split', () => {
    expect(show(validateRunSpecText(SIDE, 'split: { dev: 0.7, test: 0.5 }\n'))).toEqual([`${SIDE}:1:1: split fractions add up to 1.2, more than 1`]);
    expect(show(validateRunSpecText(SIDE, 'split: { dev: dev.jsonl, test: 10 }\n'))[0]).toContain('split mixes file paths and numbers');
    expect(show(validateRunSpecText(SIDE, 'split:\n  dev: 30\n  test: 0.5\n'))).toEqual([`${SIDE}:3:9: split.test must be a whole number of items when the split uses counts (got 0.5); use all fractions (≤ 1) or all counts`]);
    expect(show(validateRunSpecText(SIDE, 'split: { test: t.jsonl }\n'))[0]).toContain('split with files needs a dev file');
  });
});

const PROMPT = lines('---', 'description: Solve word problems', '---', 'Solve: {{question}}');
const DATA = Array.from({ length: 30 }, (_, i) => JSON.stringify({ question: `q${i}`, expected: i })).join('\n');

describe('loadRunSpec', () => {
  it('resolves a sidecar with every default filled in', async () => {
    const files = memFiles({
      '/w/wp.prompt.md': PROMPT,
      '/w/wp.ratchet.yaml': lines('dataset: data/p.jsonl', 'scorer: numeric', 'models:', '  default: { model: gpt-4o-mini, baseURL: "https://api.openai.com/v1" }', '  validator: { temperature: 0 }', '  proposer: gpt-4o'),
      '/w/data/p.jsonl': DATA,
    });
    const spec = await loadRunSpec(files, '/w/wp.prompt.md');
    const base = { model: 'gpt-4o-mini', baseURL: 'https://api.openai.com/v1' };
    expect({ ...spec, origin: undefined }).toEqual({
      promptPath: '/w/wp.prompt.md',
      sources: [{ file: '/w/wp.ratchet.yaml', kind: 'sidecar' }],
      baseDir: '/w',
      dataset: '/w/data/p.jsonl',
      split: { kind: 'fractions', feedback: 0.2, dev: 0.6, test: 0.2 },
      scorer: { type: 'numeric', tolerance: 1e-6, relativeTolerance: 0 },
      rewardFree: false,
      labels: 'all',
      models: { agent: base, proposer: { ...base, model: 'gpt-4o' }, validator: { ...base, temperature: 0 }, meta: base, challenger: base },
      gate: {
        name: 'pace+',
        alpha: 0.05,
        lambda: 0.5,
        lambdas: [0.3, 0.5, 0.7, 0.85],
        schedule: 'fwer-screened',
        horizon: 30,
        population: 'infinite',
        focus: { refreshEvery: 5 },
        elo: { k: 32, matches: 2, temperature: 173.7, soft: true },
      },
      budget: { candidates: 30 },
      seed: 0,
      mode: 'suggest',
      maxPromptTokens: 4000,
      merge: false,
      concurrency: 4,
      callTimeoutSeconds: 120,
      harness: { type: 'chat' },
      origin: undefined,
    } satisfies Record<keyof RunSpec, unknown>);
    expect(spec.origin['models.proposer']).toEqual({ file: '/w/wp.ratchet.yaml', line: 6, column: 13, endLine: 6, endColumn: 19 });
  });

  it('resolves prices: a role inherits the default price only with its model, and free only with its endpoint', async () => {
    const files = memFiles({
      '/w/wp.prompt.md': PROMPT,
      '/w/wp.ratchet.yaml': lines(
        'dataset: data/p.jsonl',
        'scorer: numeric',
        'models:',
        '  default: { model: m, baseURL: "http://localhost:11434/v1", price: { input: 0.5, output: 1.5, cachedInput: 0.05 } }',
        '  agent: { temperature: 0 }',
        '  proposer: gpt-4o',
        '  validator: { baseURL: "https://api.example.com/v1", free: false }',
        '  meta: { model: m2, free: true }',
      ),
      '/w/data/p.jsonl': DATA,
    });
    const { models } = await loadRunSpec(files, '/w/wp.prompt.md');
    const price = { inputPerMTok: 0.5, outputPerMTok: 1.5, cachedInputPerMTok: 0.05 };
    const local = 'http://localhost:11434/v1';
    expect(models).toEqual({
      agent: { model: 'm', baseURL: local, price, temperature: 0 },
      proposer: { model: 'gpt-4o', baseURL: local },
      validator: { model: 'm', baseURL: 'https://api.example.com/v1', price, free: false },
      meta: { model: 'm2', baseURL: local, free: true },
      challenger: { model: 'm', baseURL: local, price },
    });
    const free = memFiles({
      ...files.tree,
      '/w/wp.ratchet.yaml': lines(
        'dataset: data/p.jsonl',
        'scorer: numeric',
        'models:',
        '  default: { model: m, baseURL: "http://localhost:11434/v1", free: true }',
        '  agent: { model: other }',
        '  proposer: { baseURL: "https://api.openai.com/v1" }',
      ),
    });
    const m = (await loadRunSpec(free, '/w/wp.prompt.md')).models;
    expect([m.agent.free, m.proposer.free, m.validator.free]).toEqual([true, undefined, true]);
  });

  it('reads a ratchet: block from the front matter, merged with the sidecar', async () => {
    const files = memFiles({
      '/w/wp.prompt.md': lines('---', 'ratchet:', '  seed: 7', '  gate: { name: pace, alpha: 0.1 }', '---', 'Solve: {{question}}'),
      '/w/wp.ratchet.yaml': 'dataset: p.jsonl\nscorer: exact\n',
      '/w/p.jsonl': DATA,
    });
    const spec = await loadRunSpec(files, '/w/wp.prompt.md');
    expect([spec.seed, spec.gate.name, spec.gate.alpha, spec.scorer?.type]).toEqual([7, 'pace', 0.1, 'exact']);
    expect(spec.sources.map((s) => s.kind)).toEqual(['front-matter', 'sidecar']);
    expect(spec.origin['gate.alpha']?.file).toBe('/w/wp.prompt.md');
  });

  it('resolves gate.population: finite, and remembers where it was written', async () => {
    const files = memFiles({
      '/w/wp.prompt.md': PROMPT,
      '/w/wp.ratchet.yaml': lines('dataset: p.jsonl', 'scorer: exact', 'gate:', '  name: pace+', '  population: finite'),
      '/w/p.jsonl': DATA,
    });
    const spec = await loadRunSpec(files, '/w/wp.prompt.md');
    expect(spec.gate.population).toBe('finite');
    expect(spec.origin['gate.population']).toEqual({ file: '/w/wp.ratchet.yaml', line: 5, column: 15, endLine: 5, endColumn: 21 });
    const bad = memFiles({ '/w/wp.prompt.md': PROMPT, '/w/wp.ratchet.yaml': 'dataset: p.jsonl\nscorer: exact\ngate: { population: all }\n', '/w/p.jsonl': DATA });
    const err = await loadError(bad, '/w/wp.prompt.md');
    expect(err.message).toBe('/w/wp.ratchet.yaml:3:21: gate.population must be one of infinite, finite (got "all")');
    expect(err.details).toMatchObject({ file: '/w/wp.ratchet.yaml', line: 3, column: 21, field: 'gate.population' });
  });

  it('rejects a key set in both places, at both places', async () => {
    const files = memFiles({
      '/w/wp.prompt.md': lines('---', 'ratchet:', '  seed: 7', '---', 'Solve: {{question}}'),
      '/w/wp.ratchet.yaml': 'dataset: p.jsonl\nscorer: exact\nseed: 8\n',
      '/w/p.jsonl': DATA,
    });
    expect(detailMessages(await loadError(files, '/w/wp.prompt.md'))).toEqual([
      '/w/wp.ratchet.yaml:3:1: "seed" is set both here and in the front matter of wp.prompt.md (line 3); keep one',
      '/w/wp.prompt.md:3:3: "seed" is set both here and in wp.ratchet.yaml (line 3); keep one',
    ]);
  });

  it('reports a missing dataset file at the dataset value', async () => {
    const files = memFiles({ '/w/wp.prompt.md': PROMPT, '/w/wp.ratchet.yaml': 'scorer: numeric\ndataset: data/problemz.jsonl\n' });
    const err = await loadError(files, '/w/wp.prompt.md');
    expect(err.message).toBe("/w/wp.ratchet.yaml:2:10: dataset file not found: /w/data/problemz.jsonl (dataset is relative to wp.ratchet.yaml's folder)");
    expect(err.details).toMatchObject({ file: '/w/wp.ratchet.yaml', line: 2, column: 10, field: 'dataset' });
  });

  it('reports every schema error in details, the first in the message', async () => {
    const files = memFiles({ '/w/wp.prompt.md': PROMPT, '/w/wp.ratchet.yaml': 'datset: p.jsonl\nseed: -1\n' });
    const err = await loadError(files, '/w/wp.prompt.md');
    expect(err.message).toBe('/w/wp.ratchet.yaml:1:1: unknown key "datset" in run spec (did you mean "dataset"?) (and 1 more problem)');
    expect(detailMessages(err)).toEqual(['/w/wp.ratchet.yaml:1:1: unknown key "datset" in run spec (did you mean "dataset"?)', '/w/wp.ratchet.yaml:2:7: seed must be ≥ 0 (got -1)']);
  });

  it('surfaces dataset errors with their own file and line', async () => {
    const files = memFiles({ '/w/wp.prompt.md': PROMPT, '/w/wp.ratchet.yaml': 'dataset: p.jsonl\nscorer: numeric\n', '/w/p.jsonl': '{"question": 1, "expected": 1}\n{oops}\n' });
    expect((await loadError(files, '/w/wp.prompt.md')).message).toMatch(/^\/w\/p\.jsonl:2:2: not valid JSON/);
  });

  it('keeps absolute dataset paths; a prompt with no spec is a zero-data, reward-free run', async () => {
    const files = memFiles({ '/w/wp.prompt.md': PROMPT, '/w/wp.ratchet.yaml': 'dataset: /data/p.jsonl\nscorer: numeric\n', '/data/p.jsonl': DATA });
    expect((await loadRunSpec(files, '/w/wp.prompt.md')).dataset).toBe('/data/p.jsonl');
    const bare = await loadRunSpec(memFiles({ '/w/x.prompt.md': PROMPT }), '/w/x.prompt.md');
    expect([bare.sources, bare.dataset, bare.rewardFree, bare.gate.name, bare.split]).toEqual([[], undefined, true, 'pace-rf', { kind: 'fractions', feedback: 0.2, dev: 0.6, test: 0.2 }]);
    const inputs = await loadRunInputs(memFiles({ '/w/x.prompt.md': PROMPT }), '/w/x.prompt.md');
    expect([inputs.splits, inputs.warnings]).toEqual([{ feedback: [], dev: [], test: [] }, []]);
  });

  it('finds the sidecar path for each prompt kind, and the prompt for a sidecar', async () => {
    expect(['a/x.prompt.md', 'x.prompty', 'x.md', 'x.txt', 'x.j2'].map(sidecarPathFor)).toEqual(['a/x.ratchet.yaml', 'x.ratchet.yaml', 'x.ratchet.yaml', 'x.ratchet.yaml', 'x.ratchet.yaml']);
    expect(await findPromptForSidecar(memFiles({ '/w/x.prompty': '' }), '/w/x.ratchet.yaml')).toBe('/w/x.prompty');
    await expect(loadRunSpec(memFiles({}), '/w/none.prompt.md')).rejects.toSatisfy((e: unknown) => RatchetError.is(e, 'notFound'));
  });
});

describe('reward-free runs', () => {
  const UNLABELED = Array.from({ length: 30 }, (_, i) => JSON.stringify({ question: `q${i}` })).join('\n');
  const setup = (spec: string, data = UNLABELED) => memFiles({ '/w/wp.prompt.md': PROMPT, '/w/wp.ratchet.yaml': spec, '/w/p.jsonl': data });

  it('no scorer and no labels: reward-free with gate pace-rf', async () => {
    const spec = await loadRunSpec(setup('dataset: p.jsonl\n'), '/w/wp.prompt.md');
    expect([spec.rewardFree, spec.labels, spec.gate.name, spec.scorer]).toEqual([true, 'none', 'pace-rf', undefined]);
    expect((await loadRunSpec(setup('dataset: p.jsonl\ngate: elo\n'), '/w/wp.prompt.md')).gate.name).toBe('elo');
  });

  it('no scorer with a scored gate is an error at the gate', async () => {
    expect((await loadError(setup('dataset: p.jsonl\ngate: { name: pace+ }\n'), '/w/wp.prompt.md')).message).toMatch(/^\/w\/wp\.ratchet\.yaml:2:15: gate pace\+ compares scores, but the run spec has no scorer/);
  });

  it('labels without a scorer or a gate is an error; a reward-free gate ignores them', async () => {
    expect((await loadError(setup('dataset: p.jsonl\n', DATA), '/w/wp.prompt.md')).message).toMatch(/^\/w\/wp\.ratchet\.yaml:1:10: the dataset has expected answers but the run spec has no scorer/);
    expect((await loadRunSpec(setup('dataset: p.jsonl\ngate: pairwise\n', DATA), '/w/wp.prompt.md')).rewardFree).toBe(true);
  });

  it('a scorer that needs labels on unlabeled data, or on partly labeled data, is an error', async () => {
    expect((await loadError(setup('dataset: p.jsonl\nscorer: { type: numeric }\n'), '/w/wp.prompt.md')).message).toMatch(/^\/w\/wp\.ratchet\.yaml:2:17: scorer numeric compares outputs with expected answers, but no item has one/);
    const partly = '{"question": "a", "expected": 1}\n{"question": "b"}\n';
    expect((await loadError(setup('dataset: p.jsonl\nscorer: numeric\n', partly), '/w/wp.prompt.md')).message).toBe('/w/p.jsonl:2:1: item has no expected answer, which scorer numeric needs');
    const rubric = await loadRunSpec(setup('dataset: p.jsonl\nscorer: { type: llm-rubric, rubric: concise }\n'), '/w/wp.prompt.md');
    expect([rubric.rewardFree, rubric.gate.name]).toEqual([false, 'pace+']);
  });
});

describe('loadRunInputs', () => {
  it('returns the prompt, template and three disjoint splits fixed by the seed', async () => {
    const files = memFiles({ '/w/wp.prompt.md': PROMPT, '/w/wp.ratchet.yaml': 'dataset: p.jsonl\nscorer: numeric\nseed: 3\n', '/w/p.jsonl': DATA });
    const inputs = await loadRunInputs(files, '/w/wp.prompt.md');
    expect([inputs.splits.feedback.length, inputs.splits.dev.length, inputs.splits.test.length]).toEqual([6, 18, 6]);
    expect(inputs.template.variables.map((v) => v.name)).toEqual(['question']);
    expect(inputs.prompt.body).toBe('Solve: {{question}}\n');
    expect(show(inputs.warnings)).toEqual([
      '/w/wp.ratchet.yaml:1:1: dev split has 18 items: PACE+ at α = 0.05 needs at least 6 consecutive wins to commit, so only large gains can be detected; add items or use a larger dev share (e.g. split: { feedback: 5, dev: 20, test: 5 })',
    ]);
    const again = await loadRunInputs(files, '/w/wp.prompt.md');
    expect(again.splits.dev.map((i) => i.id)).toEqual(inputs.splits.dev.map((i) => i.id));
  });

  describe('the small-dev warning counts the wins the run’s own gate needs', () => {
    const devWarning = async (gateYaml: string, opts?: Parameters<typeof loadRunInputs>[2]) => {
      const spec = `dataset: p.jsonl\nscorer: numeric\nsplit: { feedback: 22, dev: 4, test: 4 }\n${gateYaml}`;
      const inputs = await loadRunInputs(memFiles({ '/w/wp.prompt.md': PROMPT, '/w/wp.ratchet.yaml': spec, '/w/p.jsonl': DATA }), '/w/wp.prompt.md', opts);
      return inputs.warnings.map((w) => w.message).find((m) => m.startsWith('dev split'));
    };

    it('PACE+ needs 6 straight wins at α = 0.05: 4 dev items can never commit', async () => {
      expect(await devWarning('')).toMatch(/^dev split has 4 items: PACE\+ at α = 0\.05 needs at least 6 consecutive wins to commit, so it can never commit;/);
    });

    it('at the spec’s α, not the default one', async () => {
      expect(await devWarning('gate: { alpha: 0.01 }')).toMatch(/^dev split has 4 items: PACE\+ at α = 0\.01 needs at least 9 consecutive wins/);
    });

    it('with a finite population, 4 straight wins over all 4 items are enough at α = 0.05, and no α = 0.01 run can commit', async () => {
      expect(await devWarning('gate: { population: finite }')).toMatch(/^dev split has 4 items: PACE\+ \(finite population\) at α = 0\.05 needs at least 4 consecutive wins to commit, so only large gains can be detected;/);
      expect(await devWarning('gate: { population: finite, alpha: 0.01 }')).toMatch(/^dev split has 4 items: PACE\+ \(finite population\) at α = 0\.01 cannot reach 1\/α even if the candidate wins all 4, so it can never commit;/);
    });

    it('for the gate and α the run is started with, when they override the spec’s', async () => {
      expect(await devWarning('', { gate: { alpha: 0.01 } })).toMatch(/PACE\+ at α = 0\.01 needs at least 9 consecutive wins/);
      // Greedy counts no wins: the generic warning.
      expect(await devWarning('', { gate: { name: 'greedy' } })).toMatch(/^dev split has 4 items, too few to detect anything but large gains;/);
    });
  });

  it('checks every item against the template before any LLM call', async () => {
    const data = '{"question": "a", "expected": 1}\n{"qestion": "b", "expected": 2}\n';
    const files = memFiles({ '/w/wp.prompt.md': PROMPT, '/w/wp.ratchet.yaml': 'dataset: p.jsonl\nscorer: numeric\n', '/w/p.jsonl': data });
    await expect(loadRunInputs(files, '/w/wp.prompt.md')).rejects.toThrow('/w/p.jsonl:2:1: item has no "question" variable, which wp.prompt.md uses on line 4');
  });

  it('uses explicit dev/test files with the dataset as the feedback pool, and rejects overlap', async () => {
    const dev = Array.from({ length: 25 }, (_, i) => JSON.stringify({ question: `dev${i}`, expected: i })).join('\n');
    const tree = {
      '/w/wp.prompt.md': PROMPT,
      '/w/wp.ratchet.yaml': 'dataset: p.jsonl\nscorer: numeric\nsplit: { dev: dev.jsonl, test: test.jsonl }\n',
      '/w/p.jsonl': DATA,
      '/w/dev.jsonl': dev,
      '/w/test.jsonl': '{"question": "t", "expected": 1}\n',
    };
    const inputs = await loadRunInputs(memFiles(tree), '/w/wp.prompt.md');
    expect(inputs.spec.split).toEqual({ kind: 'files', dev: '/w/dev.jsonl', test: '/w/test.jsonl' });
    expect([inputs.splits.feedback.length, inputs.splits.dev.length, inputs.splits.test.length]).toEqual([30, 25, 1]);
    const leaky = { ...tree, '/w/test.jsonl': '{"question": "dev3", "expected": 3}\n' };
    await expect(loadRunInputs(memFiles(leaky), '/w/wp.prompt.md')).rejects.toThrow(/^\/w\/test\.jsonl:1:1: item is in both the dev and the test split/);
  });

  it('reports counts larger than the dataset at the split key', async () => {
    const files = memFiles({ '/w/wp.prompt.md': PROMPT, '/w/wp.ratchet.yaml': 'dataset: p.jsonl\nscorer: numeric\nsplit:\n  dev: 40\n', '/w/p.jsonl': DATA });
    await expect(loadRunInputs(files, '/w/wp.prompt.md')).rejects.toThrow('/w/wp.ratchet.yaml:3:1: split asks for 40 items (dev 40) but the dataset has 30');
  });
});
