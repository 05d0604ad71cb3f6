/**
 * A judge run as a Node face starts it (`ratchet mcp`'s judge_edit in process, the run daemon for
 * the editor): load the prompt file and its run spec, check the candidate, price the test and
 * refuse it before any call when its upper estimate passes the budget, assemble the LLM layer with
 * that budget, open the journal (kind `judge`) and drive `runJudgeEdit` with every event durable
 * before the engine's next step. On commit with `apply`, the candidate goes through the face's
 * apply point, recorded in the file's provenance like any accepted edit.
 *
 * `judgePromptEdit(o)` is the whole call; what `ratchet check` needs for head against base is the
 * same with `candidateText` = head's text and the file holding base's.
 */
import { relative, resolve, sep } from 'node:path';
import { describeRoles } from '../../core/llm/roles';
import type { LlmTransport } from '../../core/ports';
import type { JournaledEvent } from '../../core/journal/events';
import { readRunRecord, runPaths, runsDir } from '../../core/journal/journal';
import type { NewRun } from '../../core/journal/journal';
import type { RunControl } from '../../core/journal/control';
import { judgeEvidence } from '../../core/judgeEdit/evidence';
import type { JudgeEvidence } from '../../core/judgeEdit/evidence';
import { checkCandidate, judgeGate, runJudgeEdit } from '../../core/judgeEdit/judgeEdit';
import type { JudgeEditOutcome } from '../../core/judgeEdit/judgeEdit';
import type { RunLedger } from '../../core/gates/thresholds';
import type { GateName } from '../../core/gates/gateTable';
import { estimateJudge, rolesCalled } from '../../core/setup/estimate';
import { checkDollarBudget, pricesFor } from '../../core/setup/pricing';
import { loadRunInputs } from '../../core/setup/spec';
import { evolvableText } from '../../core/prompt/evolvable';
import { parsePromptFile } from '../../core/prompt/promptFile';
import { templateOf } from '../../core/prompt/template';
import { agentCallsPerEvaluation } from '../../core/evolve/harness';
import { evaluatedAs } from '../../core/files/fileKinds';
import { contentHash } from '../../core/evolve/versions';
import type { EndpointDefaults } from '../../core/run/endpointDefaults';
import { roleModels } from '../../core/run/modelChoice';
import type { EvolveOverrides } from '../../core/run/overrides';
import type { RunSpec } from '../../core/run/specTypes';
import { cacheOnlyTransport } from '../../core/llm/cacheOnly';
import { NodeFiles } from '../files';
import { roleConfig } from './roles';
import { RunShell } from './runShell';
import type { RunJournalOptions } from './runShell';
import { promptHarness } from './promptHarness';
import { freePrices, refuseOverBudget, spent, testBudget, trustedScorer } from './testBudget';
import type { TestBudget } from './testBudget';

export interface JudgeRunOptions {
  /** The prompt file; it holds the incumbent text. */
  path: string;
  /** Where `.ratchet/` lives (journal, response cache, provenance). */
  workspace: string;
  candidateText: string;
  /**
   * The text to judge the candidate against, when not the file's own (a pull-request check: the
   * base's text, the candidate the head's); the run spec is still the one at `path`.
   */
  incumbentText?: string;
  /** Why the candidate was written, in its author's words (journaled beside it). */
  reasoning?: string;
  /** Limits; each left out takes its default (DEFAULT_TEST_BUDGET; dollars only when every model is priced). */
  budget?: Partial<TestBudget>;
  /** Write the candidate into the file on commit through this apply point; absent: write nothing. */
  apply?: RunControl;
  /** A run-level schedule's state (the PR check's ledger); absent: one candidate at 1/α. */
  ledger?: RunLedger;
  schedule?: RunSpec['gate']['schedule'];
  /** The ledger's own α and horizon, over the run spec's (a repository's budget is not one file's). */
  gateOverrides?: Partial<Pick<RunSpec['gate'], 'alpha' | 'horizon'>>;
  overrides?: Pick<EvolveOverrides, 'baseURL' | 'model' | 'roleModels' | 'prices' | 'free' | 'concurrency' | 'callTimeoutSeconds' | 'maxFailures'>;
  endpointDefaults: EndpointDefaults;
  /** Where calls go instead of the roles' HTTP endpoints (the editor's models, MCP sampling). */
  transport?: LlmTransport;
  /**
   * The transport is the client's own models (MCP sampling): they cost Ratchet nothing ($0), and
   * the client picks the model call by call, so no answer is kept in the response cache.
   */
  clientModels?: boolean;
  /**
   * Every answer from the response cache, none from an endpoint (a replay of a verdict): a call
   * the cache cannot serve is refused, unsent, and the run fails saying which role's answer is missing.
   */
  cacheOnly?: boolean;
  /** Refuse a scorer that runs workspace code. */
  untrusted?: boolean;
  onEvent: (e: JournaledEvent) => void;
  signal: AbortSignal;
  version: string;
}

