/**
 * One code search as a Node face starts it (the CLI; the run daemon next): read the program and
 * its run spec (a sidecar `<file>.ratchet.yaml`, or none for a ShinkaEvolve task folder), assemble
 * the LLM layer with the run's budgets, run every evaluation in the sandbox (src/node/sandbox/sandbox.ts),
 * journal every event durably, and drive `runSearch`.
 *
 * In the editor (a `control`), each new best program is offered as it is committed (bestOffer.ts):
 * a suggestion the user accepts or rejects, or, in autopilot, written. The CLI has none: --apply
 * writes the best program into the file at the end, atomically, and only if the file still holds
 * the text the run started from; otherwise the caller prints the diff.
 */
import { availableParallelism } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { badInputError, diagnostic, errorsOf } from '../../core/data/diagnostics';
import { RatchetError } from '../../core/errors';
import { CODE_GATES } from '../../core/gates/gateTable';
import { checkOverrides } from '../../core/run/overrides';
import type { SearchOverrides } from '../../core/run/overrides';
import { parseBlocks } from '../../core/code/blocks';
import { BestOffer, isOfferEvent } from '../../core/code/bestOffer';
import { runSearch } from '../../core/code/search';
import type { ProgramEvaluator, SearchOutcome } from '../../core/code/search';
import { CODE_DEFAULTS, resolveCodeSpec } from '../../core/code/spec';
import type { CodeRunSpec } from '../../core/code/spec';
import { commandUsesInstances } from '../../core/code/evaluation';
import { commandFileWords, isBesideName } from '../../core/code/commandFiles';
import { describeRoles } from '../../core/llm/roles';
import { pricesFor } from '../../core/setup/pricing';
import type { CalledModel } from '../../core/setup/pricing';
import { estimateSearch } from '../../core/code/estimate';
import { batchWithinWallTime, withinWallTime } from './evaluationDeadline';
import { roleModels } from '../../core/run/modelChoice';
import type { Role } from '../../core/llm/types';
import { ROLES } from '../../core/llm/types';
import { SeededRandom } from '../../core/random';
import type { EngineEvent, JournaledEvent } from '../../core/journal/events';
import type { RoleModel } from '../../core/journal/payloadTypes';
import type { ClusterLoad, EvaluatorLoad } from '../../core/journal/runStatus';
import { readRunRecord, runPaths } from '../../core/journal/journal';
import { readJournal } from '../../core/journal/replay';
import type { EndpointDefaults } from '../../core/run/endpointDefaults';
import { schemaDiagnostics } from '../../core/setup/specSchema';
import { mergeSpecTexts, readSpecText } from '../../core/setup/specSource';
import { RUN_SPEC_EXTENSIONS } from '../../core/files/fileKinds';
import { NodeFiles } from '../files';
import { nodeEvaluationSandbox } from '../sandbox/sandbox';
import { cachedEvaluator } from './evaluationCache';
import { hideFromEnviron, runSecrets, secretVariableNames } from '../environSecrets';
import { SandboxNotes, checkedStage, keyVariableNames, reportSandbox, stageEvaluator, stagedEvaluator, stagedSetup } from './searchSandbox';
import { SlurmBackend } from '../slurm/backend';
import { nodeSlurmRunner } from '../slurm/cli';
import type { RunControl } from '../../core/journal/control';
import type { EventPayload } from '../../core/journal/control';
import { roleConfig } from './roles';
import { RunShell } from './runShell';
import { locateSearch, storeSearch } from './storedSearch';
import type { StoredSearch } from './storedSearch';

export type { SearchOverrides };

