/**
 * `ratchet gen-data` as a Node face runs it (issue #17): load the prompt and its run spec, state
 * the cost estimate, run the zero-data rounds (core/zero/rounds.ts) with every round journaled as
 * a `zero/round` event, and write what the user owns:
 *
 * - the dev set, `<prompt name>.dev.jsonl` next to the prompt (or `--out`): each round's top-K
 *   tasks by dispersion, provenance `split: "dev"`;
 * - the held-out generated test split in a second file, the dev file's name with `.test.jsonl`
 *   for `.dev.jsonl` (or `.test` before `.jsonl`), provenance `split: "test"`: reported apart so a
 *   gain on the Challenger's own distribution is not mistaken for a gain on the task.
 *
 * Neither file is overwritten unless --force; both are refused before any call. They are written
 * once, at the end, so an interrupted run leaves no half dev set: `ratchet runs resume` takes the
 * run up (resumeGenData), every call already paid for answered from the response cache.
 */
import { resolve } from 'node:path';
import { RatchetError } from '../../core/errors';
import { describeRoles } from '../../core/llm/roles';
import type { LlmTransport } from '../../core/ports';
import { templateVariableNames } from '../../core/prompt/template';
import { budgetOf } from '../../core/run/budget';
import type { EndpointDefaults } from '../../core/run/endpointDefaults';
import { estimateZeroRounds, rolesCalled } from '../../core/setup/estimate';
import type { JournaledEvent } from '../../core/journal/events';
import type { RunSummaryInfo } from '../../core/journal/payloadTypes';
import { readRunRecord, runPaths } from '../../core/journal/journal';
import { roleModels } from '../../core/run/modelChoice';
import { checkOverrides } from '../../core/run/overrides';
import type { GenDataOverrides } from '../../core/run/overrides';
import { pricesFor } from '../../core/setup/pricing';
import { loadRunInputs } from '../../core/setup/spec';
import type { RunSpec } from '../../core/run/specTypes';
import { devSetJsonl, generatedItemRecord } from '../../core/zero/devSet';
import type { GeneratedTask, RoundOutcome, ZeroSettings } from '../../core/zero/rounds';
import { DEFAULT_ZERO_SETTINGS, ZeroRounds } from '../../core/zero/rounds';
import { NodeFiles } from '../files';
import { genDataPaths } from './genDataPaths';
import { writeFilePair } from './devSetFiles';
import { roleConfig } from './roles';
import { RunShell } from './runShell';

/** Rounds when the caller sets none. */
export const DEFAULT_ZERO_ROUNDS = 2;

export interface GenDataOptions {
  promptPath: string;
  workspace: string;
  /** Round sizes; each unset one is the default (DEFAULT_ZERO_SETTINGS). */
  tasks?: number;
  keep?: number;
  samples?: number;
  rounds?: number;
  /** The dev set's path; default `<prompt name>.dev.jsonl` next to the prompt. */
  out?: string;
  force?: boolean;
  overrides: GenDataOverrides;
  endpointDefaults: EndpointDefaults;
  version: string;
  signal: AbortSignal;
  /** Each event once it is durable in the journal. */
  onEvent: (e: JournaledEvent) => void;
  transport?: LlmTransport;
}

export interface GenDataOutcome {
  runId: string;
  status: 'finished' | 'budget' | 'failed' | 'cancelled';
  /** The files written (none when no round finished). */
  devPath: string;
  testPath: string;
  written: boolean;
  /** The dev set was replaced and its test split could not be written, nor the dev set put back: the pair does not match. */
  unmatched?: boolean;
  rounds: RoundOutcome[];
  error?: { code: string; message: string };
}

export async function runGenData(opts: GenDataOptions): Promise<GenDataOutcome> {
  const files = new NodeFiles();
  // The editor's settings reach here unchecked by any flag parser; a bad one is refused before anything exists.
  checkOverrides(opts.overrides);
  const promptPath = resolve(opts.promptPath);
  const { devPath, testPath } = genDataPaths(promptPath, opts.out);
  const sizes = {
    ...(opts.tasks !== undefined ? { tasks: opts.tasks } : {}),
    ...(opts.keep !== undefined ? { keep: opts.keep } : {}),
    ...(opts.samples !== undefined ? { samples: opts.samples } : {}),
  };
  return execute(files, opts, { promptPath, devPath, testPath, force: opts.force === true, overrides: opts.overrides, sizes, rounds: opts.rounds ?? DEFAULT_ZERO_ROUNDS }, undefined);
}

/** What `runs resume` may change about a gen-data run: where the endpoint is, and how patient to be with it. */
export type GenDataResumeOverrides = Pick<GenDataOverrides, 'baseURL' | 'callTimeoutSeconds' | 'maxFailures'>;

