/**
 * The prompt evolution loop (GEPA-style reflective mutation, gated): pick a parent, run it on a
 * feedback minibatch, ask the proposer for a revision, gate the child against the incumbent on the
 * dev split, and let an edit reach the file only on commit (and, in suggest mode, the user's yes).
 *
 * The loop emits EngineEvents through `emit`, which the caller awaits before the loop takes its
 * next step (the journal's durability point). It is deterministic given the seed and the LLM's
 * answers: every random choice comes from a Random forked by label, every LLM call has a fixed
 * sampleIndex, so a resume that replays the cached answers reproduces the same decisions.
 */
import type { DataItem } from '../data/item';
import { expectedText, hasExpected } from '../data/item';
import type { Scorer } from '../data/scorers/types';
import { RatchetError, isCancellation } from '../errors';
import { abstentionWarning } from '../gates/abstentions';
import { OutcomeCache } from '../gates/incumbentCache';
import { paceConfigOf } from '../run/gateConfig';
import { preflight } from '../gates/preflight';
import { signTestMinWins } from '../gates/signTest';
import { EMPTY_LEDGER, candidateThreshold } from '../gates/thresholds';
import { gateRow } from '../gates/gateTable';
import type { RunLedger } from '../gates/thresholds';
import type { ScoreMode } from '../gates/eprocess';
import type { Ports, Random } from '../ports';
import type { PromptFile } from '../prompt/promptFile';
import { evolvableRefusal, evolvableText, fileTextWith, skillName } from '../prompt/evolvable';
import { describeFrozenChange, frozenChange, frozenTokens } from '../prompt/frozenTokens';
import type { Template } from '../prompt/template';
import { templateVariableNames } from '../prompt/template';
import { evaluatedAs, followsCopilot } from '../files/fileKinds';
import { agentConfidence } from '../gates/elo';
import type { DatasetItemInfo, EngineEvent, RunSummaryInfo } from '../journal/events';
import type { RunSpec } from '../run/specTypes';
import { RunBudget, budgetOf } from '../run/budget';
import type { Metered } from '../run/budget';
import { sha256Hex } from '../random';
import { Evaluator } from './evaluator';
import type { Evaluation } from './evaluator';
import { chatHarness, proposerNote } from './harness';
import type { AgentHarness } from './harness';
import { evaluatedEvent, testCandidate, testCandidateWithMatches } from './gateRunner';
import type { GateContext } from './gateRunner';
import { DEFAULT_RUBRIC } from './judge';
import { RejectionMemory } from './memory';
import { copiedDatasetText } from './overfit';
import { paretoFront, pickParetoParent } from './pareto';
import { mergeCall, proposalReminder, proposerCall, readProposal } from './proposer';
import { askAndRead } from '../llm/reask';
import type { FeedbackTrace } from './proposer';
import { Ratings } from './ratings';
import { differenceInterval, meanInterval } from './report';
import { refreshRubric } from './rubric';
import { makeVersion } from './versions';
import type { Version } from './versions';
import type { EventPayload, RunControl, Suggestion } from '../journal/control';
import { estimateTokens } from '../llm/tokens';

/** The accounting the loop reads to emit cost updates (and the budget reads to enforce limits). */
export type { Metered };

export interface EvolveOptions {
  runId: string;
  spec: RunSpec;
  prompt: PromptFile;
  template: Template;
  splits: { feedback: DataItem[]; dev: DataItem[]; test: DataItem[] };
  scorer: Scorer | undefined;
  ports: Ports;
  meter: Metered;
  /** The run's budgets; the LLM layer asks it before each call. Default: spec.budget from now. */
  budget?: RunBudget;
  control: RunControl;
  /** The run's starting prompt body, when resuming from a journal (the file may have changed since). */
  startText?: string;
  /** What the run expects to spend (run/estimate.ts), said in `run/started` before the first call. */
  estimate?: RunSummaryInfo['estimate'];
  /** Each called role's model and where it was chosen, said in `run/started`. */
  models?: RunSummaryInfo['models'];
  /** A run without a dataset (zero-data): its items are generated in rounds as it goes. */
  dataRounds?: DataRounds;
  /** Who runs a version on an item when a command does (`harness: command`); default: the agent model, as the file's kind says. */
  harness?: AgentHarness;
}