export interface SearchRunOptions {
  programPath: string;
  workspace: string;
  overrides: SearchOverrides;
  onEvent: (e: JournaledEvent) => void;
  signal: AbortSignal;
  endpointDefaults: EndpointDefaults;
  version: string;
  /** Refuse: every code search runs workspace code (its evaluator). */
  untrusted?: boolean;
  /** Write the best program into the file at the end (when the file still holds the start text). */
  apply?: boolean;
  /** Each time an evaluation starts or ends: the evaluator slots' load (the editor's status bar). */
  onEvaluatorLoad?: (load: EvaluatorLoad) => void;
  /** The editor's part in the run: each new best is offered to it (or, in autopilot, written through it) as it is committed. */
  control?: RunControl;
  /** The search is done and its best program waits for the user's answer. */
  onWaitingForYou?: (candidateId: string) => void;
}

export interface SearchRunOutcome extends SearchOutcome {
  runId: string;
  startText: string;
  /** --apply: 'applied', 'stale' (the file changed meanwhile; nothing written), or 'unchanged'. */
  applied?: 'applied' | 'stale' | 'unchanged';
  /** Evaluations this process ran; the rest came from the evaluation cache. */
  evaluatorRuns: number;
}

export async function startSearchRun(o: SearchRunOptions): Promise<SearchRunOutcome> {
  const files = new NodeFiles();
  const programPath = resolve(o.programPath);
  if (o.untrusted) throw new RatchetError('badInput', 'A code search runs its evaluator, which is workspace code; trust the workspace first.', { file: programPath });
  const startText = await files.readText(programPath).catch((err: unknown) => {
    // The files port's refusals (not found, a pipe, too large) say why already.
    if (RatchetError.is(err)) throw err;
    throw new RatchetError('badInput', `Cannot read ${programPath}.`, { file: programPath });
  });
  // Refused before the journal is created: a bad flag must not leave a failed run folder behind.
  checkOverrides(o.overrides);
  if (o.overrides.gate !== undefined && !(CODE_GATES as readonly string[]).includes(o.overrides.gate)) {
    throw new RatchetError('badInput', `--gate (gate.name) must be one of ${CODE_GATES.join(', ')} for a code search, got ${o.overrides.gate}.`, { field: 'gate' });
  }
  const spec = await withCommandFiles(files, await loadCodeSpec(files, programPath, o.overrides), programPath);
  // Marker errors (file:line) before anything is spent.
  parseBlocks(startText, programPath);
  return execute(files, { ...o, programPath }, spec, startText, undefined);
}

/**
 * Continues search run `runId` of `workspace`: the spec it started with (run.json), the program
 * text it started from (its journal), and the same seed, so every proposal comes back from the
 * LLM response cache and every evaluation from the evaluation cache; the journal's events are
 * checked, not written twice, and the run goes on from where it stopped.
 */
export async function resumeSearchRun(runId: string, o: Omit<SearchRunOptions, 'programPath' | 'overrides'> & { overrides?: Pick<SearchOverrides, 'baseURL' | 'model' | 'maxFailures'> }): Promise<SearchRunOutcome> {
  const files = new NodeFiles();
  const workspace = resolve(o.workspace);
  if (o.untrusted) throw new RatchetError('badInput', 'A code search runs its evaluator, which is workspace code; trust the workspace first.', { runId });
  const paths = runPaths(files, workspace, runId);
  const record = await readRunRecord(files, paths.runJson);
  if (record.kind !== 'search') throw new RatchetError('badInput', `Run ${runId} is a ${record.kind} run, not a code search; resume it with \`ratchet runs resume ${runId}\`.`, { runId });
  // Its files as they lie in this workspace, wherever the run started (a copied or moved folder).
  const { spec: stored, face } = locateSearch(record.spec as StoredSearch, workspace);
  if (!(await files.exists(stored.programPath))) {
    throw new RatchetError('badInput', `Cannot resume run ${runId}: its program ${stored.programPath} does not exist. Put the file back, or resume the run in the workspace folder that has it.`, { runId, file: stored.programPath });
  }
  // A run recorded before the novelty and bandit settings existed resumes with their defaults.
  const spec: CodeRunSpec = {
    ...stored,
    // …and one recorded before evaluator.isolation and limits.diskMb with theirs.
    evaluator: { ...stored.evaluator, isolation: stored.evaluator.isolation ?? CODE_DEFAULTS.evaluator.isolation, limits: { ...stored.evaluator.limits, diskMb: stored.evaluator.limits.diskMb ?? CODE_DEFAULTS.evaluator.limits.diskMb } },
    search: {
      ...stored.search,
      stopAfterFailedProposals: stored.search.stopAfterFailedProposals ?? CODE_DEFAULTS.search.stopAfterFailedProposals,
      bandit: stored.search.bandit ?? CODE_DEFAULTS.search.bandit,
      novelty: stored.search.novelty ?? { ...CODE_DEFAULTS.search.novelty },
    },
  };
  // The program it started from is its first proposal, as the journal's events have it.
  const seed = (await readJournal(files, paths.events)).events.find((e) => e.type === 'candidate/proposed' && e.candidateId === 'p0');
  if (seed?.type !== 'candidate/proposed') throw new RatchetError('badInput', `Run ${runId} never recorded its starting program; start a new search instead.`, { runId });
  return execute(files, { ...o, workspace, programPath: stored.programPath, overrides: { ...face, ...o.overrides } }, spec, seed.text, runId);
}

