/**
 * From a schema-valid spec value to a fully resolved RunSpec: defaults, shorthands
 * (`gate: pace+`, `scorer: numeric`, `agent: gpt-4o-mini`), role models merged with `default`, and
 * the checks a schema cannot express, each located at the field it is about:
 * - the split is all fractions, all counts, or files; fractions add up to at most 1;
 * - a regex or an inline JSON schema in the scorer compiles;
 * - reward-free runs: no scorer → the gate must be one that runs on the pairwise validator
 *   (pace-rf, pairwise, focus, elo; default pace-rf); labels but no scorer and no gate → error,
 *   since silently ignoring the user's labels is never what they meant;
 * - a scorer that compares with expected answers on a dataset without any.
 */
import { compileUserSchema } from '../data/scorers/jsonSchema';
import { compileRegex } from '../data/scorers/text';
import { needsExpected } from '../data/scorers/types';
import type { ScorerSpec, ScorerType } from '../data/scorers/types';
import { diagnostic } from '../data/diagnostics';
import type { Diagnostic, Location } from '../data/diagnostics';
import { RatchetError } from '../errors';
import type { LabelCoverage } from '../data/dataset';
import { DEFAULT_SPLIT_FRACTIONS, SPLIT_NAMES } from '../data/splits';
import type { SplitName } from '../data/splits';
import { isPlainObject } from '../data/item';
import type { YamlPath } from '../data/yamlSource';
import { GATE_PARAMS, gatesReading } from '../gates/gateTable';
import type { GateName } from '../gates/record';
import { checkPrice, modelPrice } from '../llm/prices';
import { ROLES } from '../llm/types';
import type { Role } from '../llm/types';
import { fieldName } from './specSchema';
import type { MergedSpec } from './specSource';
import { DEFAULTS, REWARD_FREE_GATES, SCORED_GATES } from '../run/specTypes';
import type { BudgetSpec, GateSpec, HarnessSpec, ModelSpec, RunSpec, SplitSpec } from '../run/specTypes';

export interface ResolveContext {
  promptPath: string;
  baseDir: string;
  /** Turns a spec-relative path into the path files are read from. */
  resolvePath: (relative: string) => string;
  /** Label coverage of the run's items; undefined when the data was not read (editor validation). */
  labels: LabelCoverage | undefined;
}

type Raw = Record<string, unknown>;

/** Keys of the spec family that only a code search (`kind: code`, src/core/code/spec.ts) reads. */
const CODE_ONLY_KEYS = ['evaluator', 'islands', 'search'] as const;

