/**
 * One evolve run as a Node face starts it (the CLI, and the run daemon for the editor): load and
 * check the inputs, assemble the ports with the LLM layer, open (or resume) the journal, and drive
 * `runEvolve` with every event journaled durably before the engine's next step.
 *
 * Resume replays, it does not patch (src/core/journal/resume.ts): the run is executed again from the
 * start with the same seed, every LLM call made before the interruption is answered by the on-disk
 * response cache (and counted as the paid call it was, so the meter and the budgets carry over),
 * and the events already journaled are checked, not written twice; the user's decisions on
 * suggestions are taken from the journal.
 */
import { resolve } from 'node:path';
import type { DataItem } from '../../core/data/item';
import { loadDataset } from '../../core/data/dataset';
import { splitItems } from '../../core/data/splits';
import type { SplitPlan } from '../../core/data/splits';
import { checkItemsAgainstTemplate } from '../../core/data/templateCheck';
import { badInputError, errorsOf } from '../../core/data/diagnostics';
import { RatchetError } from '../../core/errors';
import { REWARD_FREE_GATES, SCORED_GATES } from '../../core/gates/gateTable';
import { checkFeasible, runEvolve } from '../../core/evolve/loop';
import type { EvolveResult } from '../../core/evolve/loop';
import type { LlmTransport } from '../../core/ports';
import { describeRoles } from '../../core/llm/roles';
import { sha256Hex } from '../../core/random';
import type { JournaledEvent } from '../../core/journal/events';
import { readRunRecord, runPaths } from '../../core/journal/journal';
import { estimateRun, estimateZeroEvolve } from '../../core/setup/estimate';
import { pricesFor } from '../../core/setup/pricing';
import { loadRunInputs, namesNoDataset } from '../../core/setup/spec';
import type { RunInputs } from '../../core/setup/spec';
import type { RunSpec } from '../../core/run/specTypes';
import { checkOverrides } from '../../core/run/overrides';
import type { EvolveOverrides } from '../../core/run/overrides';
import { paceConfigOf } from '../../core/run/gateConfig';
import type { EndpointDefaults } from '../../core/run/endpointDefaults';
import { roleModels } from '../../core/run/modelChoice';
import { templateVariableNames } from '../../core/prompt/template';
import { DEFAULT_ZERO_SETTINGS, ZeroRounds } from '../../core/zero/rounds';
import type { ZeroRoundsDeps } from '../../core/zero/rounds';
import { zeroDataRounds } from './zeroDataRounds';
import { checkItemMessages } from '../../core/data/itemMessage';
import { agentCallsPerEvaluation } from '../../core/evolve/harness';
import { evaluatedAs } from '../../core/files/fileKinds';
import { promptHarness } from './promptHarness';
import { trustedScorer } from './testBudget';
import { NodeFiles } from '../files';
import { locateRun, storeRun, storedRunOf } from './storedRun';
import type { StoredRun } from './storedRun';
import { roleConfig } from './roles';
import { RunShell } from './runShell';
import type { RunControl } from '../../core/journal/control';

export interface EvolveRunOptions {
  promptPath: string;
  /** Where `.ratchet/` lives (runs, cache). */
  workspace: string;
  overrides: EvolveOverrides;
  control: RunControl;
  /** Each new event, after it is durable in the journal, with the `seq` it has there. */
  onEvent: (e: JournaledEvent) => void;
  signal: AbortSignal;
  /** Where roles without an endpoint of their own go, and the keys (secret: never journaled). */
  endpointDefaults: EndpointDefaults;
  version: string;
  /** Refuse runs whose scorer executes workspace code (an untrusted workspace). */
  untrusted?: boolean;
  /** Where LLM calls go instead of the OpenAI-compatible endpoints (the editor's language models). */
  transport?: LlmTransport;
}

export interface EvolveRunOutcome extends EvolveResult {
  runId: string;
  /** Warnings found while loading the inputs (small splits, ignored keys). */
  warnings: string[];
}