async function execute(files: NodeFiles, o: SearchRunOptions, spec: CodeRunSpec, startText: string, resumeId: string | undefined): Promise<SearchRunOutcome> {
  const programPath = o.programPath;
  const workspace = resolve(o.workspace);
  const shinkaDir = spec.evaluator.command === undefined ? dirname(programPath) : undefined;
  const { models, face, asProposer } = searchModels(spec, o.overrides);
  if ((models.proposer.model ?? face.roleModels?.proposer ?? face.model ?? o.endpointDefaults.model) === undefined) {
    throw new RatchetError('badInput', 'No model for the proposer role: pass --model, set RATCHET_MODEL or ratchet.models.proposer, or set models.proposer.model in the run spec.', { field: 'models.proposer.model' });
  }
  const roles = roleConfig({ models, origin: spec.origin }, face, o.endpointDefaults);
  const calledRoles: Role[] = ['proposer', ...(spec.search.metaEvery > 0 ? ['meta' as const] : []), ...(spec.search.novelty.judge ? ['validator' as const] : [])];
  const prices = pricesFor({ models }, describeRoles(roles), o.overrides, calledRoles, calledModels(spec));
  const shell = new RunShell({
    files,
    workspace,
    spec,
    roles,
    prices,
    budget: { candidates: spec.budget.proposals, ...pick(spec.budget, ['calls', 'tokens', 'dollars', 'wallTimeMinutes']) },
    ...(o.overrides.maxFailures === undefined ? {} : { maxFailures: o.overrides.maxFailures }),
  });
  const { llm, budget, clock } = shell;
  let stage: Awaited<ReturnType<typeof stageEvaluator>> | undefined;
  let slurm: SlurmBackend | undefined;
  let offer: BestOffer | undefined;
  try {
    // isolation: required without a jail stops here, before the journal: nothing is spent, no run folder is left.
    if (spec.evaluator.backend !== 'slurm') await nodeEvaluationSandbox.preflight(spec.evaluator.isolation);
    const secrets = runSecrets(spec, o.endpointDefaults);
    // A program that can see this process must not find the run's keys in its /proc environ.
    hideFromEnviron([...secretVariableNames(), ...keyVariableNames(spec)]);
    // The evaluator's files as they are now, for the whole run: a program that rewrites them in the workspace changes nothing here.
    stage = await stageEvaluator(spec, programPath, shinkaDir, await namedFiles(files, spec.evaluator.command, programPath));
    const staged = stage;
    const notes = new SandboxNotes();
    const run = await shell.journal(
      resumeId
        ? { resume: resumeId }
        : { create: { kind: 'search', target: programPath, seed: spec.seed, version: o.version, spec: storeSearch(spec, workspace, { roleModels: o.overrides.roleModels, prices: o.overrides.prices, free: o.overrides.free }) } },
      {
        onEvent: o.onEvent,
        provenance: { file: programPath, runKind: 'search' },
        enrich: (e) => notes.enrich(e),
        // A search's spend is journaled by the shell after each proposal's events (its proposer calls) and each decision.
        cost: 'shell',
        // The offer's events come when the user answers: a resume journals only those the journal
        // lacks, and gives the answers it holds again (run.control).
        answered: isOfferEvent,
      },
    );
    const stamped = (e: EventPayload<EngineEvent>) => ({ ...e, ...run.stamp() }) as EngineEvent;
    // evaluator.backend: slurm — every evaluation an array task on the cluster, through the same cache.
    slurm =
      spec.evaluator.backend === 'slurm'
        ? new SlurmBackend({
            runId: run.runId,
            startedAt: Date.parse(run.writer.record.createdAt),
            slurm: spec.evaluator.slurm!,
            setup: stagedSetup(spec, programPath, staged),
            identity: staged.identity,
            ...(spec.budget.clusterHours === undefined ? {} : { clusterHours: spec.budget.clusterHours }),
            sharedDir: spec.evaluator.slurm!.sharedDir ?? files.join(workspace, '.ratchet', 'slurm'),
            runnerFile: slurmTaskRunner(),
            node: spec.evaluator.slurm!.node ?? process.execPath,
            secrets,
            env: process.env,
            journaled: run.replayed,
            emit: (e) => run.write(stamped(e)),
            clock,
            signal: o.signal,
            runner: nodeSlurmRunner,
            ...(o.onEvaluatorLoad ? { onLoad: clusterLoad(spec, o.onEvaluatorLoad) } : {}),
          })
        : undefined;
    const cluster = slurm;
    const warn = (message: string) => void run.write(stamped({ type: 'log', level: 'warn', message })).catch(() => undefined);
    const evaluations = cachedEvaluator(
      files,
      files.join(workspace, '.ratchet', 'cache', 'eval'),
      staged.identity,
      checkedStage(staged, withinWallTime(cluster ? cluster.evaluate : stagedEvaluator(spec, programPath, staged, secrets, undefined, [workspace]), budget, spec.budget.wallTimeMinutes, clock), (changed) =>
        warn(`${changed.join(', ')} changed in the workspace during the run; this run goes on evaluating with the copies staged at its start (a new run will use the new files).`),
      ),
      (file, why) => warn(`The evaluation cache entry ${file} cannot be used: ${why}. The program is evaluated again and the entry rewritten.`),
    );
    const emit = async (e: EventPayload<EngineEvent>) => {
      // The run's jobs leave the cluster (and their cost is journaled) before its end is.
      if (e.type === 'run/finished') await cluster?.close();
      await run.emit(stamped(e));
      if (PAID_FOR.has(e.type)) await run.costUpdate();
    };
    const offerKey = (e: EngineEvent) => `${e.type}\u0000${'candidateId' in e ? e.candidateId : ''}`;
    const offered = new Set(run.replayed.filter(isOfferEvent).map(offerKey));
    const mode = o.overrides.mode ?? replayedMode(run.replayed) ?? 'suggest';
    offer = o.control
      ? new BestOffer({
          file: programPath,
          startText,
          mode,
          control: run.control(o.control),
          emit: async (e) => {
            const event = stamped(e);
            if (!offered.has(offerKey(event))) await run.write(event);
          },
          signal: o.signal,
          ...(o.onWaitingForYou ? { onWaiting: o.onWaitingForYou } : {}),
        })
      : undefined;
    try {
      await emit({
        type: 'run/started',
        info: {
          kind: 'search',
          target: programPath,
          gate: spec.gate.name,
          alpha: spec.gate.alpha,
          mode: offer ? mode : o.apply ? 'autopilot' : 'suggest',
          seed: spec.seed,
          models: searchRoleModels(spec, models, calledRoles, face, o.endpointDefaults, asProposer),
          estimate: estimateSearch(spec, startText, prices.byRole),
        },
      });
      await reportSandbox(spec, staged, emit, (e) => run.write(stamped(e)));
      // Before the first evaluation: the run folder staged, the probe job passed, a resume's jobs taken up again.
      await cluster?.open();
      const outcome = await runSearch({
        spec,
        seedText: startText,
        llm,
        evaluate: notes.evaluator(o.onEvaluatorLoad && !cluster ? measuredLoad(evaluations.evaluate, spec, o.onEvaluatorLoad) : evaluations.evaluate),
        ...(cluster ? { evaluateShards: notes.batch(evaluations.batch(batchWithinWallTime(cluster.evaluateShards, budget, spec.budget.wallTimeMinutes, clock))), evaluationBudget: () => cluster.exceeded() } : {}),
        random: new SeededRandom(spec.seed),
        emit,
        signal: o.signal,
        ...(offer ? { committed: offer } : {}),
      });
      const applied = o.apply ? await applyBest(files, programPath, startText, outcome.best.text) : undefined;
      return { ...outcome, runId: run.runId, startText, evaluatorRuns: evaluations.stats.runs, ...(applied ? { applied } : {}) };
    } catch (err) {
      // Cancel (the panel, Ctrl+C) or a failure: no job of the run is left on the cluster.
      await cluster?.close().catch(() => undefined);
      await run.ended(err, o.signal);
      throw err;
    }
  } finally {
    await slurm?.close().catch(() => undefined);
    offer?.close();
    await shell.close();
    await stage?.dispose();
  }
}

