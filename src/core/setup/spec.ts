/**
 * The run spec's public face:
 * - `validateRunSpecText(file, text)`: diagnostics for one sidecar or prompt file as the user types
 *   (schema and static checks; no file access, never throws) — for the language server;
 * - `loadRunSpec(files, promptPath)`: the resolved RunSpec, reading the sidecar, the front matter and
 *   the dataset (label coverage decides reward-free runs); throws RatchetError('badInput') with the
 *   first problem in its message and every diagnostic in `details.diagnostics`;
 * - `loadRunInputs(files, promptPath, opts)`: everything the loop needs before its first LLM call —
 *   spec, prompt file, template, the three splits — with every item checked against the template.
 */
import type { Files } from '../ports';
import { badInputError, diagnostic, errorsOf, lineLocation, throwIfErrors } from '../data/diagnostics';
import type { Diagnostic, Location } from '../data/diagnostics';
import { labelCoverage, readDatasetFile } from '../data/dataset';
import type { DatasetParse } from '../data/dataset';
import { hasExpected } from '../data/item';
import type { DataItem } from '../data/item';
import { needsExpected } from '../data/scorers/types';
import { splitAdvice, splitAdviceDiagnostics, splitItems, splitOverlaps } from '../data/splits';
import type { SplitName, Splits } from '../data/splits';
import { checkItemsAgainstTemplate } from '../data/templateCheck';
import { checkStartingPrompt, datasetFieldsOf } from '../prompt/promptChecks';
import { TRIGGER_FIELD, checkItemMessages, hasTriggerLabels, triggerOf } from '../data/itemMessage';
import { evaluatedAs, promptKindOf } from '../files/fileKinds';
import type { EvaluatedAs } from '../files/fileKinds';
import { RatchetError } from '../errors';
import { gateRow, isGateName } from '../gates/gateTable';
import { minConsecutiveWins } from '../gates/preflight';
import { parsePromptFile } from '../prompt/promptFile';
import type { PromptFile } from '../prompt/promptFile';
import { templateOf } from '../prompt/template';
import type { Template } from '../prompt/template';
import type { YamlPath } from '../data/yamlSource';
import { isCodeSpecValue, resolveCodeSpec } from '../code/spec';
import { resolveRunSpec } from './specResolve';
import { schemaDiagnostics } from './specSchema';
import { isSidecarPath, mergeSpecTexts, promptCandidatesFor, readSpecText, sidecarPathFor } from './specSource';
import type { MergedSpec, SpecText } from './specSource';
import { paceConfigOf } from '../run/gateConfig';
import type { GateSpec, RunSpec } from '../run/specTypes';

export { isSidecarPath, sidecarPathFor } from './specSource';

/** Problems in one sidecar (`*.ratchet.yaml`) or prompt file's `ratchet:` block. Never throws. */
export function validateRunSpecText(file: string, text: string): Diagnostic[] {
  const { spec, diagnostics } = readSpecText(file, text);
  if (!spec) return diagnostics;
  const schema = schemaDiagnostics(spec.value, spec.locate);
  if (errorsOf(schema).length > 0) return [...diagnostics, ...schema];
  const { merged } = mergeSpecTexts([spec], file);
  if (isCodeSpecValue(spec.value)) {
    // The editor cannot tell here whether evaluate.py sits beside the program; the loader can.
    const { diagnostics: resolved } = resolveCodeSpec(merged, { programPath: file, baseDir: '', resolvePath: (p) => p, shinkaTask: true });
    return [...diagnostics, ...resolved];
  }
  const { diagnostics: resolved } = resolveRunSpec(merged, { promptPath: file, baseDir: '', resolvePath: (p) => p, labels: undefined });
  return [...diagnostics, ...resolved];
}

/** Reads, validates and resolves the run spec of a prompt file. */
export async function loadRunSpec(files: Files, promptPath: string): Promise<RunSpec> {
  const run = await readRun(files, promptPath);
  throwIfErrors(run.diagnostics);
  return run.spec;
}