export async function startEvolveRun(opts: EvolveRunOptions): Promise<EvolveRunOutcome> {
  // Resolved against the face's working directory now, so run.json can keep it relative to the workspace.
  const overrides = opts.overrides.dataset === undefined ? opts.overrides : { ...opts.overrides, dataset: resolve(opts.overrides.dataset) };
  return execute({ ...opts, workspace: resolve(opts.workspace), overrides }, undefined);
}

/**
 * Where and how patiently a resumed run's calls go, on top of what it started with. Never what:
 * a base URL, a per-call timeout and the failures a call may take are not inputs a resume checks,
 * while a model, gate, seed or concurrency would change the run's decisions and is not offered.
 */
export type ResumeEndpoint = Pick<EvolveOverrides, 'baseURL' | 'callTimeoutSeconds' | 'maxFailures'>;

/**
 * Resumes run `runId` of `workspace`, in that workspace: its journal, lock, response cache and prompt
 * file are the ones there (run.json keeps paths relative to the workspace), whichever folder the run
 * started in.
 */
export async function resumeEvolveRun(runId: string, workspace: string, opts: Omit<EvolveRunOptions, 'promptPath' | 'workspace' | 'overrides'> & { endpoint?: ResumeEndpoint }): Promise<EvolveRunOutcome> {
  const files = new NodeFiles();
  const root = resolve(workspace);
  const stored = storedRunOf(await readRunRecord(files, runPaths(files, root, runId).runJson));
  const { promptPath, overrides } = locateRun(stored, root);
  if (!(await files.exists(promptPath))) {
    throw new RatchetError('badInput', `Cannot resume run ${runId}: its prompt file ${promptPath} does not exist. Put the file back, or resume the run in the workspace folder that has it.`, { runId, file: promptPath });
  }
  const { endpoint, ...rest } = opts;
  const how = Object.fromEntries(Object.entries(endpoint ?? {}).filter(([, v]) => v !== undefined)) as ResumeEndpoint;
  return execute({ ...rest, promptPath, workspace: root, overrides: { ...overrides, ...how } }, { runId, stored });
}