/** Events that follow LLM calls: the spend is journaled after each, so no face shows 0 calls while proposals are paid for. */
const PAID_FOR: ReadonlySet<EngineEvent['type']> = new Set(['candidate/proposed', 'proposal/failed', 'decision']);

/** Files the evaluator command names by absolute path (those beside the program are support files): they key the evaluation cache. */
export async function namedFiles(files: NodeFiles, command: string | undefined, programPath: string): Promise<string[]> {
  if (command === undefined) return [];
  const found: string[] = [];
  for (const w of commandFileWords(command, basename(programPath))) {
    if (isAbsolute(w) && (await files.isFile(w))) found.push(w);
  }
  return found;
}

/**
 * A command naming a file beside the program (`--evaluator "node evaluate.mjs {program} {results}"`)
 * gets that file copied into the sandbox, as Configure Code Search's supportFiles do: the sandbox
 * runs in a fresh folder, where the relative name would otherwise not be found.
 */
export async function withCommandFiles(files: NodeFiles, spec: CodeRunSpec, programPath: string): Promise<CodeRunSpec> {
  const { command, supportFiles } = spec.evaluator;
  if (command === undefined) return spec;
  const beside = commandFileWords(command, basename(programPath)).filter(isBesideName);
  const extra: string[] = [];
  for (const w of beside) {
    const path = resolve(dirname(programPath), w);
    if (!supportFiles.includes(path) && (await files.isFile(path))) extra.push(path);
  }
  return extra.length === 0 ? spec : { ...spec, evaluator: { ...spec.evaluator, supportFiles: [...supportFiles, ...extra] } };
}