export function resolveRunSpec(merged: MergedSpec, ctx: ResolveContext): { spec: RunSpec; diagnostics: Diagnostic[] } {
  const v = merged.value;
  const diagnostics: Diagnostic[] = [];
  const report = (path: YamlPath, message: string, severity: 'error' | 'warning' = 'error', part: 'key' | 'value' = 'value'): void => {
    diagnostics.push(diagnostic(merged.locate(path, part), message, { field: fieldName(path), severity }));
  };

  for (const key of CODE_ONLY_KEYS) {
    if (v[key] !== undefined) report([key], `${key} is for code search; set kind: code to evolve a code file against an evaluator`, 'error', 'key');
  }
  for (const key of ['proposals', 'evaluations', 'clusterHours'] as const) {
    if (isPlainObject(v.budget) && v.budget[key] !== undefined) report(['budget', key], `budget.${key} counts a code search (kind: code); a prompt run counts budget.candidates`, 'error', 'key');
  }
  const scorer = resolveScorer(v.scorer, report);
  const budget: BudgetSpec = { ...(isPlainObject(v.budget) ? (v.budget as Partial<BudgetSpec>) : {}), candidates: DEFAULTS.budget.candidates };
  if (isPlainObject(v.budget) && typeof v.budget.candidates === 'number') budget.candidates = v.budget.candidates;

  const gateRaw: Raw = typeof v.gate === 'string' ? { name: v.gate } : isPlainObject(v.gate) ? v.gate : {};
  const gatePath: YamlPath = typeof v.gate === 'string' ? ['gate'] : ['gate', 'name'];
  let name = gateRaw.name as GateName | undefined;
  const labels = ctx.labels;
  if (!scorer) {
    if (name !== undefined && SCORED_GATES.includes(name)) {
      report(
        gatePath,
        `gate ${name} compares scores, but the run spec has no scorer; add scorer: { type: … } (exact, numeric, contains, regex, json-schema, llm-rubric, module, command) or use a reward-free gate (${REWARD_FREE_GATES.join(', ')})`,
      );
    } else if (name === undefined && labels !== undefined && labels !== 'none') {
      report(
        v.dataset === undefined ? [] : ['dataset'],
        'the dataset has expected answers but the run spec has no scorer; add scorer: { type: exact } (or numeric, contains, regex, …), or set gate: pace-rf to judge outputs pairwise and ignore the labels',
      );
    }
    name ??= DEFAULTS.gate.rewardFreeName;
  } else {
    name ??= DEFAULTS.gate.name;
    if (labels === 'none' && needsExpected(scorer)) {
      report(
        isPlainObject(v.scorer) ? ['scorer', 'type'] : ['scorer'],
        `scorer ${scorer.type} compares outputs with expected answers, but no item has one; add "expected" to the items, or remove the scorer and use gate: pace-rf (reward-free)`,
      );
    }
  }
  const gate = resolveGate(gateRaw, name, budget, report);

  const spec: RunSpec = {
    promptPath: ctx.promptPath,
    sources: merged.sources,
    baseDir: ctx.baseDir,
    dataset: typeof v.dataset === 'string' ? ctx.resolvePath(v.dataset) : undefined,
    split: resolveSplit(v.split, v.dataset !== undefined, ctx, report),
    scorer,
    rewardFree: scorer === undefined,
    labels: labels ?? 'none',
    models: resolveModels(v.models, report),
    gate,
    budget,
    seed: typeof v.seed === 'number' ? v.seed : DEFAULTS.seed,
    mode: v.mode === 'autopilot' ? 'autopilot' : DEFAULTS.mode,
    maxPromptTokens: typeof v.maxPromptTokens === 'number' ? v.maxPromptTokens : DEFAULTS.maxPromptTokens,
    merge: v.merge === true,
    concurrency: typeof v.concurrency === 'number' ? v.concurrency : DEFAULTS.concurrency,
    callTimeoutSeconds: typeof v.callTimeoutSeconds === 'number' ? v.callTimeoutSeconds : DEFAULTS.callTimeoutSeconds,
    harness: resolveHarness(v.harness, ctx, report),
    origin: origins(v, merged),
  };
  return { spec, diagnostics };
}

/** Fields only a command harness reads. */
const COMMAND_HARNESS_KEYS = ['command', 'timeoutSeconds', 'env', 'network', 'supportFiles'] as const;

function resolveHarness(raw: unknown, ctx: ResolveContext, report: Report): HarnessSpec {
  const r: Raw = isPlainObject(raw) ? raw : {};
  const message = typeof r.message === 'string' ? { message: r.message } : {};
  if (r.type !== 'command') {
    for (const key of COMMAND_HARNESS_KEYS) {
      if (r[key] !== undefined) report(['harness', key], `harness.${key} is read by harness type: command only; set type: command, or remove it`, 'warning', 'key');
    }
    return { type: 'chat', ...message };
  }
  if (typeof r.command !== 'string') report(['harness', 'type'], 'harness type: command needs a command that runs the agent on {file} and {input}, e.g. command: ./run-agent.sh {file} {input}', 'error', 'key');
  const d = DEFAULTS.harness.command;
  return {
    type: 'command',
    command: typeof r.command === 'string' ? r.command : '',
    ...message,
    timeoutSeconds: typeof r.timeoutSeconds === 'number' ? r.timeoutSeconds : d.timeoutSeconds,
    env: Array.isArray(r.env) ? (r.env as string[]) : [],
    network: r.network === 'off' ? 'off' : d.network,
    supportFiles: Array.isArray(r.supportFiles) ? (r.supportFiles as string[]).map(ctx.resolvePath) : [],
  };
}

export type Report = (path: YamlPath, message: string, severity?: 'error' | 'warning', part?: 'key' | 'value') => void;