export type GenDataResumeOptions = Omit<GenDataOptions, 'promptPath' | 'tasks' | 'keep' | 'samples' | 'rounds' | 'out' | 'force' | 'overrides'> & {
  overrides?: GenDataResumeOverrides;
};

/**
 * Continues gen-data run `runId` of `workspace` with what it was started with (run.json): the
 * prompt, the round settings and seed, the files and whether it may replace them, the flags. Every
 * call it paid for comes back from the response cache (counted as the paid call it was), the
 * rounds the journal holds are checked, not written twice, and the dev set is written at the end
 * as an uninterrupted run writes it.
 */
export async function resumeGenData(runId: string, opts: GenDataResumeOptions): Promise<GenDataOutcome> {
  const files = new NodeFiles();
  const workspace = resolve(opts.workspace);
  const record = await readRunRecord(files, runPaths(files, workspace, runId).runJson);
  if (record.kind !== 'gen-data') throw new RatchetError('badInput', `Run ${runId} is a ${record.kind} run, not a gen-data run.`, { runId });
  const stored = record.spec as StoredGenData;
  // A run recorded before its flags were: the seed it ran with, the sidecar's spec for the rest.
  const overrides: GenDataOverrides = { ...(stored.overrides ?? { seed: record.seed }), ...opts.overrides };
  checkOverrides(overrides);
  const plan: GenDataPlan = {
    promptPath: stored.promptPath,
    devPath: stored.devPath,
    testPath: stored.testPath,
    force: stored.force === true,
    overrides,
    sizes: stored.settings,
    rounds: stored.rounds,
  };
  return execute(files, opts, plan, runId);
}

/** A gen-data run as its run.json keeps it: enough to start it again the same way. */
interface StoredGenData {
  promptPath: string;
  settings: ZeroSettings;
  rounds: number;
  devPath: string;
  testPath: string;
  /** Absent in a run recorded before resume existed (then: not forced, no flags but its seed). */
  force?: boolean;
  /** The run's flags, less the endpoint's address (given again, or found again, on resume). */
  overrides?: GenDataOverrides;
}

interface GenDataPlan {
  promptPath: string;
  devPath: string;
  testPath: string;
  force: boolean;
  overrides: GenDataOverrides;
  /** Round sizes set by the caller (or, on resume, every setting the run started with). */
  sizes: Partial<ZeroSettings>;
  rounds: number;
}

type ExecuteOptions = Pick<GenDataOptions, 'workspace' | 'endpointDefaults' | 'version' | 'signal' | 'onEvent' | 'transport'>;