/** The sidecar next to the program, else a ShinkaEvolve task folder's defaults, with the flags on top. */
export async function loadCodeSpec(files: NodeFiles, programPath: string, o: SearchOverrides): Promise<CodeRunSpec> {
  const sidecars = RUN_SPEC_EXTENSIONS.map((ext) => `${programPath}${ext}`);
  let sidecar: string | undefined;
  for (const path of sidecars) if (await files.exists(path)) sidecar = path;
  const shinkaTask = await files.exists(files.join(dirname(programPath), CODE_DEFAULTS.shinkaEvaluator));
  const file = sidecar ?? sidecars[0]!;
  const text = sidecar ? await files.readText(sidecar) : 'kind: code\n';
  const { spec: read, diagnostics } = readSpecText(file, text);
  if (!read) throw badInputError(diagnostics);
  if (read.value.kind !== 'code') {
    const kind = read.value.kind === undefined ? 'no kind (a prompt run spec)' : `kind ${JSON.stringify(read.value.kind)}`;
    throw badInputError([diagnostic(read.locate(['kind']), `this run spec has ${kind}; a code search needs kind: code`, { field: 'kind' })]);
  }
  const schema = schemaDiagnostics(read.value, read.locate);
  if (errorsOf(schema).length > 0) throw badInputError(schema);
  const { merged } = mergeSpecTexts([read], file);
  const baseDir = dirname(file);
  const resolved = resolveCodeSpec(merged, { programPath, baseDir, resolvePath: (p) => resolve(baseDir, p), shinkaTask: shinkaTask || o.evaluator !== undefined, defaultSlots: Math.max(1, availableParallelism() - 1) });
  if (errorsOf(resolved.diagnostics).length > 0) throw badInputError(resolved.diagnostics);
  const spec = resolved.spec;
  return {
    ...spec,
    evaluator: {
      ...spec.evaluator,
      ...(o.evaluator === undefined ? {} : { command: o.evaluator, shards: spec.evaluator.shards && commandUsesInstances(o.evaluator) }),
      ...(o.timeoutSeconds === undefined ? {} : { timeoutSeconds: o.timeoutSeconds }),
    },
    gate: { ...spec.gate, ...(o.gate ? { name: o.gate as CodeRunSpec['gate']['name'] } : {}), ...(o.alpha === undefined ? {} : { alpha: o.alpha }) },
    budget: {
      ...spec.budget,
      ...(o.proposals === undefined ? {} : { proposals: o.proposals }),
      ...(o.evaluations === undefined ? {} : { evaluations: o.evaluations }),
      ...(o.budgetDollars === undefined ? {} : { dollars: o.budgetDollars }),
    },
    ...(o.concurrency === undefined ? {} : { concurrency: o.concurrency }),
    ...(o.islands === undefined ? {} : { islands: o.islands }),
    ...(o.seed === undefined ? {} : { seed: o.seed }),
  };
}