/**
 * Where a zero-data run's items come from (core/zero/rounds.ts, through the face that journals
 * them): round 1 before the first candidate, then one more round every `candidatesPerRound`
 * candidates, each written for the incumbent of that moment. `next` answers the feedback and dev
 * items so far, or 'stop' when generating more would not help (the held-out score stopped rising).
 */
export interface DataRounds {
  candidatesPerRound: number;
  next(round: number, incumbentText: string, signal: AbortSignal): Promise<{ feedback: DataItem[]; dev: DataItem[] } | 'stop'>;
}

export interface EvolveResult {
  commits: number;
  candidates: number;
  incumbent: Version;
  status: 'finished' | 'cancelled' | 'failed';
}

/** Feedback items the parent runs on before each proposal (run/estimate.ts counts them too). */
export const MINIBATCH = 4;

export async function runEvolve(opts: EvolveOptions, emitEvent: (e: EngineEvent) => Promise<void>, signal: AbortSignal): Promise<EvolveResult> {
  const { spec, ports, meter } = opts;
  const emit = (e: EventPayload<EngineEvent>) => emitEvent({ ...e, runId: opts.runId, at: ports.clock.now() } as EngineEvent);
  const budget = opts.budget ?? defaultBudget(spec, ports.clock, meter);
  const random = ports.random;
  const v0 = makeVersion('v0', opts.startText ?? evolvableText(opts.prompt), undefined);
  let incumbent = v0;
  let fileText = fileTextWith(opts.prompt, v0.text);
  // A Copilot file's frozen tokens, as the run started: every version keeps exactly these.
  const frozen = followsCopilot(opts.prompt.kind) ? frozenTokens(v0.text) : [];
  const about = proposerNote(evaluatedAs(opts.prompt.kind));
  let commits = 0;
  let candidates = 0;
  /** The candidate whose test is going on: a budget running out now leaves it undecided. */
  let underTest: string | undefined;
  const finish = async (status: EvolveResult['status']) => ({ commits, candidates, incumbent, status });

  await emit({
    type: 'run/started',
    info: {
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
    },
  });
  const splits = { ...opts.splits };
  const splitItems = (split: 'feedback' | 'dev' | 'test') => splits[split].map((item) => datasetItemInfo(item, split));
  const datasetLoaded = () => emit({ type: 'dataset/loaded', items: [...splitItems('feedback'), ...splitItems('dev'), ...splitItems('test')] });
  let round = 0;
  /** A zero-data run's next round of items; false when there is none. */
  const nextRound = async (): Promise<boolean> => {
    const more = await opts.dataRounds!.next(++round, incumbent.text, signal);
    if (more === 'stop') return false;
    splits.feedback = more.feedback;
    splits.dev = more.dev;
    await datasetLoaded();
    return true;
  };
  if (!opts.dataRounds) await datasetLoaded();
  try {
    if (opts.dataRounds) await nextRound();
    const scores = scoreMode(opts.scorer);
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
    const evaluator = new Evaluator({ harness, scorer: opts.scorer });
    const evalConfig = sha256Hex(JSON.stringify({ agent: spec.models.agent, scorer: spec.scorer ?? null }));
    const outcomes = new OutcomeCache(evalConfig);
    const rubric = { text: DEFAULT_RUBRIC, version: 0 };
    const ctx: GateContext = {
      emit,
      evaluator,
      llm: ports.llm,
      validator: spec.models.validator,
      dev: splits.dev,
      feedback: splits.feedback,
      gate: spec.gate,
      scores,
      outcomes,
      runSeed: spec.seed,
      batchSize: Math.max(1, spec.concurrency),
      rubric,
      signal,
    };
    checkFeasible(spec, splits.dev.length);

    // One list per set of splits, so the copy check indexes the items once, not per proposal.
    let texts: { dev: readonly DataItem[]; list: { id: string; text: string }[] } | undefined;
    const datasetTexts = () => {
      if (texts?.dev !== splits.dev) texts = { dev: splits.dev, list: [...splits.feedback, ...splits.dev].map(itemText) };
      return texts.list;
    };
    const memory = new RejectionMemory();
    const rejectedHashes = new Set<string>();
    const committed: Version[] = [v0];
    const byId = new Map<string, Version>([[v0.id, v0]]);
    const ratings = new Ratings(spec.gate.elo.k, spec.gate.elo.temperature);
    ratings.add(v0.id, undefined);
    let ledger: RunLedger = EMPTY_LEDGER;
    let confidence = 1;
    const recentDecisions: { decision: string; rationale?: string }[] = [];

    await emit({ type: 'candidate/proposed', candidateId: v0.id, parentId: undefined, contentHash: v0.hash, text: v0.text, reasoning: 'The starting prompt.' });

    for (let t = 1; t <= (spec.budget.iterations ?? spec.budget.candidates) && candidates < spec.budget.candidates; t++) {
      signal.throwIfAborted();
      const over = budget.exceeded();
      if (over) {
        await emit({ type: 'log', level: 'info', message: `Budget reached (${over}); stopping after ${candidates} candidates.` });
        break;
      }
      // A zero-data run's later rounds may bring more dev items, so only a fixed dev set is final.
      const spent = opts.dataRounds ? undefined : runLevelSpent(spec, ledger, splits.dev.length);
      if (spent) {
        await emit({ type: 'log', level: 'info', message: `${spent}; stopping after ${candidates} candidates.` });
        break;
      }
      if (opts.dataRounds && t > 1 && (t - 1) % opts.dataRounds.candidatesPerRound === 0) {
        if (!(await nextRound())) break;
        ctx.dev = splits.dev;
        ctx.feedback = splits.feedback;
        checkFeasible(spec, splits.dev.length);
      }
      try {
        const iterRandom = random.fork(`iteration:${t}`);

        // Parent selection: ratings when fully reward-free, else the Pareto front over feedback scores;
        // with `merge`, every other iteration combines two front members instead (GEPA's merge).
        const pair = spec.merge && t % 2 === 0 ? await mergePair(committed, opts, evaluator, iterRandom.fork('merge'), signal) : undefined;
        const parent = pair?.[0] ?? (spec.gate.name === 'elo' ? byId.get(ratings.pickParent(iterRandom.fork('parent')))! : await pickParent(committed, opts, evaluator, iterRandom.fork('parent'), signal));

        // Reflection on a feedback minibatch only (A1): the proposer never sees dev items.
        const batch = pair ? [] : sample(splits.feedback, MINIBATCH, iterRandom.fork('minibatch'));
        const evals = await Promise.all(batch.map((item) => evaluator.evaluate(parent.hash, parent.text, item, signal)));
        if (spec.gate.name === 'elo') confidence = softConfidence(evals, spec.gate.elo.soft);
        const traces: FeedbackTrace[] = evals.map((e, i) => trace(e, batch[i]!));
        const variables = templateVariableNames(opts.template.text);
        const call = pair
          ? mergeCall({ a: pair[0].text, b: pair[1].text, maxPromptTokens: spec.maxPromptTokens, variables, frozen, ...(about ? { about } : {}) })
          : proposerCall({ parentText: parent.text, traces, rejected: memory.forParent(parent.id), maxPromptTokens: spec.maxPromptTokens, variables, frozen, ...(about ? { about } : {}) });
        // An answer that cannot be read is answered once in the same chat with what was wrong (#25).
        const asked = await askAndRead(
          (messages) => ports.llm.chat({ role: 'proposer', messages, temperature: spec.models.proposer.temperature ?? 0.7, sampleIndex: t }, signal),
          call.messages,
          (res) => readProposal(res.text, call.block),
          proposalReminder(call.block),
        );
        const proposal = asked.value;
        if (!proposal) {
          await emit({ type: 'log', level: 'warn', message: `Iteration ${t}: the proposer's answer could not be read, even when asked again (${asked.problem}); the iteration is skipped.` });
          continue;
        }

        const child = makeVersion(`c${t}`, proposal.text.replace(/\r\n/g, '\n'), parent.id);
        if (committed.some((v) => v.hash === child.hash)) {
          await emit({ type: 'log', level: 'info', message: `Iteration ${t}: the proposer returned a version already committed; nothing to test.` });
          continue;
        }
        candidates++;
        byId.set(child.id, child);
        const reasoning = pair ? `Merge of ${pair[0].id} and ${pair[1].id}. ${proposal.reasoning}` : proposal.reasoning;
        await emit({ type: 'candidate/proposed', candidateId: child.id, parentId: parent.id, contentHash: child.hash, text: child.text, reasoning, ...(asked.reasoning === undefined ? {} : { thinking: asked.reasoning }) });

        // Refused before it costs an evaluation, and the proposer told why (its memory of this parent).
        const refusal = evolvableRefusal(opts.prompt, child.text) ?? describeFrozenChange(frozenChange(frozen, child.text));
        if (refusal !== undefined) {
          await emit({ type: 'log', level: 'warn', message: `${child.id} was not tested: ${refusal}.` });
          memory.add({ parentId: parent.id, candidateId: child.id, summary: summarize(proposal.reasoning), why: `it was refused unevaluated: ${refusal}`, by: 'gate' });
          continue;
        }
        const tokens = estimateTokens(child.text);
        if (tokens > spec.maxPromptTokens) {
          await emit({ type: 'log', level: 'warn', message: `${child.id} is about ${tokens} tokens, over the run's maxPromptTokens of ${spec.maxPromptTokens}; not tested.` });
          memory.add({ parentId: parent.id, candidateId: child.id, summary: summarize(proposal.reasoning), why: 'the prompt was over the length budget', by: 'gate' });
          continue;
        }
        const copied = copiedDatasetText(parent.text, child.text, datasetTexts());
        if (copied.length > 0) {
          await emit({
            type: 'log',
            level: 'warn',
            message: `${child.id} copies dataset text into the prompt ("${copied[0]!.excerpt}", item ${copied[0]!.itemId}); that tends to overfit.`,
          });
        }

        // A5: a re-proposal of a rejected candidate is rejected without a new test.
        if (rejectedHashes.has(child.hash)) {
          await emit({ type: 'decision', record: duplicateRecord(child, incumbent, spec, ledger) });
          memory.add({ parentId: parent.id, candidateId: child.id, summary: summarize(proposal.reasoning), why: 'it repeats an edit already rejected', by: 'gate' });
          continue;
        }

        underTest = child.id;
        const result =
          spec.gate.name === 'elo'
            ? await testCandidateWithMatches(ctx, child, parent, opponents(ratings, byId, child, parent, spec.gate.elo.matches, iterRandom.fork('opponents')), ledger)
            : await testCandidate(ctx, child, incumbent, ledger);
        underTest = undefined;
        ledger = result.ledgerAfter;
        await emit({ type: 'decision', record: result.record });
        const judgeWarning = abstentionWarning(result.record);
        if (judgeWarning) await emit({ type: 'log', level: 'warn', message: judgeWarning });
        recentDecisions.push({ decision: result.record.decision, ...(result.rationales[0] ? { rationale: result.rationales[0] } : {}) });

        if (spec.gate.name === 'elo') {
          ratings.add(child.id, parent.id);
          for (const m of result.matches) ratings.record(child.id, m.opponentId, m.childScore, confidence, `${child.id}:${m.opponentId}`);
          await emit({ type: 'ratings', ratings: ratings.rows(iterRandom.fork('bootstrap')) });
        }

        if (result.record.decision === 'commit') {
          commits++;
          outcomes.adopt(child.hash, result.candidateOutcomes);
          const previous = incumbent;
          incumbent = child;
          const suggestion: Suggestion = { candidateId: child.id, file: opts.prompt.path, baseText: fileText, newText: fileTextWith(opts.prompt, child.text) };
          const landed = await deliver(suggestion, spec.mode, opts.control, emit, meter, signal);
          if (landed === 'stale' && spec.mode === 'autopilot') {
            // Writing on would re-commit this same edit against a file that no longer matches it,
            // candidate after candidate; the user's (or another program's) text wins and the run stops.
            throw new RatchetError('fileChanged', `${opts.prompt.path} changed since ${child.id} was computed, so its edit was not written over it and the run stopped; start a new run on the file as it is now.`, {
              file: opts.prompt.path,
              candidateId: child.id,
            });
          }
          if (landed === 'rejected' || landed === 'stale') {
            incumbent = previous;
            if (landed === 'rejected') memory.add({ parentId: parent.id, candidateId: child.id, summary: summarize(proposal.reasoning), why: 'the user rejected it', by: 'user' });
          } else {
            committed.push(child);
            if (landed === 'applied') fileText = suggestion.newText;
            memory.add({ parentId: parent.id, candidateId: child.id, summary: summarize(proposal.reasoning), why: `it became ${child.id}; look for a different improvement`, by: 'gate', outcome: 'accepted' });
          }
        } else {
          rejectedHashes.add(child.hash);
          evaluator.forget(child.hash);
          memory.add({ parentId: parent.id, candidateId: child.id, summary: summarize(proposal.reasoning), why: rejectionWhy(result.record.reason), by: 'gate' });
        }
        await emit({ type: 'cost/update', cost: meter.cost(), llmCalls: meter.totalCalls() });

        if (spec.gate.name === 'focus' && recentDecisions.length % spec.gate.focus.refreshEvery === 0) {
          // Between tests only (GATES.md 5 caveats): the next test runs entirely under the new rubric.
          const next = await refreshRubric(ports.llm, rubric.text, recentDecisions.slice(-spec.gate.focus.refreshEvery), spec.models.meta, signal, rubric.version + 1);
          if (next) {
            rubric.text = next.rubric;
            rubric.version += 1;
            await emit({ type: 'rubric/updated', version: rubric.version, rubric: next.rubric, why: next.why });
          }
        }
      } catch (err) {
        if (!RatchetError.is(err, 'budgetExhausted') || signal.aborted) throw err;
        // A hard limit refused a call mid-iteration: whatever was under test stays undecided.
        if (underTest !== undefined) await emit({ type: 'candidate/stopped', candidateId: underTest, reason: 'budget', budget: budgetOf(err) });
        underTest = undefined;
        await emit({ type: 'log', level: 'info', message: `Budget reached (${budgetOf(err)}); stopping after ${candidates} candidates.` });
        break;
      }
    }

    if (opts.scorer && opts.splits.test.length > 0) await reportTestWithinBudget(opts, evaluator, v0, incumbent, budget, emit, signal);
    await emit({ type: 'cost/update', cost: meter.cost(), llmCalls: meter.totalCalls() });
    await emit({ type: 'run/finished', commits, candidates, incumbentId: incumbent.id });
    return finish('finished');
  } catch (err) {
    if (isCancellation(err) || signal.aborted) {
      await emit({ type: 'run/cancelled' });
      return finish('cancelled');
    }
    const error = RatchetError.is(err) ? { code: err.code, message: err.message } : { code: 'internal', message: err instanceof Error ? err.message : String(err) };
    await emit({ type: 'run/failed', error });
    return finish('failed');
  }
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

async function pickParent(committed: readonly Version[], opts: EvolveOptions, evaluator: Evaluator, random: Random, signal: AbortSignal): Promise<Version> {
  if (committed.length === 1 || !opts.scorer || opts.splits.feedback.length === 0) return committed[committed.length - 1]!;
  const id = pickParetoParent(await feedbackScores(committed, opts, evaluator, signal), random);
  return committed.find((v) => v.id === id)!;
}

/** Two distinct committed versions from the Pareto front over feedback scores, or undefined. */
async function mergePair(committed: readonly Version[], opts: EvolveOptions, evaluator: Evaluator, random: Random, signal: AbortSignal): Promise<[Version, Version] | undefined> {
  if (committed.length < 2 || !opts.scorer || opts.splits.feedback.length === 0) return undefined;
  const scored = await feedbackScores(committed, opts, evaluator, signal);
  const front = paretoFront(scored);
  if (front.length < 2) return undefined;
  const [a, b] = sample(front, 2, random);
  return [committed.find((v) => v.id === a)!, committed.find((v) => v.id === b)!];
}

function feedbackScores(committed: readonly Version[], opts: EvolveOptions, evaluator: Evaluator, signal: AbortSignal) {
  return Promise.all(
    committed.map(async (v) => {
      const evals = await Promise.all(opts.splits.feedback.map((item) => evaluator.evaluate(v.hash, v.text, item, signal)));
      // An item the judge gave no grade on is left out, as the front leaves out items not run (#25).
      return { id: v.id, scores: new Map(evals.flatMap((e) => (e.abstained === undefined ? [[e.itemId, e.score ?? 0] as const] : []))) };
    }),
  );
}

function sample<T>(items: readonly T[], k: number, random: Random): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < k && pool.length > 0) out.push(pool.splice(random.int(pool.length), 1)[0]!);
  return out;
}