export interface JudgeRunOutcome extends JudgeEditOutcome {
  runId: string;
  gate: GateName;
  /** The spec's gate when the test used another one (it had no error control). */
  substitutedGate?: GateName;
  evidence: JudgeEvidence;
  cost: { calls: number; tokens: number; dollars: number | undefined };
  budget: TestBudget;
  estimate: { calls: number; evaluations: number; dollars?: number };
  /**
   * Candidates judged against this very text of the file, this one included (its runs' journals):
   * each is committed by luck with probability at most α, so across them up to this many × α.
   */
  testsOnText: number;
  /** The response-cache keys of the answers the test used (none for a program: its evaluator's runs are cached apart). */
  cacheKeys: string[];
  warnings: string[];
}

/** What a judge test will be, decided before any call: its inputs, gate, endpoints, prices, estimate and budget. */
export interface PromptJudgePlan {
  path: string;
  workspace: string;
  inputs: Awaited<ReturnType<typeof loadRunInputs>>;
  spec: RunSpec;
  gate: RunSpec['gate'];
  substituted: GateName | undefined;
  called: ReturnType<typeof rolesCalled>;
  roles: ReturnType<typeof roleConfig>;
  prices: ReturnType<typeof pricesFor>;
  estimate: ReturnType<typeof estimateJudge>;
  budget: TestBudget;
}

/**
 * Everything a judge test settles before its first call, refusals included (a bad candidate, a
 * test its budget cannot hold): what `judgePromptEdit` runs, and what `ratchet check` prices for
 * every changed file before it starts any.
 */
export async function planPromptJudge(o: Omit<JudgeRunOptions, 'onEvent' | 'signal' | 'version'>): Promise<PromptJudgePlan> {
  const files = new NodeFiles();
  const path = resolve(o.path);
  const workspace = resolve(o.workspace);
  const overrides = o.overrides ?? {};
  const loaded = await loadRunInputs(files, path);
  const inputs = o.incumbentText === undefined ? loaded : { ...loaded, prompt: parsePromptFile(path, o.incumbentText), template: templateOf(parsePromptFile(path, o.incumbentText)) };
  const judged = judgeGate(inputs.spec, o.schedule);
  const gate = { ...judged.gate, ...o.gateOverrides };
  const substituted = judged.substituted;
  const spec: RunSpec = {
    ...inputs.spec,
    gate,
    ...(overrides.concurrency === undefined ? {} : { concurrency: overrides.concurrency }),
    ...(overrides.callTimeoutSeconds === undefined ? {} : { callTimeoutSeconds: overrides.callTimeoutSeconds }),
  };
  const dev = inputs.splits.dev;
  // Every refusal before the journal: a bad candidate or a test too dear leaves no run folder.
  checkCandidate(inputs.prompt, o.candidateText, dev, gate, o.ledger);
  const called = rolesCalled(spec, 'judge');
  // A replay (cacheOnly) resolves the endpoints as the check did: they are part of every cache key.
  const roles = roleConfig(spec, overrides, o.endpointDefaults, o.transport !== undefined && !o.cacheOnly, called);
  const prices = o.clientModels ? freePrices(spec, roles, called) : pricesFor(spec, describeRoles(roles), overrides, 'judge');
  const estimate = estimateJudge({ spec, template: inputs.template, dev, agentCalls: agentCallsPerEvaluation(spec.harness, evaluatedAs(inputs.prompt.kind)) }, prices.byRole);
  const budget = testBudget(o.budget, estimate.dollars !== undefined);
  if (budget.dollars !== undefined) checkDollarBudget({ ...spec, budget: { ...spec.budget, dollars: budget.dollars } }, prices);
  refuseOverBudget(estimate, budget, `both versions on each of the ${dev.length} dev items of ${path}`);
  return { path, workspace, inputs, spec, gate, substituted, called, roles, prices, estimate, budget };
}