/**
 * The task runner each Slurm task runs: bundled beside the CLI and the daemon (out/slurmTask.js,
 * scripts/build.mjs), which are CommonJS, so `__dirname` is their folder. Read only when a run
 * goes to Slurm (an ES-module caller, such as a bench, passes its own).
 */
function slurmTaskRunner(): string {
  return join(typeof __dirname === 'string' ? __dirname : resolve('out'), 'slurmTask.js');
}

/** A Slurm run's load as the live status reports it: tasks running of those in flight, and the cluster's counts. */
function clusterLoad(spec: CodeRunSpec, report: (load: EvaluatorLoad) => void): (load: ClusterLoad) => void {
  return (cluster) =>
    report({ busy: cluster.running, slots: cluster.running + cluster.queued, runs: cluster.queued + cluster.running + cluster.finished, ...(spec.budget.evaluations === undefined ? {} : { budget: spec.budget.evaluations }), cluster });
}

/**
 * Each role's model for a code search and the face's choices it is resolved with: the proposer's
 * own model is its endpoint's default (with search.proposerModels and none named, the first of
 * them); the meta notes and the novelty judge (the validator role) go where the proposer goes
 * unless the spec or the editor's ratchet.models.<role> names theirs.
 */
function searchModels(spec: CodeRunSpec, o: SearchOverrides): { models: CodeRunSpec['models']; face: FaceModels; asProposer: Role[] } {
  const listed = spec.search.proposerModels?.[0];
  const proposer = spec.models.proposer.model === undefined && listed ? { ...spec.models.proposer, model: listed.model } : spec.models.proposer;
  const inherits = (role: Role) => role !== 'proposer' && spec.models[role].model === undefined && o.roleModels?.[role] === undefined;
  const models = Object.fromEntries(ROLES.map((role) => [role, role === 'proposer' ? proposer : inherits(role) ? proposer : spec.models[role]])) as CodeRunSpec['models'];
  const fromProposer = proposer.model === undefined ? o.roleModels?.proposer : undefined;
  const roleModels = { ...o.roleModels, ...(fromProposer === undefined ? {} : Object.fromEntries(ROLES.filter(inherits).map((role) => [role, fromProposer]))) };
  const face: FaceModels = {
    ...(o.baseURL ? { baseURL: o.baseURL } : {}),
    ...(o.model ? { model: o.model } : {}),
    ...(Object.keys(roleModels).length > 0 ? { roleModels } : {}),
  };
  return { models, face, asProposer: ROLES.filter(inherits) };
}

