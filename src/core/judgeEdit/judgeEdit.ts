/**
 * The judge run: one candidate text of a prompt file against the file's current text, tested with
 * the gate's paired anytime-valid test on the file's dev items and scorer (its run spec), once.
 * What an agent asks when it wants to know "is this edit really better?" (`ratchet mcp`'s
 * judge_edit), and what a pull-request check asks of head against base (`ratchet check`).
 *
 * It is the evolve loop's test of one candidate (gateRunner.ts `testCandidate`) without a proposer:
 * the incumbent is version v0, the candidate c1; the item order is seeded by the run seed and the
 * candidate's hash and fixed before the first evaluation (A2); the incumbent's outcomes come from
 * the test itself (4.3); the e-process is fed strictly in that order and the first crossing decides
 * (4.7). Its journal is a run's like any other (kind `judge`): run/started, dataset/loaded, the two
 * versions, every evaluation and wealth step, the decision, the edit when applied, run/finished.
 *
 * The candidate is whoever wrote it; nothing about the dev items (inputs, outputs, per-item
 * outcomes) goes back to it from here — the face decides what to show, and a face that answers an
 * agent shows only the test's totals (A1: a proposer that sees dev outcomes can fit them).
 */
import type { DataItem } from '../data/item';
import { checkItemsAgainstTemplate } from '../data/templateCheck';
import { badInputError, errorsOf } from '../data/diagnostics';
import type { Scorer } from '../data/scorers/types';
import { RatchetError } from '../errors';
import { OutcomeCache } from '../gates/incumbentCache';
import { isPaceGate } from '../gates/gateTable';
import type { GateName } from '../gates/gateTable';
import type { DecisionRecord } from '../gates/record';
import { preflight } from '../gates/preflight';
import { EMPTY_LEDGER } from '../gates/thresholds';
import type { RunLedger } from '../gates/thresholds';
import type { EngineEvent } from '../journal/events';
import type { RunSummaryInfo } from '../journal/payloadTypes';
import type { EventPayload, RunControl, Suggestion } from '../journal/control';
import { runEnding } from '../journal/runEnding';
import type { Ports } from '../ports';
import type { PromptFile } from '../prompt/promptFile';
import { parsePromptFile } from '../prompt/promptFile';
import { evolvableRefusal, evolvableText, fileTextWith, skillDescription, skillName } from '../prompt/evolvable';
import { describeFrozenChange, frozenChange, frozenTokens } from '../prompt/frozenTokens';
import { evaluatedAs, followsCopilot } from '../files/fileKinds';
import type { LlmClient } from '../ports';
import { chatHarness } from '../evolve/harness';
import type { AgentHarness } from '../evolve/harness';
import { templateOf } from '../prompt/template';
import { sha256Hex } from '../random';
import type { Metered } from '../run/budget';
import { budgetOf } from '../run/budget';
import { paceConfigOf } from '../run/gateConfig';
import type { GateSpec, RunSpec } from '../run/specTypes';
import { Evaluator } from '../evolve/evaluator';
import { testCandidate } from '../evolve/gateRunner';
import type { GateContext } from '../evolve/gateContext';
import { DEFAULT_RUBRIC } from '../evolve/judge';
import { datasetItemInfo, scoreMode } from '../evolve/loop';
import { makeVersion } from '../evolve/versions';
import type { Version } from '../evolve/versions';

export interface JudgeEditOptions {
  runId: string;
  /** The file's run spec as loaded (setup/spec.ts): its models, scorer, seed and gate. */
  spec: RunSpec;
  /** The file as it is now: the incumbent. */
  file: PromptFile;
  /** The candidate: the file's whole new text. */
  candidateText: string;
  /** The dev items the test runs on, as the spec's split gives them. */
  dev: readonly DataItem[];
  scorer: Scorer | undefined;
  ports: Pick<Ports, 'llm' | 'clock'>;
  meter: Metered;
  /** How a version meets the agent (a `harness: command` run's, from its face); default: the file kind's chat harness. */
  harness?: AgentHarness;
  /**
   * The gate the test uses (judgeGate): the spec's when it is of the PACE family, else the
   * anytime-valid gate for its outcomes. The schedule is the caller's: per-candidate for one
   * agent's question, a run-level one when a ledger spends α over many (the PR check).
   */
  gate: GateSpec;
  /** Tests before this one under the gate's schedule (default: none). */
  ledger?: RunLedger;
  /** Write the candidate into the file on commit, through the face's apply point; absent: write nothing. */
  apply?: RunControl;
  /** Why the candidate was written, in its author's words (journaled with it, never parsed). */
  reasoning?: string;
  /** What the test expects to spend, said in `run/started` before the first call. */
  estimate?: RunSummaryInfo['estimate'];
  models?: RunSummaryInfo['models'];
  /** The run's limits, as `run/started` declares them. */
  budget?: RunSummaryInfo['budget'];
}

/** What the test decided: commit, reject (the evidence did not come), or undecided (a budget stopped it first). */
export type JudgeVerdict = 'commit' | 'reject' | 'undecided';