async function execute(opts: EvolveRunOptions, resuming: { runId: string; stored: StoredRun } | undefined): Promise<EvolveRunOutcome> {
  const files = new NodeFiles();
  const promptPath = resolve(opts.promptPath);
  // Every refusal of the inputs comes before the journal: a bad flag must not leave a failed run folder.
  checkOverrides(opts.overrides);
  const inputs = await loadInputs(files, promptPath, opts.overrides);
  const spec = inputs.spec;
  checkGate(spec);
  // No dataset: the run writes its own items in zero-data rounds as it goes (node/genDataRun.ts).
  const zero = isZeroData(spec, opts.overrides) ? zeroDataPlan(inputs) : undefined;
  // A gate that can never commit on this dev set (`--alpha 1e-300`) is refused before a run folder exists.
  if (!zero && spec.budget.candidates > 0) checkFeasible(spec, inputs.splits.dev.length);
  const calls = zero ? 'zeroDataEvolve' : spec.budget.candidates === 0 ? 'evaluate' : 'evolve';
  const roles = roleConfig(spec, opts.overrides, opts.endpointDefaults, opts.transport !== undefined);
  const prices = pricesFor(spec, describeRoles(roles), opts.overrides, calls);
  const shell = new RunShell({
    files,
    workspace: opts.workspace,
    spec,
    roles,
    prices,
    budget: spec.budget,
    ...(opts.transport ? { transport: opts.transport } : {}),
    ...(opts.overrides.maxFailures === undefined ? {} : { maxFailures: opts.overrides.maxFailures }),
  });
  const { llm, ports, budget, clock } = shell;
  // Both refuse workspace code in an untrusted workspace before any of it is loaded or run.
  const harness = await promptHarness(inputs, { workspace: opts.workspace, files, endpoint: opts.endpointDefaults, untrusted: opts.untrusted === true });
  const scorer = await trustedScorer(spec, { files, llm, proc: ports.proc }, opts.untrusted === true);
  const inputsHash = hashInputs(inputs);
  if (resuming && resuming.stored.inputsHash !== inputsHash) {
    throw new RatchetError('badInput', `The dataset or spec of run ${resuming.runId} changed since it started; resuming would not reproduce its decisions. Start a new run.`, { runId: resuming.runId });
  }
  const opening = resuming
    ? { resume: resuming.runId }
    : { create: { kind: 'evolve', target: promptPath, seed: spec.seed, version: opts.version, spec: storeRun({ promptPath, workspace: opts.workspace, overrides: opts.overrides, inputsHash, spec }) } as const };
  try {
    // The loop journals its own start, spend and end (core/evolve/loop.ts), replayed and checked on resume.
    const run = await shell.journal(opening, { onEvent: opts.onEvent, provenance: { file: promptPath, runKind: 'evolve' }, cost: 'engine' });
    const startText = run.replayed.find((e) => e.type === 'candidate/proposed' && e.candidateId === 'v0');
    const challengerModel = roles.challenger?.model ?? '';
    const dataRounds = zero && zeroDataRounds(new ZeroRounds({ ...zero, runId: run.runId, llm, concurrency: spec.concurrency, now: () => clock.now(), challengerModel }), ZERO_CANDIDATES_PER_ROUND, challengerModel, run.emit);
    const result = await runEvolve(
      {
        runId: run.runId,
        spec,
        prompt: inputs.prompt,
        template: inputs.template,
        splits: inputs.splits,
        scorer,
        ports,
        meter: llm,
        budget,
        // Inside the replaying control: an edit a resume finds already applied was recorded the first time.
        control: run.control(opts.control),
        estimate: zero
          ? estimateZeroEvolve({ spec, template: inputs.template, rounds: zeroRoundsAtMost(spec), ...zero.settings }, prices.byRole)
          : estimateRun({ ...inputs, agentCalls: agentCallsPerEvaluation(spec.harness, evaluatedAs(inputs.prompt.kind)) }, prices.byRole),
        ...(harness ? { harness } : {}),
        models: roleModels(spec, prices.called, opts.overrides, opts.endpointDefaults, opts.transport !== undefined),
        ...(dataRounds ? { dataRounds } : {}),
        ...(startText?.type === 'candidate/proposed' ? { startText: startText.text } : {}),
      },
      run.emit,
      opts.signal,
    );
    return { ...result, runId: run.runId, warnings: inputs.warnings.map((w) => `${w.file}:${w.line}: ${w.message}`) };
  } finally {
    await shell.close();
  }
}

/** Candidates tested on each zero-data round's items before the next round is written. */
const ZERO_CANDIDATES_PER_ROUND = 2;

/** The most rounds a zero-data evolve run can have: one per ZERO_CANDIDATES_PER_ROUND candidates. */
function zeroRoundsAtMost(spec: RunSpec): number {
  return Math.max(1, Math.ceil(spec.budget.candidates / ZERO_CANDIDATES_PER_ROUND));
}

/** A run whose spec names no dataset and no split files, and no --data was given. */
function isZeroData(spec: RunSpec, o: EvolveOverrides): boolean {
  return o.dataset === undefined && namesNoDataset(spec);
}

