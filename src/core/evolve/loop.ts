/**
 * The prompt evolution loop (GEPA-style reflective mutation, gated): pick a parent, run it on a
 * feedback minibatch, ask the proposer for a revision, gate the child against the incumbent on the
 * dev split, and let an edit reach the file only on commit (and, in suggest mode, the user's yes).
 *
 * The loop emits EngineEvents through `emit`, which the caller awaits before the loop takes its
 * next step (the journal's durability point). It is deterministic given the seed and the LLM's
 * answers: every random choice comes from a Random forked by label, every LLM call has a fixed
 * sampleIndex, so a resume that replays the cached answers reproduces the same decisions.
 *
 * This module is the run's frame: its setup, the budget and stop checks between iterations, and
 * its finish; one iteration's steps are evolution.ts's.
 */
import type { DataItem } from '../data/item';
import { expectedText, hasExpected } from '../data/item';
import type { Scorer } from '../data/scorers/types';
import { RatchetError } from '../errors';
import { OutcomeCache } from '../gates/incumbentCache';
import { paceConfigOf } from '../run/gateConfig';
import { preflight } from '../gates/preflight';
import { signTestMinWins } from '../gates/signTest';
import { EMPTY_LEDGER } from '../gates/thresholds';
import type { RunLedger } from '../gates/thresholds';
import type { ScoreMode } from '../gates/eprocess';
import type { Ports } from '../ports';
import { evolvableText, fileTextWith, skillName } from '../prompt/evolvable';
import { evaluatedAs } from '../files/fileKinds';
import type { EngineEvent } from '../journal/events';
import type { DatasetItemInfo, RunSummaryInfo } from '../journal/payloadTypes';
import type { RunSpec } from '../run/specTypes';
import { RunBudget, budgetOf } from '../run/budget';
import type { Metered } from '../run/budget';
import { sha256Hex } from '../random';
import { Evaluator } from './evaluator';
import { Evolution } from './evolution';
import { chatHarness } from './harness';
import type { Emit, GateContext } from './gateContext';
import { DEFAULT_RUBRIC } from './judge';
import type { DataRounds, EvolveOptions, EvolveResult } from './options';
import { itemText } from './overfit';
import { reportTestWithinBudget } from './testReport';
import { makeVersion } from './versions';
import type { EventPayload } from '../journal/control';
import { runEnding } from '../journal/runEnding';

/** The accounting the loop reads to emit cost updates (and the budget reads to enforce limits). */
export type { Metered };
export type { DataRounds, EvolveOptions, EvolveResult };
export { MINIBATCH } from './evolution';

export async function runEvolve(opts: EvolveOptions, emitEvent: (e: EngineEvent) => Promise<void>, signal: AbortSignal): Promise<EvolveResult> {
  const { spec, ports, meter } = opts;
  const emit: Emit = (e: EventPayload<EngineEvent>) => emitEvent({ ...e, runId: opts.runId, at: ports.clock.now() } as EngineEvent);
  const budget = opts.budget ?? defaultBudget(spec, ports.clock, meter);
  const v0 = makeVersion('v0', opts.startText ?? evolvableText(opts.prompt), undefined);
  const startFileText = fileTextWith(opts.prompt, v0.text);
  let evolution: Evolution | undefined;
  const finish = (status: EvolveResult['status']): EvolveResult => ({
    commits: evolution?.commits ?? 0,
    candidates: evolution?.candidates ?? 0,
    incumbent: evolution?.incumbent ?? v0,
    status,
  });

  await emit({ type: 'run/started', info: startedInfo(opts) });
  const splits = { ...opts.splits };
  const items = new RunItems(splits, opts.dataRounds, emit, signal);
  if (!opts.dataRounds) await items.loaded();
  try {
    if (opts.dataRounds) await items.nextRound(v0.text);
    const ctx = gateContext(opts, splits, emit, signal);
    checkFeasible(spec, splits.dev.length);
    evolution = new Evolution(opts, ctx, splits, v0, startFileText);
    await emit({ type: 'candidate/proposed', candidateId: v0.id, parentId: undefined, contentHash: v0.hash, text: v0.text, reasoning: 'The starting prompt.' });
    await iterateWithinBudget(evolution, opts, items, ctx, budget, emit, signal);
    if (opts.scorer && opts.splits.test.length > 0) await reportTestWithinBudget(opts.splits.test, ctx.evaluator, v0, evolution.incumbent, budget, emit, signal);
    await emit({ type: 'cost/update', cost: meter.cost(), llmCalls: meter.totalCalls() });
    await emit({ type: 'run/finished', commits: evolution.commits, candidates: evolution.candidates, incumbentId: evolution.incumbent.id });
    return finish('finished');
  } catch (err) {
    const ending = runEnding(err, signal);
    await emit(ending.event);
    return finish(ending.cancelled ? 'cancelled' : 'failed');
  }
}