/** A spec that names no dataset and no split files: its run writes its own items (zero-data, core/zero/rounds.ts). */
export function namesNoDataset(spec: Pick<RunSpec, 'dataset' | 'split'>): boolean {
  return spec.dataset === undefined && spec.split.kind !== 'files';
}

/** The prompt file a sidecar belongs to (`x.ratchet.yaml` → the first of `x.prompt.md`, `x.prompty`, `x.md`, … that exists). */
export async function findPromptForSidecar(files: Files, sidecarPath: string): Promise<string | undefined> {
  for (const candidate of promptCandidatesFor(sidecarPath)) if (await files.exists(candidate)) return candidate;
  return undefined;
}

export interface RunInputs {
  spec: RunSpec;
  prompt: PromptFile;
  template: Template;
  /** The run's items by split: disjoint, fixed by the seed. Empty for a zero-data run. */
  splits: Splits;
  /** Warnings worth showing before the run starts (small splits, ignored keys, duplicates). */
  warnings: Diagnostic[];
}

export interface RunInputsOptions {
  /**
   * The gate the run will use where it differs from the spec's (`ratchet evolve --gate --alpha`):
   * the small-dev warning counts the wins that gate needs, at that α.
   */
  gate?: Partial<Pick<GateSpec, 'name' | 'alpha'>>;
  /** Below this many dev items, warn (default 20). */
  recommendedDevItems?: number;
}

/** Everything the evolution loop reads before its first LLM call, all checked. */
export async function loadRunInputs(files: Files, promptPath: string, opts: RunInputsOptions = {}): Promise<RunInputs> {
  const run = await readRun(files, promptPath);
  const { spec, prompt, merged } = run;
  const diagnostics = [...run.diagnostics];
  const template = templateOf(prompt);
  const items = [...run.datasets.values()].flatMap((d) => d.items);
  const how = evaluatedAs(prompt.kind);
  // Instructions and skills need not use the items' fields: the item is the user message.
  const datasetFields = how === 'user-message' ? datasetFieldsOf(items) : [];
  for (const x of checkStartingPrompt(prompt, template, { maxPromptTokens: spec.maxPromptTokens, datasetFields })) diagnostics.push(x);
  // Every readable item is checked now, even when another line of the file is broken, so one
  // pass over the file fixes everything.
  for (const x of checkItemsAgainstTemplate(items, template)) diagnostics.push(x);
  for (const x of checkHarness(spec, how, items)) diagnostics.push(x);
  throwIfErrors(diagnostics);
  const splitAt = merged.locate(merged.value.split !== undefined ? ['split'] : merged.value.dataset !== undefined ? ['dataset'] : [], 'key');

  let splits: Splits = { feedback: [], dev: [], test: [] };
  const itemsOf = (path: string | undefined): DataItem[] => (path === undefined ? [] : (run.datasets.get(path)?.items ?? []));
  if (spec.split.kind === 'files') {
    splits = {
      dev: itemsOf(spec.split.dev),
      test: itemsOf(spec.split.test),
      feedback: itemsOf(spec.split.feedback ?? spec.dataset),
    };
    for (const x of splitOverlaps(splits)) diagnostics.push(x);
  } else if (spec.dataset !== undefined) {
    try {
      splits = splitItems(itemsOf(spec.dataset), spec.split, spec.seed);
    } catch (err) {
      if (!RatchetError.is(err, 'badInput')) throw err;
      diagnostics.push(diagnostic(splitAt, err.message, { field: 'split' }));
    }
  }
  throwIfErrors(diagnostics);

  if (spec.dataset !== undefined || spec.split.kind === 'files') {
    const sizes = { feedback: splits.feedback.length, dev: splits.dev.length, test: splits.test.length } as Record<SplitName, number>;
    const gate: GateSpec = { ...spec.gate, ...opts.gate };
    const minWins = sizes.dev > 0 ? winsToCommit(gate, sizes.dev) : undefined;
    const advice = splitAdvice(sizes, {
      gate: `${gateLabel(gate.name)}${gate.population === 'finite' && minWins !== undefined ? ' (finite population)' : ''}`,
      alpha: gate.alpha,
      ...(minWins === undefined ? {} : { minWins }),
      ...(opts.recommendedDevItems === undefined ? {} : { recommendedDev: opts.recommendedDevItems }),
    });
    for (const x of splitAdviceDiagnostics(advice, splitAt)) diagnostics.push(x);
  }
  return { spec, prompt, template, splits, warnings: diagnostics.filter((d) => d.severity === 'warning') };
}

