/**
 * The run spec of a code search (`kind: code`), resolved: the same schema family as prompt runs
 * (schemas/run-spec.schema.json validates both, and gate, models, budget and seed mean the same),
 * plus the evaluator, islands and search settings. A sidecar `<program file>.ratchet.yaml` holds
 * it; a ShinkaEvolve task folder (`evaluate.py` beside the program) needs none.
 *
 * The checks a schema cannot express, each located at its field: the gate is one code search
 * decides with; prompt-only keys (dataset, scorer, split, …) are refused rather than ignored; a
 * score range is lo < hi; shards need {instances} in the command.
 */
import { diagnostic } from '../data/diagnostics';
import type { ArchivePolicy } from './database';
import type { Diagnostic, Location } from '../data/diagnostics';
import { isPlainObject } from '../data/item';
import type { YamlPath } from '../data/yamlSource';
import { CODE_GATES } from '../gates/gateTable';
import type { CodeGateName, GateName } from '../gates/gateTable';
import { SCHEDULES, scheduleRow } from '../gates/schedules';
import type { Schedule } from '../gates/schedules';
import { checkPrice, listedPrice, modelPrice } from '../llm/prices';
import type { ModelPrice, Role } from '../llm/types';
import { fieldName } from '../setup/specSchema';
import { origins, resolveGate, resolveModels } from '../setup/specResolve';
import type { Report } from '../setup/specResolve';
import type { MergedSpec } from '../setup/specSource';
import { DEFAULTS } from '../run/specTypes';
import type { GateSpec, ModelSpec, SpecSource } from '../run/specTypes';
import { COSINE_THRESHOLD } from './novelty';
import { DEFAULT_ISOLATION, ISOLATION_SETTINGS } from './isolation';
import type { IsolationSetting } from './isolation';
import { resolveSlurm, SLURM_DEFAULTS } from './slurmSpec';
import type { SlurmSpec } from './slurmSpec';

export interface EvaluatorSpec {
  /** Ratchet's form: a command with {program}, {results}, {instances}. Absent: ShinkaEvolve's `evaluate.py`. */
  command?: string;
  /** Resolved paths, copied beside the program in the sandbox. */
  supportFiles: string[];
  timeoutSeconds: number;
  deterministic: boolean;
  shards: boolean;
  shardSize: number;
  /** A single noisy score evaluated on this many seeds, which become the gate's instances. */
  repeats?: number;
  scoreRange: { lo: number; hi: number };
  env: string[];
  network: 'off' | 'on';
  /** required: refuse to evaluate without a jail (bubblewrap); best: the strongest the machine offers; off: none (docs/sandbox.md). */
  isolation: IsolationSetting;
  /** memoryMb and processes cap the whole evaluation (every process and thread of it), diskMb what it may write in its sandbox. */
  limits: { memoryMb: number; cpuSeconds?: number; fileSizeMb: number; diskMb: number; openFiles: number; processes: number };
  /** Where evaluations run: in the sandbox on this machine, or as Slurm array jobs (each task the same sandbox on a node). */
  backend: EvaluatorBackend;
  /** backend: slurm — how the jobs are submitted. */
  slurm?: SlurmSpec;
}

export type EvaluatorBackend = 'local' | 'slurm';

export type ParentSelection = 'weighted' | 'power-law' | 'beam' | 'bt';

export interface SearchSpec {
  mix: { diff: number; full: number; cross: number };
  parentSelection: ParentSelection;
  archiveSize: number;
  /** When the archive is full: replace the lowest-ranked member (fitness) or the most similar one (crowding), each only by a better newcomer. */
  archivePolicy: ArchivePolicy;
  migrationInterval: number;
  migrationRate: number;
  metaEvery: number;
  /** The search stops once this many proposals in a row came to nothing (no child to test); 0: never. */
  stopAfterFailedProposals: number;
  /** The models the proposer bandit chooses among; absent: models.proposer alone (see `proposerArms`). */
  proposerModels?: PricedModel[];
  bandit: { costWeight: number };
  novelty: NoveltySpec;
}