export async function judgePromptEdit(o: JudgeRunOptions): Promise<JudgeRunOutcome> {
  const files = new NodeFiles();
  const overrides = o.overrides ?? {};
  const { path, workspace, inputs, spec, gate, substituted, called, roles, prices, estimate, budget } = await planPromptJudge(o);
  const dev = inputs.splits.dev;
  const transport = o.cacheOnly ? cacheOnlyTransport(`Replaying the verdict on ${path}`) : o.transport;

  const shell = new RunShell({
    files,
    workspace,
    spec,
    roles,
    prices,
    budget: { candidates: 1, calls: budget.calls, ...(budget.dollars === undefined ? {} : { dollars: budget.dollars }) },
    ...(transport ? { transport } : {}),
    ...(o.clientModels ? { cache: false } : {}),
    ...(overrides.maxFailures === undefined ? {} : { maxFailures: overrides.maxFailures }),
  });
  const { llm, ports, clock } = shell;
  try {
    const scorer = await trustedScorer(spec, { files, llm, proc: ports.proc }, o.untrusted === true);
    const harness = await promptHarness(inputs, { workspace, files, endpoint: o.endpointDefaults, untrusted: o.untrusted === true });
    const { opening, journal, testsBefore } = await judgeOpening(files, {
      workspace,
      path,
      incumbent: contentHash(evolvableText(inputs.prompt)),
      seed: spec.seed,
      version: o.version,
      spec: { gate: gate.name, alpha: gate.alpha, budget, ...(substituted ? { specGate: substituted } : {}) },
      runKind: 'evolve',
      onEvent: o.onEvent,
    });
    const run = await shell.journal(opening, journal);
    const outcome = await runJudgeEdit(
      {
        runId: run.runId,
        spec,
        file: inputs.prompt,
        candidateText: o.candidateText,
        dev,
        scorer,
        ports: { llm, clock },
        meter: llm,
        ...(harness ? { harness } : {}),
        gate,
        ...(o.ledger ? { ledger: o.ledger } : {}),
        ...(o.apply ? { apply: run.control(o.apply) } : {}),
        ...(o.reasoning ? { reasoning: o.reasoning } : {}),
        budget: { candidates: 1, llmCalls: budget.calls, ...(budget.dollars === undefined ? {} : { dollars: budget.dollars }) },
        estimate: { calls: estimate.calls, tokens: estimate.tokens, ...(estimate.dollars === undefined ? {} : { dollars: estimate.dollars }), ...(estimate.unpriced ? { unpriced: estimate.unpriced } : {}) },
        models: roleModels(spec, called, overrides, o.endpointDefaults, o.transport !== undefined && !o.cacheOnly),
      },
      run.write,
      o.signal,
    );
    return judgeRunOutcome(
      outcome,
      { runId: run.runId, gate, substituted, testsBefore, unit: 'dev item' },
      {
        cost: spent(llm.cost(), llm.totalCalls(), llm.totalDollars()),
        budget,
        estimate: { calls: estimate.calls, evaluations: estimate.evaluations, ...(estimate.dollars === undefined ? {} : { dollars: estimate.dollars }) },
        cacheKeys: llm.cacheKeys(),
        warnings: inputs.warnings.map((w) => `${w.file}:${w.line}: ${w.message}`),
      },
    );
  } finally {
    await shell.close();
  }
}

/**
 * A judge test's outcome as both kinds (a prompt's, a program's) report it: the engine's, with its
 * run, the gate that decided (and the spec's, when that one had no error control), the evidence on
 * the kind's unit, its spend against its budget, and the tests of this same text, this one included.
 */
export function judgeRunOutcome(
  outcome: JudgeEditOutcome,
  o: { runId: string; gate: { name: GateName; alpha: number }; substituted: GateName | undefined; testsBefore: number; unit: JudgeEvidence['unit'] },
  spend: Pick<JudgeRunOutcome, 'cost' | 'budget' | 'estimate' | 'cacheKeys' | 'warnings'>,
): JudgeRunOutcome {
  return {
    ...outcome,
    runId: o.runId,
    gate: o.gate.name,
    ...(o.substituted ? { substitutedGate: o.substituted } : {}),
    evidence: judgeEvidence(outcome.record, outcome.items, o.gate.alpha, 1 / o.gate.alpha, o.unit),
    cost: spend.cost,
    budget: spend.budget,
    estimate: spend.estimate,
    testsOnText: o.testsBefore + 1,
    cacheKeys: spend.cacheKeys,
    warnings: spend.warnings,
  };
}

/**
 * What a judge test (a prompt's or a program's) settles before its journal: its run.json record —
 * the file, workspace-relative, and the incumbent's hash, which `judgedAgainst` matches, then the
 * kind's own `spec` fields — the tests of this same text before it, and how its events are journaled.
 */
export async function judgeOpening(
  files: NodeFiles,
  o: { workspace: string; path: string; incumbent: string; seed: number; version: string; spec: Record<string, unknown>; runKind: 'evolve' | 'search'; onEvent: (e: JournaledEvent) => void },
): Promise<{ opening: { create: NewRun }; journal: RunJournalOptions; testsBefore: number }> {
  const file = relative(o.workspace, o.path).split(sep).join('/');
  return {
    opening: { create: { kind: 'judge', target: o.path, seed: o.seed, version: o.version, spec: { file, incumbent: o.incumbent, ...o.spec } } },
    journal: { onEvent: o.onEvent, provenance: { file: o.path, runKind: o.runKind }, cost: 'engine' },
    testsBefore: await judgedAgainst(files, o.workspace, file, o.incumbent),
  };
}

/**
 * The judge runs of `file` (workspace-relative) whose incumbent had this content, from their
 * run.json: how many candidates were already tested against this text. A run whose record cannot
 * be read is not counted.
 */
export async function judgedAgainst(files: NodeFiles, workspace: string, file: string, incumbent: string): Promise<number> {
  let n = 0;
  for (const runId of await files.list(runsDir(files, workspace))) {
    const record = await readRunRecord(files, runPaths(files, workspace, runId).runJson).catch(() => undefined);
    const spec = record?.spec as { file?: unknown; incumbent?: unknown } | undefined;
    if (record?.kind === 'judge' && spec?.file === file && spec.incumbent === incumbent) n++;
  }
  return n;
}