/** Where each called role's model was chosen; a role that goes where the proposer goes says so. */
function searchRoleModels(spec: CodeRunSpec, models: CodeRunSpec['models'], called: readonly Role[], face: FaceModels, defaults: EndpointDefaults, asProposer: readonly Role[]): RoleModel[] {
  const chosen = roleModels({ models, origin: spec.origin }, ['proposer', ...called.filter((r) => r !== 'proposer')], face, defaults);
  const proposer = chosen[0]!;
  return chosen.filter((m) => called.includes(m.role)).map((m) => (asProposer.includes(m.role) ? { ...m, from: `as the proposer: ${proposer.from}` } : m));
}

type FaceModels = Pick<SearchOverrides, 'baseURL' | 'model' | 'roleModels'>;

/** The models a code search calls besides its roles': each proposer model the bandit chooses among, and the embedding model (called at the validator's endpoint). */
function calledModels(spec: CodeRunSpec): CalledModel[] {
  const embedding = spec.search.novelty.embedding;
  return [
    ...(spec.search.proposerModels ?? []).map((arm) => ({ model: arm.model, price: arm.price, field: 'search.proposerModels' })),
    ...(embedding ? [{ model: embedding.model, price: embedding.price, field: 'search.novelty.embedding' }] : []),
  ];
}

/**
 * The evaluator with its load reported around each call. The search calls it only from inside one
 * of its `concurrency` slots, so the calls in progress are the slots busy.
 */
function measuredLoad(evaluate: ProgramEvaluator, spec: CodeRunSpec, report: (load: EvaluatorLoad) => void): ProgramEvaluator {
  let busy = 0;
  let runs = 0;
  const tell = () => report({ busy, slots: spec.concurrency, runs, ...(spec.budget.evaluations === undefined ? {} : { budget: spec.budget.evaluations }) });
  return async (...args) => {
    busy++;
    runs++;
    tell();
    try {
      return await evaluate(...args);
    } finally {
      busy--;
      tell();
    }
  };
}

async function applyBest(files: NodeFiles, path: string, startText: string, best: string): Promise<'applied' | 'stale' | 'unchanged'> {
  if (best === startText) return 'unchanged';
  if ((await files.readText(path)) !== startText) return 'stale';
  await files.writeTextAtomic(path, best);
  return 'applied';
}

/** The mode a resumed search was started in (its `run/started`). */
function replayedMode(replayed: readonly EngineEvent[]): 'suggest' | 'autopilot' | undefined {
  const started = replayed.find((e) => e.type === 'run/started');
  return started?.type === 'run/started' ? started.info.mode : undefined;
}

function pick<T extends object, K extends keyof T>(o: T, keys: readonly K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Partial<Pick<T, K>>;
}

export { sandboxEvaluator } from './searchSandbox';