/**
 * The items as the harness will send them (core/data/itemMessage.ts): a message each where the file
 * is not itself the message, a trigger label that is yes or no, a scorer when any item has one
 * (the trigger is scored). A `harness.message` on a prompt file would be ignored: said so.
 */
function checkHarness(spec: RunSpec, how: EvaluatedAs, items: readonly DataItem[]): Diagnostic[] {
  const at = (field: string) => spec.origin[field] ?? lineLocation(spec.promptPath, 1);
  if (how === 'user-message') {
    return spec.harness.message === undefined
      ? []
      : [diagnostic(at('harness.message'), 'harness.message is the user message of instructions, agents and skills; a prompt file is itself the user message, so it is not read', { field: 'harness.message', severity: 'warning' })];
  }
  const skill = how === 'skill' && spec.harness.type === 'chat';
  const out = checkItemMessages(items, { message: spec.harness.message, skill });
  if (skill && !spec.scorer && hasTriggerLabels(items)) {
    out.push(
      diagnostic(at('dataset'), `items say whether the skill should load (${TRIGGER_FIELD}), which is a score: add a scorer for the answers (with "expected" on the items, or scorer: { type: llm-rubric, rubric: … })`, { field: 'scorer' }),
    );
  }
  return out;
}

/**
 * Fewest straight wins the gate needs to commit on a dev set of `n` (Infinity: never, a finite
 * population too small); undefined for a gate that does not count wins, or a gate section the run
 * will refuse anyway with its own located error.
 */
function winsToCommit(gate: GateSpec, n: number): number | undefined {
  try {
    const cfg = paceConfigOf(gate);
    return cfg && minConsecutiveWins(cfg, undefined, undefined, n);
  } catch (err) {
    if (RatchetError.is(err, 'badInput')) return undefined;
    throw err;
  }
}

/** How a gate is named in messages. */
export function gateLabel(name: string): string {
  return isGateName(name) ? gateRow(name).title : name;
}

/** A run's inputs as read, with every problem found; callers throw on errors. */
interface RunRead {
  spec: RunSpec;
  prompt: PromptFile;
  merged: MergedSpec;
  datasets: Map<string, DatasetParse>;
  diagnostics: Diagnostic[];
}