/** What a zero-data run's rounds need from the inputs; refused (before any run folder) for a prompt without variables. */
function zeroDataPlan(inputs: RunInputs): Omit<ZeroRoundsDeps, 'runId' | 'llm' | 'concurrency' | 'now' | 'challengerModel'> {
  const variables = templateVariableNames(inputs.prompt.body, inputs.template.syntax);
  if (variables.length === 0) {
    throw new RatchetError('badInput', `${inputs.prompt.path} names no dataset and has no template variable, so a generated task has nothing to fill: add one where the input goes, e.g. {{input}}, or name a dataset.`, {
      file: inputs.prompt.path,
      field: 'dataset',
    });
  }
  const description = inputs.prompt.frontMatter?.['description'];
  return {
    template: inputs.template,
    variables,
    brief: typeof description === 'string' ? { description } : {},
    settings: { ...DEFAULT_ZERO_SETTINGS, seed: inputs.spec.seed, ...(inputs.spec.models.agent.stop ? { solverStop: inputs.spec.models.agent.stop } : {}) },
  };
}

/**
 * The gate the run will build, built once now (it is built again inside the engine): whatever it
 * refuses — the spec's gate section with the flags on top — is refused before a run folder exists.
 */
function checkGate(spec: RunSpec): void {
  try {
    paceConfigOf(spec.gate);
  } catch (err) {
    if (!RatchetError.is(err, 'badInput')) throw err;
    throw new RatchetError('badInput', `gate ${spec.gate.name}: ${err.message}`, { field: 'gate' }, err);
  }
}

/** On resume, the user's earlier answers come from the journal, not from a second prompt. */
async function loadInputs(files: NodeFiles, promptPath: string, o: EvolveOverrides): Promise<RunInputs> {
  // The small-dev warning names the exact number of straight wins the run's gate needs.
  const gate = { ...(o.gate ? { name: o.gate } : {}), ...(o.alpha !== undefined ? { alpha: o.alpha } : {}) };
  const inputs = await loadRunInputs(files, promptPath, { gate });
  const spec: RunSpec = {
    ...inputs.spec,
    gate: { ...inputs.spec.gate, ...gate },
    budget: {
      ...inputs.spec.budget,
      ...(o.budgetCalls !== undefined ? { calls: o.budgetCalls } : {}),
      ...(o.candidates !== undefined ? { candidates: o.candidates } : {}),
    },
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.mode ? { mode: o.mode } : {}),
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
    ...(o.callTimeoutSeconds !== undefined ? { callTimeoutSeconds: o.callTimeoutSeconds } : {}),
  };
  if (spec.rewardFree && SCORED_GATES.includes(spec.gate.name)) {
    const others = REWARD_FREE_GATES.slice(0, -1).join(', ');
    throw new RatchetError('badInput', `Gate ${spec.gate.name} needs scored items, and this run has no labels or scorer; use ${others} or ${REWARD_FREE_GATES.at(-1)}.`, { field: 'gate' });
  }
  let splits = inputs.splits;
  const reSplit = o.dataset !== undefined || o.seed !== undefined;
  if (reSplit && spec.split.kind !== 'files') {
    const items: DataItem[] = o.dataset !== undefined ? (await loadDataset(files, resolve(o.dataset))).items : [...inputs.splits.feedback, ...inputs.splits.dev, ...inputs.splits.test];
    const how = evaluatedAs(inputs.prompt.kind);
    const messages = how === 'user-message' ? [] : checkItemMessages(items, { message: spec.harness.message, skill: how === 'skill' && spec.harness.type === 'chat' });
    const problems = errorsOf([...checkItemsAgainstTemplate(items, inputs.template), ...messages]);
    if (problems.length > 0) throw badInputError(problems);
    splits = splitItems(items, spec.split as SplitPlan, spec.seed);
  }
  return { ...inputs, spec, splits };
}

function hashInputs(inputs: RunInputs): string {
  const ids = (items: readonly DataItem[]) => items.map((i) => i.id).join(',');
  // The default population is left out, so a run journaled before the option existed still resumes.
  const { population, ...gate } = inputs.spec.gate;
  const hashedGate = population === 'finite' ? inputs.spec.gate : gate;
  return sha256Hex(JSON.stringify({ f: ids(inputs.splits.feedback), d: ids(inputs.splits.dev), t: ids(inputs.splits.test), gate: hashedGate, seed: inputs.spec.seed })).slice(0, 16);
}