/** A model named with what it costs: `price` resolved from the spec, `free: true`, or Ratchet's list; absent when unknown. */
export interface PricedModel {
  model: string;
  price?: ModelPrice;
}

export interface NoveltySpec {
  /** The endpoint's /embeddings model (called at the validator role's endpoint); absent: token n-grams. */
  embedding?: PricedModel;
  cosineThreshold: number;
  ngramThreshold: number;
  /** Ask the validator role's model whether a child above the threshold is novel. */
  judge: boolean;
}

export interface CodeBudgetSpec {
  proposals: number;
  evaluations?: number;
  /** backend: slurm — cluster hours (ElapsedRaw × AllocCPUS of every task, as sacct reports them). */
  clusterHours?: number;
  calls?: number;
  tokens?: number;
  dollars?: number;
  wallTimeMinutes?: number;
}

export interface CodeRunSpec {
  kind: 'code';
  /** The file whose EVOLVE-BLOCK regions are evolved. */
  programPath: string;
  sources: SpecSource[];
  baseDir: string;
  evaluator: EvaluatorSpec;
  gate: GateSpec & { name: CodeGateName };
  budget: CodeBudgetSpec;
  models: Record<Role, ModelSpec>;
  islands: number;
  search: SearchSpec;
  seed: number;
  /** Evaluator slots: evaluations running at once (default: the machine's cores − 1). */
  concurrency: number;
  callTimeoutSeconds: number;
  origin: Record<string, Location>;
}

/** Defaults of the code-only keys; pinned to the schema's `default` annotations by a test. */
export const CODE_DEFAULTS = {
  gate: 'pace+' as CodeGateName,
  /** A search has no feedback split for the run-level default's screen: each child is controlled on its own. */
  schedule: 'per-candidate' as Schedule,
  budget: { proposals: 100 },
  islands: 2,
  evaluator: {
    timeoutSeconds: 600,
    deterministic: false,
    shards: false,
    shardSize: 10,
    scoreRange: [0, 1] as const,
    network: 'off' as const,
    isolation: DEFAULT_ISOLATION,
    // Processes counts threads too (a pids cgroup does): a numeric library starts one per core.
    limits: { memoryMb: 4096, fileSizeMb: 256, diskMb: 1024, openFiles: 256, processes: 256 },
    backend: 'local' as EvaluatorBackend,
  },
  slurm: SLURM_DEFAULTS,
  search: {
    mix: { diff: 0.6, full: 0.3, cross: 0.1 },
    parentSelection: 'weighted' as ParentSelection,
    archiveSize: 40,
    archivePolicy: 'fitness' as ArchivePolicy,
    migrationInterval: 10,
    migrationRate: 0.1,
    metaEvery: 10,
    stopAfterFailedProposals: 10,
    bandit: { costWeight: 0 },
    // Trigrams never call the judge by default: a one-constant tweak of a long program is a near-copy by them.
    novelty: { cosineThreshold: COSINE_THRESHOLD, ngramThreshold: 1, judge: true },
  },
  /** ShinkaEvolve's task folder: the evaluator beside the program, called with --program_path/--results_dir. */
  shinkaEvaluator: 'evaluate.py',
} as const;

/** Keys of the prompt family that mean nothing to a code search. */
const PROMPT_ONLY = ['dataset', 'split', 'scorer', 'mode', 'merge', 'maxPromptTokens', 'harness'] as const;

export interface CodeResolveContext {
  programPath: string;
  baseDir: string;
  resolvePath: (relative: string) => string;
  /** The program's folder holds ShinkaEvolve's `evaluate.py` (then no evaluator command is needed). */
  shinkaTask: boolean;
  /** Evaluator slots when the spec sets no `concurrency`: the face knows the machine (Node: cores − 1). */
  defaultSlots?: number;
}