/** Iterations until the budget, the iteration or candidate count, the run-level α or a zero-data run's rounds say stop. */
async function iterateWithinBudget(evolution: Evolution, opts: EvolveOptions, items: RunItems, ctx: GateContext, budget: RunBudget, emit: Emit, signal: AbortSignal): Promise<void> {
  const { spec } = opts;
  for (let t = 1; t <= (spec.budget.iterations ?? spec.budget.candidates) && evolution.candidates < spec.budget.candidates; t++) {
    signal.throwIfAborted();
    const stop = stopReason(spec, budget, evolution.ledger, items.splits.dev.length, opts.dataRounds === undefined);
    if (stop) {
      await emit({ type: 'log', level: 'info', message: `${stop}; stopping after ${evolution.candidates} candidates.` });
      return;
    }
    if (opts.dataRounds && t > 1 && (t - 1) % opts.dataRounds.candidatesPerRound === 0) {
      if (!(await items.nextRound(evolution.incumbent.text))) return;
      ctx.dev = items.splits.dev;
      ctx.feedback = items.splits.feedback;
      checkFeasible(spec, items.splits.dev.length);
    }
    try {
      await evolution.iterate(t, opts.ports.random);
    } catch (err) {
      if (!RatchetError.is(err, 'budgetExhausted') || signal.aborted) throw err;
      // A hard limit refused a call mid-iteration: whatever was under test stays undecided.
      if (evolution.underTest !== undefined) await emit({ type: 'candidate/stopped', candidateId: evolution.underTest, reason: 'budget', budget: budgetOf(err) });
      evolution.underTest = undefined;
      await emit({ type: 'log', level: 'info', message: `Budget reached (${budgetOf(err)}); stopping after ${evolution.candidates} candidates.` });
      return;
    }
  }
}

/** Why no further iteration starts, checked before each: a spent budget, or no α left for a commit. */
function stopReason(spec: RunSpec, budget: RunBudget, ledger: RunLedger, devItems: number, devIsFinal: boolean): string | undefined {
  const over = budget.exceeded();
  if (over) return `Budget reached (${over})`;
  // A zero-data run's later rounds may bring more dev items, so only a fixed dev set is final.
  return devIsFinal ? runLevelSpent(spec, ledger, devItems) : undefined;
}

/** What `run/started` says: the kind, target, gate, mode, seed, budgets, and the estimate and models when known. */
function startedInfo(opts: EvolveOptions): RunSummaryInfo {
  const { spec } = opts;
  return {
    // A run allowed no candidates only scores the starting prompt: that is what Evaluate starts.
    kind: spec.budget.candidates === 0 ? 'evaluate' : 'evolve',
    target: opts.prompt.path,
    gate: spec.gate.name,
    alpha: spec.gate.alpha,
    schedule: spec.gate.schedule,
    mode: spec.mode,
    seed: spec.seed,
    budget: {
      candidates: spec.budget.candidates,
      ...(spec.budget.calls === undefined ? {} : { llmCalls: spec.budget.calls }),
      ...(spec.budget.tokens === undefined ? {} : { tokens: spec.budget.tokens }),
      ...(spec.budget.dollars === undefined ? {} : { dollars: spec.budget.dollars }),
      ...(spec.budget.wallTimeMinutes === undefined ? {} : { wallMs: spec.budget.wallTimeMinutes * 60_000 }),
    },
    ...(opts.estimate ? { estimate: opts.estimate } : {}),
    ...(opts.models ? { models: opts.models } : {}),
  };
}

/** The run's items as they stand, said in `dataset/loaded`; a zero-data run's rounds replace its feedback and dev items. */
class RunItems {
  private round = 0;

  constructor(
    readonly splits: EvolveOptions['splits'],
    private readonly rounds: DataRounds | undefined,
    private readonly emit: Emit,
    private readonly signal: AbortSignal,
  ) {}

  loaded(): Promise<void> {
    const info = (split: 'feedback' | 'dev' | 'test') => this.splits[split].map((item) => datasetItemInfo(item, split));
    return this.emit({ type: 'dataset/loaded', items: [...info('feedback'), ...info('dev'), ...info('test')] });
  }