function resolveScorer(raw: unknown, report: Report): ScorerSpec | undefined {
  if (raw === undefined) return undefined;
  const r: Raw = typeof raw === 'string' ? { type: raw } : (raw as Raw);
  const type = r.type as ScorerType;
  const d = DEFAULTS.scorer;
  let spec: ScorerSpec;
  switch (type) {
    case 'exact':
      spec = { type, ignoreCase: (r.ignoreCase as boolean | undefined) ?? d.exact.ignoreCase, trim: (r.trim as boolean | undefined) ?? d.exact.trim };
      break;
    case 'contains':
      spec = { type, ignoreCase: (r.ignoreCase as boolean | undefined) ?? d.contains.ignoreCase };
      if (typeof r.value === 'string') spec.value = r.value;
      break;
    case 'regex':
      spec = { type, flags: (r.flags as string | undefined) ?? d.regex.flags };
      if (typeof r.pattern === 'string') spec.pattern = r.pattern;
      break;
    case 'numeric':
      spec = {
        type,
        tolerance: (r.tolerance as number | undefined) ?? d.numeric.tolerance,
        relativeTolerance: (r.relativeTolerance as number | undefined) ?? d.numeric.relativeTolerance,
      };
      break;
    case 'json-schema':
      spec = { type, schema: r.schema as Record<string, unknown> | string };
      break;
    case 'llm-rubric':
      spec = { type, rubric: r.rubric as string, scale: (r.scale as number | undefined) ?? d['llm-rubric'].scale };
      break;
    case 'module':
      spec = { type, path: r.path as string, export: (r.export as string | undefined) ?? d.module.export };
      break;
    case 'command':
      spec = {
        type,
        command: r.command as string,
        args: (r.args as string[] | undefined) ?? [...d.command.args],
        timeoutSeconds: (r.timeoutSeconds as number | undefined) ?? d.command.timeoutSeconds,
        env: (r.env as Record<string, string> | undefined) ?? { ...d.command.env },
        passEnv: (r.passEnv as string[] | undefined) ?? [...d.command.passEnv],
      };
      break;
  }
  // Compile what can be compiled without files now, so the editor flags it while the user types.
  try {
    if (spec.type === 'regex' && spec.pattern !== undefined) compileRegex(spec.pattern, spec.flags.replace(/[gy]/g, ''), {});
    if (spec.type === 'json-schema' && typeof spec.schema !== 'string') compileUserSchema(spec.schema, {});
  } catch (err) {
    // Without a locator the message is "scorer.<field>: …"; report it at that field.
    const field = RatchetError.is(err) && typeof err.details.field === 'string' ? err.details.field : 'scorer';
    report(field.split('.'), err instanceof Error ? err.message : String(err));
  }
  return spec;
}

export function resolveGate(raw: Raw, name: GateName, budget: BudgetSpec, report: Report): GateSpec {
  const d = DEFAULTS.gate;
  const focus = isPlainObject(raw.focus) ? raw.focus : {};
  const elo = isPlainObject(raw.elo) ? raw.elo : {};
  // Parameters of another gate are harmless but usually a sign the user expects them to matter.
  for (const key of GATE_PARAMS) {
    const gates = gatesReading(key);
    if (raw[key] !== undefined && !gates.includes(name)) {
      report(['gate', key], `gate.${key} is used only by gate ${gates.join(' / ')}; gate ${name} ignores it`, 'warning', 'key');
    }
  }
  return {
    name,
    alpha: (raw.alpha as number | undefined) ?? d.alpha,
    lambda: (raw.lambda as number | undefined) ?? d.lambda,
    lambdas: (raw.lambdas as number[] | undefined) ?? [...d.lambdas],
    schedule: (raw.schedule as GateSpec['schedule'] | undefined) ?? d.schedule,
    horizon: (raw.horizon as number | undefined) ?? budget.candidates,
    population: (raw.population as GateSpec['population'] | undefined) ?? d.population,
    focus: { refreshEvery: (focus.refreshEvery as number | undefined) ?? d.focus.refreshEvery },
    elo: {
      k: (elo.k as number | undefined) ?? d.elo.k,
      matches: (elo.matches as number | undefined) ?? d.elo.matches,
      temperature: (elo.temperature as number | undefined) ?? d.elo.temperature,
      soft: (elo.soft as boolean | undefined) ?? d.elo.soft,
    },
  };
}