async function execute(files: NodeFiles, opts: ExecuteOptions, plan: GenDataPlan, resumeId: string | undefined): Promise<GenDataOutcome> {
  const { promptPath, devPath, testPath, rounds } = plan;
  const workspace = resolve(opts.workspace);
  // Refused before anything is paid for: the user's files are never replaced silently.
  if (!plan.force) {
    for (const path of [devPath, testPath]) {
      if (await files.exists(path)) throw new RatchetError('badInput', `${path} already exists; pass --force to replace it, or --out to write elsewhere.`, { file: path });
    }
  }
  const inputs = await loadRunInputs(files, promptPath);
  const o = plan.overrides;
  const spec: RunSpec = {
    ...inputs.spec,
    budget: { ...inputs.spec.budget, ...(o.budgetCalls !== undefined ? { calls: o.budgetCalls } : {}) },
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
    ...(o.callTimeoutSeconds !== undefined ? { callTimeoutSeconds: o.callTimeoutSeconds } : {}),
  };
  const variables = templateVariableNames(inputs.prompt.body, inputs.template.syntax);
  if (variables.length === 0) {
    throw new RatchetError('badInput', `${promptPath} has no template variable, so a generated task has nothing to fill: add one where the input goes, e.g. {{input}}.`, { file: promptPath });
  }
  const settings: ZeroSettings = {
    ...DEFAULT_ZERO_SETTINGS,
    ...(spec.models.agent.stop ? { solverStop: spec.models.agent.stop } : {}),
    seed: spec.seed,
    ...plan.sizes,
  };

  // The Challenger, the Solver (agent) and the judge (validator): priced, and a dollar budget
  // refused before any call when one of them could not be counted.
  const called = rolesCalled(spec, 'genData');
  const roles = roleConfig(spec, o, opts.endpointDefaults, opts.transport !== undefined, called);
  const prices = pricesFor(spec, describeRoles(roles), o, 'genData');
  const shell = new RunShell({ files, workspace, spec, roles, prices, budget: spec.budget, ...(opts.transport ? { transport: opts.transport } : {}), ...(o.maxFailures === undefined ? {} : { maxFailures: o.maxFailures }) });
  const { llm, clock } = shell;
  const { baseURL: _address, ...kept } = o;
  const stored: StoredGenData = { promptPath, settings, rounds, devPath, testPath, force: plan.force, overrides: kept };
  // A resume runs the rounds again from the start, every call answered by the cache: the events
  // the journal holds are checked and not written twice.
  const run = await shell
    .journal(resumeId ? { resume: resumeId } : { create: { kind: 'gen-data', target: promptPath, seed: spec.seed, version: opts.version, spec: stored } }, { onEvent: opts.onEvent, cost: 'shell' })
    .catch(async (err: unknown) => {
      await shell.close();
      throw err;
    });

  const estimate = estimateZeroRounds({ spec, template: inputs.template, rounds, ...settings }, prices.byRole);
  const info: RunSummaryInfo = {
    kind: 'gen-data',
    target: promptPath,
    gate: 'none',
    alpha: spec.gate.alpha,
    mode: spec.mode,
    seed: spec.seed,
    budget: { ...spec.budget },
    estimate,
    models: roleModels(spec, called, o, opts.endpointDefaults, opts.transport !== undefined),
    rounds,
  };
  const description = inputs.prompt.frontMatter?.['description'];
  const engine = new ZeroRounds({
    runId: run.runId,
    llm,
    concurrency: spec.concurrency,
    now: () => clock.now(),
    template: inputs.template,
    variables,
    brief: {
      ...(typeof description === 'string' ? { description } : {}),
      examples: [...inputs.splits.feedback, ...inputs.splits.dev].map((i) => i.vars),
    },
    settings,
    challengerModel: roles.challenger?.model ?? '',
  });
  const done: RoundOutcome[] = [];
  const outcome = (status: GenDataOutcome['status'], written: boolean, error?: GenDataOutcome['error']): GenDataOutcome => ({
    runId: run.runId,
    status,
    devPath,
    testPath,
    written,
    rounds: done,
    ...(error ? { error } : {}),
  });
  try {
    await run.emit({ ...run.stamp(), type: 'run/started', info });
    let status: GenDataOutcome['status'] = 'finished';
    for (let r = 1; r <= rounds; r++) {
      try {
        const round = await engine.round(r, inputs.template.text, opts.signal);
        done.push(round);
        await run.emit({ ...round.event, at: clock.now() });
        await run.costUpdate();
      } catch (err) {
        if (!RatchetError.is(err, 'budgetExhausted')) throw err;
        await run.emit({ ...run.stamp(), type: 'log', level: 'warn', message: `Stopped in round ${r}: the ${budgetOf(err)} budget is spent; the dev set holds the ${done.length} rounds finished before it.` });
        status = 'budget';
        break;
      }
    }
    // Only a dev set with something in it is written: an empty one would replace (under --force)
    // the user's file with nothing, and read as a dev set where there is none.
    const written = done.some((round) => round.dev.length > 0);
    if (written) await writeDevSet(files, done, devPath, testPath, roles.challenger?.model ?? '');
    else if (done.length > 0) {
      const model = roles.challenger?.model;
      await run.emit({
        ...run.stamp(),
        type: 'log',
        level: 'warn',
        message: `No generated task passed the filters in ${done.length === 1 ? 'the round' : `${done.length} rounds`}, so nothing was written; the rounds' counts say what dropped them. Check that the challenger model${model ? ` (${model})` : ''} writes the <question> blocks it is asked for.`,
      });
    }
    await run.emit({ ...run.stamp(), type: 'run/finished', commits: 0, candidates: 0, incumbentId: undefined });
    return outcome(status, written);
  } catch (err) {
    const ending = await run.ended(err, opts.signal);
    if (ending.cancelled) return outcome('cancelled', false);
    const failed = outcome('failed', false, ending.error);
    return RatchetError.is(err) && err.details['unmatched'] === true ? { ...failed, unmatched: true } : failed;
  } finally {
    await shell.close();
  }
}

/** The dev set and its test split, both or neither (devSetFiles.ts). */
async function writeDevSet(files: NodeFiles, rounds: readonly RoundOutcome[], devPath: string, testPath: string, challengerModel: string): Promise<void> {
  const records = (tasks: readonly GeneratedTask[], split: 'dev' | 'test') => tasks.map((t) => generatedItemRecord(t.vars, { round: t.round, difficulty: t.difficulty, dispersion: t.dispersion, challengerModel, split }));
  await writeFilePair(
    files,
    {
      path: devPath,
      text: devSetJsonl(
        records(
          rounds.flatMap((r) => r.dev),
          'dev',
        ),
      ),
    },
    {
      path: testPath,
      text: devSetJsonl(
        records(
          rounds.flatMap((r) => r.test),
          'test',
        ),
      ),
    },
  );
}