  /** A zero-data run's next round of items, written for the incumbent; false when there is none. */
  async nextRound(incumbentText: string): Promise<boolean> {
    const more = await this.rounds!.next(++this.round, incumbentText, this.signal);
    if (more === 'stop') return false;
    this.splits.feedback = more.feedback;
    this.splits.dev = more.dev;
    await this.loaded();
    return true;
  }
}

/** What every gate test reads: the evaluator (the harness and scorer), the splits, the gate and the rubric. */
function gateContext(opts: EvolveOptions, splits: EvolveOptions['splits'], emit: Emit, signal: AbortSignal): GateContext {
  const { spec, ports } = opts;
  const harness =
    opts.harness ??
    chatHarness({
      llm: ports.llm,
      template: opts.template,
      agent: spec.models.agent,
      logprobs: spec.gate.name === 'elo' && spec.gate.elo.soft,
      evaluatedAs: evaluatedAs(opts.prompt.kind),
      message: spec.harness.message,
      skillName: skillName(opts.prompt),
    });
  const evalConfig = sha256Hex(JSON.stringify({ agent: spec.models.agent, scorer: spec.scorer ?? null }));
  return {
    emit,
    evaluator: new Evaluator({ harness, scorer: opts.scorer }),
    llm: ports.llm,
    validator: spec.models.validator,
    dev: splits.dev,
    feedback: splits.feedback,
    gate: spec.gate,
    scores: scoreMode(opts.scorer),
    outcomes: new OutcomeCache(evalConfig),
    runSeed: spec.seed,
    batchSize: Math.max(1, spec.concurrency),
    rubric: { text: DEFAULT_RUBRIC, version: 0 },
    signal,
  };
}

/** Binary outcomes for a right/wrong scorer, continuous for graded ones (GATES.md 4.4). */
export function scoreMode(scorer: Scorer | undefined): ScoreMode {
  if (!scorer) return 'binary';
  return scorer.type === 'llm-rubric' || scorer.type === 'module' || scorer.type === 'command' ? 'continuous' : 'binary';
}

/**
 * Before any candidate is paid for: can this gate commit anything with this dev set? (GATES.md 4.2)
 * A face calls it before it creates the run too, so a gate that can never commit leaves no failed run folder.
 */
export function checkFeasible(spec: RunSpec, n: number): void {
  if (spec.gate.name === 'sign') {
    // The fixed-n sign test commits only on p ≤ α; with n items p is at least 2⁻ⁿ.
    const wins = signTestMinWins(spec.gate.alpha);
    if (n < wins) {
      throw new RatchetError('badInput', `The sign test at α = ${spec.gate.alpha} needs at least ${wins} dev items to commit anything, and the dev split has ${n}. Add dev items or raise α.`, { field: 'split' });
    }
    return;
  }
  const cfg = paceConfigOf(spec.gate);
  if (!cfg) return;
  const pf = preflight(cfg, EMPTY_LEDGER, n);
  if (!pf.feasible) throw new RatchetError('badInput', `${pf.message}. Add dev items or raise α.`, { field: 'split' });
}

/**
 * Under a run-level schedule a threshold never falls again once the dev set cannot reach it (it
 * grows with the candidates tested; e-LOND's falls only after a commit, which it rules out), so
 * from then on no candidate can commit: the run says so and stops instead of paying for proposals.
 */
function runLevelSpent(spec: RunSpec, ledger: RunLedger, n: number): string | undefined {
  const cfg = paceConfigOf(spec.gate);
  if (!cfg || cfg.schedule === 'per-candidate') return undefined;
  const pf = preflight(cfg, ledger, n);
  if (pf.feasible) return undefined;
  return `The run-level guarantee has no α left for another commit (${pf.message})`;
}

function defaultBudget(spec: RunSpec, clock: Ports['clock'], meter: Metered): RunBudget {
  const budget = new RunBudget(spec.budget, clock);
  budget.measure(meter);
  return budget;
}

export function datasetItemInfo(item: DataItem, split: DatasetItemInfo['split']): DatasetItemInfo {
  return {
    itemId: item.id,
    input: itemText(item).text,
    split,
    ...(hasExpected(item) ? { expected: expectedText(item.expected) } : {}),
    vars: Object.fromEntries(Object.entries(item.vars).map(([name, value]) => [name, typeof value === 'string' ? value : expectedText(value)])),
  };
}