function resolveSplit(raw: unknown, hasDataset: boolean, ctx: ResolveContext, report: Report): SplitSpec {
  const fallback: SplitSpec = { kind: 'fractions', ...DEFAULT_SPLIT_FRACTIONS };
  if (!isPlainObject(raw)) return fallback;
  const entries = SPLIT_NAMES.filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]] as [SplitName, number | string]);
  const strings = entries.filter(([, x]) => typeof x === 'string');
  if (strings.length > 0 && strings.length < entries.length) {
    report(['split'], 'split mixes file paths and numbers; give dev/test files (the dataset is then the feedback pool), or all fractions, or all counts', 'error', 'key');
    return fallback;
  }
  if (strings.length > 0) {
    const files = Object.fromEntries(strings) as Partial<Record<SplitName, string>>;
    if (files.dev === undefined) {
      report(['split'], 'split with files needs a dev file (split: { dev: dev.jsonl, test: test.jsonl })', 'error', 'key');
      return fallback;
    }
    if (files.feedback !== undefined && hasDataset) {
      report(['split', 'feedback'], 'split.feedback and dataset both name the feedback items; keep one');
    }
    const spec: SplitSpec = { kind: 'files', dev: ctx.resolvePath(files.dev) };
    if (files.test !== undefined) spec.test = ctx.resolvePath(files.test);
    if (files.feedback !== undefined) spec.feedback = ctx.resolvePath(files.feedback);
    return spec;
  }
  const nums = Object.fromEntries(entries) as Partial<Record<SplitName, number>>;
  const values = Object.values(nums) as number[];
  // Values ≤ 1 are fractions ("dev: 1" means all items); any value above 1 makes them counts.
  if (values.every((x) => x <= 1)) {
    const sum = values.reduce((a, b) => a + b, 0);
    if (sum > 1 + 1e-9) {
      report(['split'], `split fractions add up to ${round(sum)}, more than 1`, 'error', 'key');
      return fallback;
    }
    const missing = SPLIT_NAMES.filter((k) => nums[k] === undefined);
    const weight = missing.reduce((a, k) => a + DEFAULT_SPLIT_FRACTIONS[k], 0);
    const share = (k: SplitName): number => nums[k] ?? ((1 - sum) * DEFAULT_SPLIT_FRACTIONS[k]) / weight;
    if (missing.length === 0 && sum < 1 - 1e-9) {
      report(['split'], `split fractions add up to ${round(sum)}; the other ${round((1 - sum) * 100)}% of the items are left unused`, 'warning', 'key');
    }
    return { kind: 'fractions', feedback: share('feedback'), dev: share('dev'), test: share('test') };
  }
  let ok = true;
  for (const [k, x] of entries) {
    if (!Number.isInteger(x)) {
      report(['split', k], `split.${k} must be a whole number of items when the split uses counts (got ${x}); use all fractions (≤ 1) or all counts`);
      ok = false;
    }
  }
  return ok ? { kind: 'counts', ...nums } : fallback;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function toModel(raw: unknown): ModelSpec {
  if (typeof raw === 'string') return { model: raw };
  if (!isPlainObject(raw)) return {};
  const out: ModelSpec = {};
  for (const key of ['model', 'baseURL', 'temperature', 'maxTokens', 'stop', 'apiKeyEnv'] as const) {
    if (raw[key] !== undefined) (out as Record<string, unknown>)[key] = raw[key];
  }
  const price = checkPrice(raw.price);
  if (price) out.price = modelPrice(price);
  if (typeof raw.free === 'boolean') out.free = raw.free;
  return out;
}

/**
 * Each role over `default`. A price belongs to a model and `free` to an endpoint, so a role that
 * names its own model does not inherit the default's price, nor one with its own baseURL its `free`.
 */
export function resolveModels(raw: unknown, report: Report): Record<Role, ModelSpec> {
  const r = isPlainObject(raw) ? raw : {};
  for (const key of ['default', ...ROLES]) {
    const entry = r[key];
    if (isPlainObject(entry) && entry.free === true && entry.price !== undefined) {
      report(['models', key, 'free'], `models.${key} sets both a price and free: true; keep one (free: true means its endpoint costs nothing)`);
    }
  }
  const base = toModel(r.default);
  return Object.fromEntries(
    ROLES.map((role) => {
      const own = toModel(r[role]);
      const merged: ModelSpec = { ...base, ...own };
      if (own.model !== undefined && own.model !== base.model && own.price === undefined) delete merged.price;
      if (own.baseURL !== undefined && own.baseURL !== base.baseURL && own.free === undefined) delete merged.free;
      return [role, merged];
    }),
  ) as Record<Role, ModelSpec>;
}

/** Location of every written field, keyed by dotted path. */
export function origins(value: unknown, merged: MergedSpec): Record<string, Location> {
  const out: Record<string, Location> = {};
  const visit = (v: unknown, path: (string | number)[]): void => {
    if (path.length > 0) out[fieldName(path)] = merged.locate(path);
    if (Array.isArray(v)) v.forEach((x, i) => visit(x, [...path, i]));
    else if (isPlainObject(v)) for (const [k, x] of Object.entries(v)) visit(x, [...path, k]);
  };
  visit(value, []);
  return out;
}
