/**
 * One code search as a Node face starts it (the CLI; the run daemon next): read the program and
 * its run spec (a sidecar `<file>.ratchet.yaml`, or none for a ShinkaEvolve task folder:
 * searchSpecFile.ts), assemble the LLM layer with the run's budgets and its roles' models
 * (searchModels.ts), run every evaluation in the sandbox (src/node/sandbox/sandbox.ts), report the
 * evaluator's load (evaluatorLoad.ts), journal every event durably, and drive `runSearch`.
 *
 * In the editor (a `control`), each new best program is offered as it is committed (bestOffer.ts):
 * a suggestion the user accepts or rejects, or, in autopilot, written. The CLI has none: --apply
 * writes the best program into the file at the end, atomically, and only if the file still holds
 * the text the run started from; otherwise the caller prints the diff.
 */
import { dirname, join, resolve } from 'node:path';
import { RatchetError } from '../../core/errors';
import { CODE_GATES } from '../../core/gates/gateTable';
import { checkOverrides } from '../../core/run/overrides';
import type { SearchOverrides } from '../../core/run/overrides';
import { parseBlocks } from '../../core/code/blocks';
import { BestOffer, isOfferEvent } from '../../core/code/bestOffer';
import { runSearch } from '../../core/code/search';
import type { SearchOutcome } from '../../core/code/search';
import { CODE_DEFAULTS } from '../../core/code/spec';
import type { CodeRunSpec } from '../../core/code/spec';
import { describeRoles } from '../../core/llm/roles';
import { pricesFor } from '../../core/setup/pricing';
import { estimateSearch } from '../../core/code/estimate';
import { batchWithinWallTime, withinWallTime } from './evaluationDeadline';
import type { Role } from '../../core/llm/types';
import { SeededRandom } from '../../core/random';
import type { EngineEvent, JournaledEvent } from '../../core/journal/events';
import type { EvaluatorLoad } from '../../core/journal/runStatus';
import { readRunRecord, runPaths } from '../../core/journal/journal';
import { readJournal } from '../../core/journal/replay';
import type { EndpointDefaults } from '../../core/run/endpointDefaults';
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
import { clusterLoad, measuredLoad } from './evaluatorLoad';
import { calledModels, searchModels, searchRoleModels } from './searchModels';
import { loadCodeSpec, namedFiles, withCommandFiles } from './searchSpecFile';
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

/**
 * The task runner each Slurm task runs: bundled beside the CLI and the daemon (out/slurmTask.js,
 * scripts/build.mjs), which are CommonJS, so `__dirname` is their folder. Read only when a run
 * goes to Slurm (an ES-module caller, such as a bench, passes its own).
 */
function slurmTaskRunner(): string {
  return join(typeof __dirname === 'string' ? __dirname : resolve('out'), 'slurmTask.js');
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
