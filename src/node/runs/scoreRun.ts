/**
 * An evaluation as a Node face starts it (`ratchet mcp`'s evaluate): a prompt file's score on its
 * dev or test split with its interval, priced and refused before any call when it could pass its
 * budget, journaled as a run of kind `evaluate` (core/judgeEdit/scoreFile.ts).
 */
import { resolve } from 'node:path';
import { RatchetError } from '../../core/errors';
import { describeRoles } from '../../core/llm/roles';
import type { LlmTransport } from '../../core/ports';
import type { JournaledEvent } from '../../core/journal/events';
import { runScoreFile } from '../../core/judgeEdit/scoreFile';
import type { ScoreFileOutcome } from '../../core/judgeEdit/scoreFile';
import { estimateJudge, rolesCalled } from '../../core/setup/estimate';
import { checkDollarBudget, pricesFor } from '../../core/setup/pricing';
import { loadRunInputs } from '../../core/setup/spec';
import type { EndpointDefaults } from '../../core/run/endpointDefaults';
import { roleModels } from '../../core/run/modelChoice';
import type { RunSpec } from '../../core/run/specTypes';
import { NodeFiles } from '../files';
import { roleConfig } from './roles';
import { RunShell } from './runShell';
import { promptHarness } from './promptHarness';
import { agentCallsPerEvaluation } from '../../core/evolve/harness';
import { evaluatedAs } from '../../core/files/fileKinds';
import { freePrices, refuseOverBudget, spent, testBudget, trustedScorer } from './testBudget';
import type { TestBudget } from './testBudget';

export interface ScoreRunOptions {
  path: string;
  workspace: string;
  split: 'dev' | 'test';
  budget?: Partial<TestBudget>;
  endpointDefaults: EndpointDefaults;
  transport?: LlmTransport;
  /** As JudgeRunOptions.clientModels. */
  clientModels?: boolean;
  untrusted?: boolean;
  onEvent: (e: JournaledEvent) => void;
  signal: AbortSignal;
  version: string;
}

export interface ScoreRunOutcome extends ScoreFileOutcome {
  runId: string;
  cost: { calls: number; tokens: number; dollars: number | undefined };
  budget: TestBudget;
}

export async function scorePromptFile(o: ScoreRunOptions): Promise<ScoreRunOutcome> {
  const files = new NodeFiles();
  const path = resolve(o.path);
  const inputs = await loadRunInputs(files, path);
  // The gate plays no part; a scored one keeps the validator out of the roles called (unless the scorer grades with it).
  const spec: RunSpec = { ...inputs.spec, gate: { ...inputs.spec.gate, name: 'pace+' } };
  if (!spec.scorer) {
    throw new RatchetError('badInput', `${path}'s run spec has no scorer (its items have no labels), so there is no score to report; judge_edit compares two texts with the validator instead.`, { file: path, field: 'scorer' });
  }
  const items = inputs.splits[o.split];
  if (items.length === 0) throw new RatchetError('badInput', `${path}'s run spec gives no ${o.split} items; name a dataset with a ${o.split} split.`, { file: path, field: 'split' });
  const called = rolesCalled(spec, 'judge');
  const roles = roleConfig(spec, {}, o.endpointDefaults, o.transport !== undefined, called);
  const prices = o.clientModels ? freePrices(spec, roles, called) : pricesFor(spec, describeRoles(roles), {}, 'judge');
  const estimate = estimateJudge({ spec, template: inputs.template, dev: items, versions: 1, agentCalls: agentCallsPerEvaluation(spec.harness, evaluatedAs(inputs.prompt.kind)) }, prices.byRole);
  const budget = testBudget(o.budget, estimate.dollars !== undefined);
  if (budget.dollars !== undefined) checkDollarBudget({ ...spec, budget: { ...spec.budget, dollars: budget.dollars } }, prices);
  refuseOverBudget(estimate, budget, `each of the ${items.length} ${o.split} items of ${path} once`);

  const shell = new RunShell({
    files,
    workspace: resolve(o.workspace),
    spec,
    roles,
    prices,
    budget: { candidates: 0, calls: budget.calls, ...(budget.dollars === undefined ? {} : { dollars: budget.dollars }) },
    ...(o.transport ? { transport: o.transport } : {}),
    ...(o.clientModels ? { cache: false } : {}),
  });
  const { llm, ports, clock } = shell;
  try {
    const scorer = (await trustedScorer(spec, { files, llm, proc: ports.proc }, o.untrusted === true))!;
    const harness = await promptHarness(inputs, { workspace: resolve(o.workspace), files, endpoint: o.endpointDefaults, untrusted: o.untrusted === true });
    const run = await shell.journal({ create: { kind: 'evaluate', target: path, seed: spec.seed, version: o.version, spec: { split: o.split, budget } } }, { onEvent: o.onEvent, cost: 'engine' });
    const outcome = await runScoreFile(
      {
        runId: run.runId,
        spec,
        file: inputs.prompt,
        split: o.split,
        items,
        scorer,
        ports: { llm, clock },
        ...(harness ? { harness } : {}),
        meter: llm,
        budget: { llmCalls: budget.calls, ...(budget.dollars === undefined ? {} : { dollars: budget.dollars }) },
        estimate: { calls: estimate.calls, tokens: estimate.tokens, ...(estimate.dollars === undefined ? {} : { dollars: estimate.dollars }), ...(estimate.unpriced ? { unpriced: estimate.unpriced } : {}) },
        models: roleModels(spec, called, {}, o.endpointDefaults, o.transport !== undefined),
      },
      run.write,
      o.signal,
    );
    return { ...outcome, runId: run.runId, cost: spent(llm.cost(), llm.totalCalls(), llm.totalDollars()), budget };
  } finally {
    await shell.close();
  }
}