type Raw = Record<string, unknown>;
const FREE: ModelPrice = { inputPerMTok: 0, outputPerMTok: 0 };
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

export function resolveCodeSpec(merged: MergedSpec, ctx: CodeResolveContext): { spec: CodeRunSpec; diagnostics: Diagnostic[] } {
  const v = merged.value;
  const diagnostics: Diagnostic[] = [];
  const report: Report = (path: YamlPath, message: string, severity: 'error' | 'warning' = 'error', part: 'key' | 'value' = 'value') => {
    diagnostics.push(diagnostic(merged.locate(path, part), message, { field: fieldName(path), severity }));
  };
  for (const key of PROMPT_ONLY) {
    if (v[key] !== undefined) report([key], `${key} is for prompt runs; a code search (kind: code) is scored by its evaluator`, 'error', 'key');
  }

  const rawBudget = isPlainObject(v.budget) ? v.budget : {};
  if (rawBudget.candidates !== undefined || rawBudget.iterations !== undefined) {
    report(['budget', rawBudget.candidates !== undefined ? 'candidates' : 'iterations'], 'a code search counts budget.proposals and budget.evaluations, not candidates or iterations', 'error', 'key');
  }
  const budget: CodeBudgetSpec = { proposals: num(rawBudget.proposals) ?? CODE_DEFAULTS.budget.proposals };
  for (const key of ['evaluations', 'clusterHours', 'calls', 'tokens', 'dollars', 'wallTimeMinutes'] as const) {
    const n = num(rawBudget[key]);
    if (n !== undefined) budget[key] = n;
  }
  const rawEvaluator = isPlainObject(v.evaluator) ? v.evaluator : {};
  if (budget.clusterHours !== undefined && rawEvaluator.backend !== 'slurm') {
    report(['budget', 'clusterHours'], 'budget.clusterHours counts the cluster time of Slurm jobs; it needs evaluator.backend: slurm', 'error', 'key');
  }

  const gateRaw: Raw = typeof v.gate === 'string' ? { name: v.gate } : isPlainObject(v.gate) ? v.gate : {};
  const name = (gateRaw.name as GateName | undefined) ?? CODE_DEFAULTS.gate;
  if (!(CODE_GATES as readonly string[]).includes(name)) {
    report(typeof v.gate === 'string' ? ['gate'] : ['gate', 'name'], `gate ${name} cannot decide a code search; use ${CODE_GATES.join(', ')}`);
  }
  const resolved = resolveGate(gateRaw, name, { candidates: budget.proposals }, report);
  if (gateRaw.schedule !== undefined && scheduleRow(resolved.schedule).screen) {
    report(['gate', 'schedule'], `gate.schedule ${resolved.schedule} screens candidates on a prompt run's feedback split, which a code search does not have; use ${SCHEDULES.filter((s) => !scheduleRow(s).screen).join(', ')}`);
  }
  const gate = { ...resolved, schedule: (gateRaw.schedule as Schedule | undefined) ?? CODE_DEFAULTS.schedule, name: name as CodeGateName };

  const spec: CodeRunSpec = {
    kind: 'code',
    programPath: ctx.programPath,
    sources: merged.sources,
    baseDir: ctx.baseDir,
    evaluator: resolveEvaluator(v.evaluator, ctx, report),
    gate,
    budget,
    models: resolveModels(v.models, report),
    islands: num(v.islands) ?? CODE_DEFAULTS.islands,
    search: resolveSearch(v.search, report),
    seed: num(v.seed) ?? DEFAULTS.seed,
    concurrency: num(v.concurrency) ?? ctx.defaultSlots ?? DEFAULTS.concurrency,
    callTimeoutSeconds: num(v.callTimeoutSeconds) ?? DEFAULTS.callTimeoutSeconds,
    origin: origins(v, merged),
  };
  // Checked key by key above; a reader expects them in file order.
  return { spec, diagnostics: diagnostics.sort((a, b) => a.line - b.line || a.column - b.column) };
}