/** One dev item the test consumed, in the pre-fixed order: Δ = candidate − incumbent (−1, 0, +1, or in between). */
export interface JudgedPair {
  itemId: string;
  delta: number;
}

export interface JudgeEditOutcome {
  status: 'finished' | 'cancelled' | 'failed';
  /** undefined unless finished. */
  verdict: JudgeVerdict | undefined;
  /** The gate's record; undefined when the test was stopped before its verdict (or did not run). */
  record: DecisionRecord | undefined;
  /** The budget that stopped the test, in words ("80 of 80 LLM calls"). */
  stoppedBy?: string;
  /** Whether the candidate reached the file: asked only on commit with `apply`. */
  applied?: 'applied' | 'stale';
  /** The items the test consumed and how each went: a report's detail, never an agent's (A1). */
  pairs: JudgedPair[];
  /** The items the test could use: the dev items (a program: its evaluator's instances, once known). */
  items: number;
  ledgerAfter: RunLedger;
  error?: { code: string; message: string };
}

/**
 * The gate a judge test uses. An agent asks for a test with error control, so a spec whose gate
 * has none (greedy, the direct pairwise gates, elo) is tested with the anytime-valid gate for its
 * outcomes: PACE+ on scores, reward-free PACE on the validator's verdicts.
 */
export function judgeGate(spec: Pick<RunSpec, 'gate' | 'rewardFree'>, schedule: GateSpec['schedule'] = 'per-candidate'): { gate: GateSpec; substituted?: GateName } {
  const name: GateName = isPaceGate(spec.gate.name) ? spec.gate.name : spec.rewardFree ? 'pace-rf' : 'pace+';
  const gate: GateSpec = { ...spec.gate, name, schedule };
  return name === spec.gate.name ? { gate } : { gate, substituted: spec.gate.name };
}

/**
 * Everything the test refuses before its first call, from the two texts and the dev items: a
 * candidate that is no edit, one that changes what an edit may not (the front matter, where the run
 * spec the test is made of lives — for a skill, all of it but its description: A3; a Copilot file's
 * frozen tokens), one whose template needs a variable the dev items lack, a dev set too small to
 * commit. Answers the candidate's version: what the agent is given (`evolvableText`).
 */
export function checkCandidate(file: PromptFile, candidateText: string, dev: readonly DataItem[], gate: GateSpec, ledger: RunLedger = EMPTY_LEDGER): string {
  const lf = (t: string) => t.replace(/\r\n/g, '\n');
  const version = evolvableText(parsePromptFile(file.path, candidateText));
  const refusal = evolvableRefusal(file, version) ?? (followsCopilot(file.kind) ? describeFrozenChange(frozenChange(frozenTokens(evolvableText(file)), version)) : undefined);
  if (refusal !== undefined) throw new RatchetError('badInput', `The candidate cannot be judged: ${refusal}.`, { file: file.path, field: 'candidate' });
  if (lf(fileTextWith(file, version)) !== lf(candidateText)) {
    const what = skillDescription(file) ? "the front matter beyond the skill's description" : 'the front matter';
    throw new RatchetError(
      'badInput',
      `The candidate changes ${what} of ${file.path}, where its run spec and settings live; the test is made of them and cannot judge a change to them. Send the edit of the ${skillDescription(file) ? 'description and body' : 'body'} alone.`,
      { file: file.path, field: 'candidate' },
    );
  }
  if (version === evolvableText(file)) {
    throw new RatchetError('badInput', `The candidate is the text ${file.path} already holds: there is no edit to judge.`, { file: file.path, field: 'candidate' });
  }
  const problems = errorsOf(checkItemsAgainstTemplate(dev, templateOf(parsePromptFile(file.path, candidateText))));
  if (problems.length > 0) throw badInputError(problems.map((p) => ({ ...p, message: `the candidate: ${p.message}` })));
  if (dev.length === 0) throw new RatchetError('badInput', `${file.path}'s run spec gives no dev items to test on; name a dataset with a dev split.`, { file: file.path, field: 'split' });
  const cfg = paceConfigOf(gate);
  const pf = cfg && preflight(cfg, ledger, dev.length);
  if (pf && !pf.feasible) throw new RatchetError('badInput', `${pf.message}: no candidate can be committed on it. Add dev items or raise α.`, { file: file.path, field: 'split' });
  return version;
}