function trace(e: Evaluation, item: DataItem): FeedbackTrace {
  return {
    itemId: item.id,
    input: e.input,
    output: e.output,
    ...(item.expected === undefined ? {} : { expected: expectedText(item.expected) }),
    ...(e.score === undefined ? {} : { score: e.score }),
    ...(e.reason ? { feedback: e.reason } : {}),
  };
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

function itemText(item: DataItem): { id: string; text: string } {
  return { id: item.id, text: Object.values(item.vars).map(String).join(' ') };
}

function softConfidence(evals: readonly Evaluation[], soft: boolean): number {
  if (!soft) return 1;
  const lps = evals.map((e) => e.tokenLogprobs ?? []).filter((l) => l.length > 0);
  return lps.length === 0 ? 1 : Math.min(1, Math.max(1e-6, agentConfidence(lps)));
}

function opponents(ratings: Ratings, byId: Map<string, Version>, child: Version, parent: Version, m: number, random: Random): Version[] {
  const pool = ratings.archive().filter((id) => id !== parent.id && id !== child.id);
  return sample(pool, m, random).map((id) => byId.get(id)!);
}

/** The proposer's own reasoning, on one line: how it will recognise the edit in its memory. */
function summarize(reasoning: string): string {
  const line = reasoning.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line || 'an edit';
}

/** Gate-level words only: the proposer learns that an edit lost, never dev outputs or scores (A1). */
function rejectionWhy(reason: string): string {
  switch (reason) {
    case 'futile':
    case 'budget':
      return 'no evidence that it is better than the current prompt';
    case 'infeasible':
      return 'the dev set is too small to show it is better';
    case 'floor':
      return 'the evidence went against it early';
    case 'screened':
      return 'it did not beat the current prompt on a first check';
    case 'validator':
      return 'the validator did not prefer it consistently';
    default:
      return 'it was not better than the current prompt';
  }
}

function duplicateRecord(child: Version, incumbent: Version, spec: RunSpec, ledger: RunLedger) {
  return {
    candidateId: child.id,
    parentId: child.parentId,
    incumbentId: incumbent.id,
    gate: spec.gate.name,
    configHash: '',
    alpha: spec.gate.alpha,
    schedule: spec.gate.schedule,
    ledgerBefore: { ...ledger },
    // The line it would have faced: the run's next share under a run-level schedule, else 1/α.
    threshold: gateRow(spec.gate.name).errorControl ? candidateThreshold(spec.gate.schedule, spec.gate.alpha, ledger, spec.gate.horizon) : 1 / spec.gate.alpha,
    orderSeed: 0,
    itemsConsumed: 0,
    wins: 0,
    losses: 0,
    ties: 0,
    logWealth: 0,
    decision: 'reject' as const,
    reason: 'duplicate' as const,
    candidateCalls: 0,
    incumbentCalls: 0,
  };
}

type Landing = 'applied' | 'dry-run' | 'rejected' | 'stale';

async function deliver(s: Suggestion, mode: RunSpec['mode'], control: RunControl, emit: (e: EventPayload<EngineEvent>) => Promise<void>, meter: Metered, signal: AbortSignal): Promise<Landing> {
  let by: 'autopilot' | 'user' = 'autopilot';
  if (mode === 'suggest') {
    await emit({ type: 'suggestion', ...s });
    // The iteration's cost/update comes only after the user's answer, which can take minutes or
    // outlive the window; until then every face (panel, status bar, Runs view, CLI) would show the
    // cost before this test — 0 calls on the first one. Only the meter knows the calls, tokens and
    // dollars, so the engine says them now. After `suggestion`, not before it: a resume replays the
    // journal event by event, and a run journaled before this event existed, interrupted while its
    // suggestion waited, ends with that `suggestion` — it stays resumable.
    await emit({ type: 'cost/update', cost: meter.cost(), llmCalls: meter.totalCalls() });
    const answer = await control.decide(s, signal);
    if (answer === 'reject') {
      await emit({ type: 'edit/rejected', candidateId: s.candidateId, file: s.file, by: 'user' });
      return 'rejected';
    }
    by = 'user';
  }
  const r = await control.apply(s, by);
  if (r === 'applied') await emit({ type: 'edit/applied', candidateId: s.candidateId, file: s.file, by });
  else if (r === 'stale') await emit({ type: 'log', level: 'warn', message: `${s.file} changed since ${s.candidateId} was computed; the edit was not written over it.` });
  return r;
}

/**
 * The held-out report costs two evaluations per test item (one when nothing was committed). It is
 * made only when the budget can pay for all of it, since half a report says nothing; otherwise, or
 * when a budget runs out midway, it is skipped with a notice.
 */
async function reportTestWithinBudget(opts: EvolveOptions, evaluator: Evaluator, v0: Version, final: Version, budget: RunBudget, emit: (e: EventPayload<EngineEvent>) => Promise<void>, signal: AbortSignal): Promise<void> {
  const calls = opts.splits.test.length * (final === v0 ? 1 : 2);
  const skip = (why: string) => emit({ type: 'log', level: 'info', message: `The test-split report was skipped: ${why}.` });
  const over = budget.exceeded();
  if (over !== undefined) return skip(`the budget is spent (${over})`);
  const callsLeft = budget.callsLeft();
  if (callsLeft !== undefined && calls > callsLeft) return skip(`it needs up to ${calls} LLM calls and the budget has ${callsLeft} left`);
  const dollarsLeft = budget.dollarsLeft();
  const perCall = budget.dollarsPerCall();
  if (dollarsLeft !== undefined && perCall !== undefined && calls * perCall > dollarsLeft) {
    return skip(`it would cost about $${(calls * perCall).toFixed(2)} and the budget has $${dollarsLeft.toFixed(2)} left`);
  }
  try {
    await reportTest(opts, evaluator, v0, final, emit, signal);
  } catch (err) {
    if (!RatchetError.is(err, 'budgetExhausted') || signal.aborted) throw err;
    await skip(`the budget ran out during it (${budgetOf(err)})`);
  }
}

async function reportTest(opts: EvolveOptions, evaluator: Evaluator, v0: Version, final: Version, emit: (e: EventPayload<EngineEvent>) => Promise<void>, signal: AbortSignal) {
  const items = opts.splits.test;
  // Each item's score and output is journaled (in item order, after the concurrent calls) so the
  // Results view can show the test split item by item, not only the report's means.
  const scoreAll = async (v: Version) => {
    const evals = await Promise.all(items.map((item) => evaluator.evaluate(v.hash, v.text, item, signal)));
    for (const e of evals) await emit(evaluatedEvent(v.id, e));
    return evals.map((e) => (e.abstained === undefined ? (e.score ?? 0) : undefined));
  };
  const base = await scoreAll(v0);
  const fin = final === v0 ? base : await scoreAll(final);
  // Items the judge gave no grade on, for either version, are left out of the report (#25): n says how many remain.
  const both = base.flatMap((b, i) => (b === undefined || fin[i] === undefined ? [] : [[b, fin[i]!] as const]));
  const baseScores = both.map(([b]) => b);
  const finScores = both.map(([, f]) => f);
  await emit({
    type: 'report/test',
    n: both.length,
    baseline: { candidateId: v0.id, ...meanInterval(baseScores) },
    final: { candidateId: final.id, ...meanInterval(finScores) },
    difference: differenceInterval(finScores, baseScores),
  });
}