function resolveEvaluator(raw: unknown, ctx: CodeResolveContext, report: Report): EvaluatorSpec {
  const r: Raw = isPlainObject(raw) ? raw : {};
  const d = CODE_DEFAULTS.evaluator;
  const command = typeof r.command === 'string' ? r.command : undefined;
  if (command === undefined && !ctx.shinkaTask) {
    report(raw === undefined ? [] : ['evaluator'], 'a code search needs evaluator: { command: "… {program} {results}" }, or ShinkaEvolve\'s evaluate.py beside the program', 'error', raw === undefined ? 'value' : 'key');
  }
  const shards = r.shards === true;
  if (command !== undefined && shards && !command.includes('{instances}')) {
    report(['evaluator', 'shards'], 'shards: true needs {instances} in evaluator.command (the file listing the instance ids a shard runs)');
  }
  const range = Array.isArray(r.scoreRange) ? (r.scoreRange as number[]) : [...d.scoreRange];
  const [lo, hi] = [range[0] ?? 0, range[1] ?? 1];
  if (!(lo < hi)) report(['evaluator', 'scoreRange'], `evaluator.scoreRange must be [lo, hi] with lo < hi (got [${lo}, ${hi}])`);
  const repeats = num(r.repeats);
  const limits: Raw = isPlainObject(r.limits) ? r.limits : {};
  const cpuSeconds = num(limits.cpuSeconds);
  const timeoutSeconds = num(r.timeoutSeconds) ?? d.timeoutSeconds;
  const memoryMb = num(limits.memoryMb) ?? d.limits.memoryMb;
  const backend: EvaluatorBackend = r.backend === 'slurm' ? 'slurm' : d.backend;
  if (r.slurm !== undefined && backend !== 'slurm') report(['evaluator', 'slurm'], 'evaluator.slurm is read only with evaluator.backend: slurm', 'warning', 'key');
  if (r.isolation === 'off' && r.network === 'off') report(['evaluator', 'network'], 'network: off is not enforced with evaluator.isolation: off (no namespace is made); use isolation: best to turn the network off', 'warning');
  const slurm = backend === 'slurm' ? resolveSlurm(r.slurm, { timeoutSeconds, memoryMb }, ctx.resolvePath, report) : undefined;
  return {
    ...(command === undefined ? {} : { command }),
    supportFiles: Array.isArray(r.supportFiles) ? (r.supportFiles as string[]).map(ctx.resolvePath) : [],
    timeoutSeconds,
    deterministic: r.deterministic === true,
    shards,
    shardSize: num(r.shardSize) ?? d.shardSize,
    ...(repeats === undefined ? {} : { repeats }),
    scoreRange: { lo, hi },
    env: Array.isArray(r.env) ? (r.env as string[]) : [],
    network: r.network === 'on' ? 'on' : d.network,
    isolation: (ISOLATION_SETTINGS as readonly unknown[]).includes(r.isolation) ? (r.isolation as IsolationSetting) : d.isolation,
    limits: {
      memoryMb,
      ...(cpuSeconds === undefined ? {} : { cpuSeconds }),
      fileSizeMb: num(limits.fileSizeMb) ?? d.limits.fileSizeMb,
      diskMb: num(limits.diskMb) ?? d.limits.diskMb,
      openFiles: num(limits.openFiles) ?? d.limits.openFiles,
      processes: num(limits.processes) ?? d.limits.processes,
    },
    backend,
    ...(slurm ? { slurm } : {}),
  };
}