export async function runJudgeEdit(o: JudgeEditOptions, emitEvent: (e: EngineEvent) => Promise<void>, signal: AbortSignal): Promise<JudgeEditOutcome> {
  const { spec, ports } = o;
  const emit = (e: EventPayload<EngineEvent>) => emitEvent({ ...e, runId: o.runId, at: ports.clock.now() } as EngineEvent);
  const ledger = o.ledger ?? EMPTY_LEDGER;
  const pairs: JudgedPair[] = [];
  const outcome = (status: JudgeEditOutcome['status'], rest: Partial<JudgeEditOutcome> = {}): JudgeEditOutcome => ({ status, verdict: undefined, record: undefined, pairs, items: o.dev.length, ledgerAfter: ledger, ...rest });
  const incumbent = makeVersion('v0', evolvableText(o.file), undefined);
  const candidate: Version = makeVersion('c1', evolvableText(parsePromptFile(o.file.path, o.candidateText)), 'v0');

  await emit({
    type: 'run/started',
    info: {
      kind: 'judge',
      target: o.file.path,
      gate: o.gate.name,
      alpha: o.gate.alpha,
      mode: o.apply ? 'autopilot' : 'suggest',
      seed: spec.seed,
      ...(o.budget ? { budget: o.budget } : {}),
      ...(o.estimate ? { estimate: o.estimate } : {}),
      ...(o.models ? { models: o.models } : {}),
    },
  });
  await emit({ type: 'dataset/loaded', items: o.dev.map((item) => datasetItemInfo(item, 'dev')) });
  try {
    await emit({ type: 'candidate/proposed', candidateId: incumbent.id, parentId: undefined, contentHash: incumbent.hash, text: incumbent.text, reasoning: `The text of ${o.file.path} when the test started.` });
    await emit({ type: 'candidate/proposed', candidateId: candidate.id, parentId: incumbent.id, contentHash: candidate.hash, text: candidate.text, reasoning: o.reasoning ?? 'The candidate sent to be judged.' });
    const ctx: GateContext = {
      emit: async (e) => {
        if (e.type === 'wealth/step') pairs.push({ itemId: e.itemId, delta: e.delta });
        await emit(e);
      },
      evaluator: new Evaluator({ harness: o.harness ?? fileHarness(o.file, spec, ports.llm), scorer: o.scorer }),
      llm: ports.llm,
      validator: spec.models.validator,
      dev: o.dev,
      // No feedback items here: under a screened schedule the screen cannot judge and lets the
      // candidate through to its dev-set test (core/gates/screen.ts).
      feedback: [],
      gate: o.gate,
      scores: scoreMode(o.scorer),
      outcomes: new OutcomeCache(sha256Hex(JSON.stringify({ agent: spec.models.agent, scorer: spec.scorer ?? null }))),
      runSeed: spec.seed,
      batchSize: Math.max(1, spec.concurrency),
      rubric: { text: DEFAULT_RUBRIC, version: 0 },
      signal,
    };
    let result;
    try {
      result = await testCandidate(ctx, candidate, incumbent, ledger);
    } catch (err) {
      if (!RatchetError.is(err, 'budgetExhausted') || signal.aborted) throw err;
      // A budget refused a call mid-test: no decision on partial evidence; the candidate stays undecided.
      const stoppedBy = budgetOf(err);
      await emit({ type: 'candidate/stopped', candidateId: candidate.id, reason: 'budget', budget: stoppedBy });
      await emit({ type: 'cost/update', cost: o.meter.cost(), llmCalls: o.meter.totalCalls() });
      await emit({ type: 'run/finished', commits: 0, candidates: 1, incumbentId: incumbent.id });
      return outcome('finished', { verdict: 'undecided', stoppedBy });
    }
    await emit({ type: 'decision', record: result.record });
    const committed = result.record.decision === 'commit';
    const applied = committed && o.apply ? await applyCandidate(o.apply, { candidateId: candidate.id, file: o.file.path, baseText: o.file.text, newText: o.candidateText }, emit) : undefined;
    await emit({ type: 'cost/update', cost: o.meter.cost(), llmCalls: o.meter.totalCalls() });
    await emit({ type: 'run/finished', commits: committed ? 1 : 0, candidates: 1, incumbentId: committed ? candidate.id : incumbent.id });
    return outcome('finished', { verdict: committed ? 'commit' : 'reject', record: result.record, ledgerAfter: result.ledgerAfter, ...(applied ? { applied } : {}) });
  } catch (err) {
    const ending = runEnding(err, signal);
    await emit(ending.event);
    return ending.cancelled ? outcome('cancelled') : outcome('failed', { error: ending.error });
  }
}

/**
 * The committed candidate written through the face's apply point (the editor's versioned edit, or
 * an atomic write that checks the file still holds the text the test started from), as an
 * autopilot run writes its commits. A file changed meanwhile is not written over.
 */
export async function applyCandidate(control: RunControl, suggestion: Suggestion, emit: (e: EventPayload<EngineEvent>) => Promise<void>): Promise<'applied' | 'stale' | undefined> {
  const { candidateId, file } = suggestion;
  const r = await control.apply(suggestion, 'autopilot');
  if (r === 'stale') {
    const why = `${file} changed while the candidate was being judged; the committed candidate was not written over it.`;
    await emit({ type: 'edit/rejected', candidateId, file, by: 'run', reason: 'stale', why });
    return 'stale';
  }
  if (r === 'dry-run') return undefined;
  await emit({ type: 'edit/applied', candidateId, file, by: 'autopilot' });
  return 'applied';
}

/** The chat harness the file's kind calls for (evolve/harness.ts), as the evolve loop builds it. */
export function fileHarness(file: PromptFile, spec: RunSpec, llm: LlmClient): AgentHarness {
  return chatHarness({ llm, template: templateOf(file), agent: spec.models.agent, logprobs: false, evaluatedAs: evaluatedAs(file.kind), message: spec.harness.message, skillName: skillName(file) });
}
