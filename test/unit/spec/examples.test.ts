// The examples/ workspace is the first thing a new user opens: every prompt there must load with
// the same loader the engine uses, without errors or warnings, and its labels must be scorable.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/data/diagnostics';
import { createScorer } from '../../../src/core/data/scorers/registry';
import { loadRunInputs, namesNoDataset, validateRunSpecText } from '../../../src/core/setup/spec';
import { templateVariableNames } from '../../../src/core/prompt/template';
import { diskFiles } from '../data/fakeFiles';
import { isClaimedByName, isPromptPath } from '../../../src/core/files/fileKinds';
import { triggerOf } from '../../../src/core/data/itemMessage';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLES = path.join(ROOT, 'examples');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('.') || e.name === 'node_modules') return [];
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : [path.relative(ROOT, p)];
  });
}

const all = walk(EXAMPLES);
// The files Ratchet claims by name: prompt files, and Copilot's skills and instructions (#31).
const prompts = all.filter((f) => isPromptPath(f) && isClaimedByName(f));
const specs = all.filter((f) => f.endsWith('.ratchet.yaml'));
const files = diskFiles(ROOT);
/** Prompts without a dataset: the zero-data example (Generate Dev Set writes one). */
const ZERO_DATA = ['examples/mental-math/mental-math.prompt.md'];

describe('examples/', () => {
  it('has the documented examples', () => {
    expect(prompts).toEqual(
      expect.arrayContaining([
        'examples/math/word-problems.prompt.md',
        'examples/support/triage.prompt.md',
        'examples/summaries/summarize.prompt.md',
        'examples/skills/unit-conversion/SKILL.md',
        'examples/instructions/shipping.instructions.md',
        ...ZERO_DATA,
      ]),
    );
    expect(all).toContain('examples/README.md');
  });

  it.each(specs)('%s validates without diagnostics', (file) => {
    expect(validateRunSpecText(file, readFileSync(path.join(ROOT, file), 'utf8')).map(formatDiagnostic)).toEqual([]);
  });

  it.each(prompts.filter((p) => !ZERO_DATA.includes(p)))('%s loads: spec, dataset, template and splits, with no warnings', async (prompt) => {
    expect(validateRunSpecText(prompt, readFileSync(path.join(ROOT, prompt), 'utf8'))).toEqual([]);
    const inputs = await loadRunInputs(files, prompt);
    expect(inputs.warnings.map(formatDiagnostic)).toEqual([]);
    expect(namesNoDataset(inputs.spec)).toBe(false);
    expect(inputs.splits.dev.length).toBeGreaterThanOrEqual(20);
    expect(inputs.splits.feedback.length).toBeGreaterThan(0);
    expect(inputs.splits.test.length).toBeGreaterThan(0);
  });

  it.each(ZERO_DATA)('%s has no dataset on purpose: it loads with no warnings and a template variable for generated tasks to fill', async (prompt) => {
    expect(validateRunSpecText(prompt, readFileSync(path.join(ROOT, prompt), 'utf8'))).toEqual([]);
    const inputs = await loadRunInputs(files, prompt);
    expect(inputs.warnings.map(formatDiagnostic)).toEqual([]);
    expect(namesNoDataset(inputs.spec)).toBe(true);
    expect(templateVariableNames(inputs.prompt.body)).toEqual(['question']);
  });

  it('math: every label is a number the numeric scorer accepts from a well-formed answer', async () => {
    const { spec, splits } = await loadRunInputs(files, 'examples/math/word-problems.prompt.md');
    const scorer = await createScorer(spec.scorer!, { baseDir: spec.baseDir, files });
    const items = [...splits.feedback, ...splits.dev, ...splits.test];
    expect(items.length).toBeGreaterThanOrEqual(40);
    for (const item of items) {
      expect(typeof item.expected, item.id).toBe('number');
      expect(await scorer.score(`Work shown.\nAnswer: ${String(item.expected)}`, item), item.id).toMatchObject({ score: 1 });
    }
  });

  it('support: every label is one of the categories the prompt offers', async () => {
    const { spec, splits, prompt } = await loadRunInputs(files, 'examples/support/triage.prompt.md');
    const offered = /category:\n(.+)\./.exec(prompt.body)![1]!.split(', ');
    const items = [...splits.feedback, ...splits.dev, ...splits.test];
    expect(items.length).toBeGreaterThanOrEqual(40);
    expect(new Set(items.map((i) => i.expected))).toEqual(new Set(offered));
    // The sidecar way: the front matter is Copilot's.
    expect(spec.sources.map((s) => s.kind)).toEqual(['sidecar']);
    expect(prompt.frontMatter).toEqual({ description: 'Route a customer support ticket to the right queue.' });
  });

  it('skills: some requests must load the skill (each with a numeric answer), others must not', async () => {
    const { spec, splits } = await loadRunInputs(files, 'examples/skills/unit-conversion/SKILL.md');
    const scorer = await createScorer(spec.scorer!, { baseDir: spec.baseDir, files });
    const items = [...splits.feedback, ...splits.dev, ...splits.test];
    const off = items.filter((i) => triggerOf(i) === false);
    expect([off.length > 5, items.length - off.length >= 40]).toEqual([true, true]);
    for (const item of items.filter((i) => triggerOf(i) === true)) expect(await scorer.score(`Done.\nThe answer is ${String(item.expected)}`, item), item.id).toMatchObject({ score: 1 });
  });

  it('instructions: every label is a cost the numeric scorer accepts', async () => {
    const { spec, splits } = await loadRunInputs(files, 'examples/instructions/shipping.instructions.md');
    const scorer = await createScorer(spec.scorer!, { baseDir: spec.baseDir, files });
    for (const item of [...splits.feedback, ...splits.dev, ...splits.test]) expect(await scorer.score(`The answer is ${String(item.expected)}`, item), item.id).toMatchObject({ score: 1 });
  });

  it('summaries: unlabeled, so the run is reward-free under pace-rf', async () => {
    const { spec } = await loadRunInputs(files, 'examples/summaries/summarize.prompt.md');
    expect([spec.rewardFree, spec.labels, spec.gate.name, spec.scorer]).toEqual([true, 'none', 'pace-rf', undefined]);
  });
});