function resolveSearch(raw: unknown, report: Report): SearchSpec {
  const r: Raw = isPlainObject(raw) ? raw : {};
  const d = CODE_DEFAULTS.search;
  const mixRaw: Raw = isPlainObject(r.mix) ? r.mix : {};
  const mix = { diff: num(mixRaw.diff) ?? d.mix.diff, full: num(mixRaw.full) ?? d.mix.full, cross: num(mixRaw.cross) ?? d.mix.cross };
  if (mix.diff + mix.full + mix.cross <= 0) report(['search', 'mix'], 'search.mix needs at least one proposal kind with a share above 0');
  const banditRaw: Raw = isPlainObject(r.bandit) ? r.bandit : {};
  const costWeight = num(banditRaw.costWeight) ?? d.bandit.costWeight;
  let proposerModels: PricedModel[] | undefined;
  if (Array.isArray(r.proposerModels)) {
    const models: PricedModel[] = [];
    const seen = new Set<string>();
    r.proposerModels.forEach((entry, i) => {
      const m = pricedModel(entry, ['search', 'proposerModels', i], report);
      if (!m) return;
      if (seen.has(m.model)) report(['search', 'proposerModels', i], `search.proposerModels lists ${m.model} twice; the bandit needs each model once`);
      else if (costWeight > 0 && !m.price) {
        report(['search', 'proposerModels', i], `search.bandit.costWeight weighs each model's dollars, but ${m.model} has no known price; give it price: { input: …, output: … } (USD per million tokens), or free: true`);
      }
      seen.add(m.model);
      models.push(m);
    });
    proposerModels = models;
  }
  const novelty: Raw = isPlainObject(r.novelty) ? r.novelty : {};
  const embedding = novelty.embedding === undefined ? undefined : pricedModel(novelty.embedding, ['search', 'novelty', 'embedding'], report);
  return {
    mix,
    parentSelection: (r.parentSelection as ParentSelection | undefined) ?? d.parentSelection,
    archiveSize: num(r.archiveSize) ?? d.archiveSize,
    archivePolicy: (r.archivePolicy as ArchivePolicy | undefined) ?? d.archivePolicy,
    migrationInterval: num(r.migrationInterval) ?? d.migrationInterval,
    migrationRate: num(r.migrationRate) ?? d.migrationRate,
    metaEvery: num(r.metaEvery) ?? d.metaEvery,
    stopAfterFailedProposals: num(r.stopAfterFailedProposals) ?? d.stopAfterFailedProposals,
    ...(proposerModels ? { proposerModels } : {}),
    bandit: { costWeight },
    novelty: {
      ...(embedding ? { embedding } : {}),
      cosineThreshold: num(novelty.cosineThreshold) ?? d.novelty.cosineThreshold,
      ngramThreshold: num(novelty.ngramThreshold) ?? d.novelty.ngramThreshold,
      judge: typeof novelty.judge === 'boolean' ? novelty.judge : d.novelty.judge,
    },
  };
}

/** A model entry as written (`name`, `{ model, price }` or `{ model, free: true }`) with its price resolved. */
function pricedModel(raw: unknown, path: YamlPath, report: Report): PricedModel | undefined {
  const r: Raw = typeof raw === 'string' ? { model: raw } : isPlainObject(raw) ? raw : {};
  if (typeof r.model !== 'string') return undefined;
  if (r.free === true && r.price !== undefined) report([...path, 'free'], `${fieldName(path)} sets both a price and free: true; keep one`);
  const written = checkPrice(r.price);
  const price = r.free === true ? FREE : written ? modelPrice(written) : listedPrice(r.model);
  return { model: r.model, ...(price ? { price } : {}) };
}

/**
 * The models the proposer bandit chooses among, each with its price when known:
 * search.proposerModels, else the proposer role's one model ('' when neither names one: the
 * endpoint's default model, named by the face — a flag or the environment).
 */
export function proposerArms(spec: Pick<CodeRunSpec, 'models' | 'search'>): PricedModel[] {
  if (spec.search.proposerModels) return spec.search.proposerModels;
  const m = spec.models.proposer;
  const price = m.free ? FREE : (m.price ?? (m.model === undefined ? undefined : listedPrice(m.model)));
  return [{ model: m.model ?? '', ...(price ? { price } : {}) }];
}

/** A spec value asks for a code search. */
export const isCodeSpecValue = (value: Record<string, unknown>): boolean => value.kind === 'code';