async function readRun(files: Files, promptPath: string): Promise<RunRead> {
  const promptText = await files.tryReadText(promptPath);
  if (promptText === undefined) throw new RatchetError('notFound', `prompt file not found: ${promptPath}`, { file: promptPath });
  if (isSidecarPath(promptPath)) {
    throw new RatchetError('badInput', `${promptPath} is a run spec; open the prompt file it belongs to`, { file: promptPath });
  }
  const prompt = parsePromptFile(promptPath, promptText);
  const diagnostics: Diagnostic[] = [];
  const texts: SpecText[] = [];
  const fm = readSpecText(promptPath, promptText);
  for (const x of fm.diagnostics) diagnostics.push(x);
  if (fm.spec) texts.push(fm.spec);
  const sidecarPath = sidecarPathFor(promptPath);
  const sidecarText = await files.tryReadText(sidecarPath);
  if (sidecarText !== undefined) {
    const side = readSpecText(sidecarPath, sidecarText);
    for (const x of side.diagnostics) diagnostics.push(x);
    if (side.spec) texts.push(side.spec);
  }
  for (const t of texts) for (const x of schemaDiagnostics(t.value, t.locate)) diagnostics.push(x);
  if (errorsOf(diagnostics).length > 0) throw badInputError(diagnostics);
  const { merged, diagnostics: conflicts } = mergeSpecTexts(texts, promptPath);
  for (const x of conflicts) diagnostics.push(x);
  if (errorsOf(diagnostics).length > 0) throw badInputError(diagnostics);

  const baseDir = files.dirname(promptPath);
  // Absolute paths are kept (join would glue them under baseDir); relative ones stay relative to
  // how the prompt path was given, so messages show the paths the user typed.
  const resolvePath = (p: string): string => (/^(?:\/|[A-Za-z]:[\\/]|\\\\)/.test(p) ? p : files.join(baseDir, p));
  const datasets = new Map<string, DatasetParse>();
  let missingFile = false;
  for (const [path, rel] of dataPaths(merged.value)) {
    const at = merged.locate(path);
    const resolved = resolvePath(rel);
    if (datasets.has(resolved)) continue;
    let parsed: DatasetParse | undefined;
    try {
      parsed = await readDatasetFile(files, resolved);
    } catch (err) {
      // Not a file Ratchet reads (a pipe, a device, too large): said where the spec names it.
      if (!RatchetError.is(err, 'badInput')) throw err;
      missingFile = true;
      diagnostics.push(diagnostic(at, `${path.join('.')}: ${err.message}`, { field: path.join('.') }));
      continue;
    }
    if (parsed === undefined) {
      missingFile = true;
      diagnostics.push(diagnostic(at, `dataset file not found: ${resolved} (${path.join('.')} is relative to ${describeFile(merged)})`, { field: path.join('.') }));
      continue;
    }
    datasets.set(resolved, parsed);
    for (const x of parsed.diagnostics) diagnostics.push(x);
  }

  // Checks continue on the readable items of a file with broken lines (every problem in one pass),
  // but label coverage is unknown when a whole file is missing: skip the checks that depend on it.
  const allItems = [...datasets.values()].flatMap((d) => d.items);
  const labels = missingFile ? undefined : labelCoverage(allItems);
  const { spec, diagnostics: resolved } = resolveRunSpec(merged, { promptPath, baseDir, resolvePath, labels });
  for (const x of resolved) diagnostics.push(x);
  if (spec.scorer && needsExpected(spec.scorer) && spec.labels === 'some') {
    // A skill's item that says it should not load is scored by that alone: it needs no answer.
    const unscored = (i: DataItem) => promptKindOf(promptPath) === 'skill' && triggerOf(i) === false;
    for (const item of allItems.filter((i) => !hasExpected(i) && !unscored(i))) {
      diagnostics.push(diagnostic(itemAt(item), `item has no expected answer, which scorer ${spec.scorer.type} needs`, { field: 'expected' }));
    }
  }
  return { spec, prompt, merged, datasets, diagnostics };
}

/** The dataset files a spec names, with the field naming each. */
function dataPaths(v: Record<string, unknown>): [YamlPath, string][] {
  const out: [YamlPath, string][] = [];
  if (typeof v.dataset === 'string') out.push([['dataset'], v.dataset]);
  const split = v.split as Record<string, unknown> | undefined;
  for (const k of ['dev', 'test', 'feedback'] as const) {
    if (typeof split?.[k] === 'string') out.push([['split', k], split[k]]);
  }
  return out;
}

function describeFile(merged: MergedSpec): string {
  const file = merged.sources[0]?.file ?? '';
  return `${file.split(/[\\/]/).pop() ?? file}'s folder`;
}

function itemAt(item: DataItem): Location {
  return lineLocation(item.source.file, item.source.line);
}
