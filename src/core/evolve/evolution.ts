/**
 * An evolve run's candidates, one iteration at a time: the state the iterations share (the
 * incumbent, the committed versions, the ratings, the run's ledger, the proposer's memory) and the
 * steps of one iteration — choose a parent, propose a child, refuse what must not be tested, test
 * the child at the gate, and land the decision. The loop (loop.ts) decides whether another
 * iteration runs; every random choice here comes from the iteration's own fork of the run's Random.
 */
import type { DataItem } from '../data/item';
import { expectedText } from '../data/item';
import { RatchetError } from '../errors';
import { abstentionWarning } from '../gates/abstentions';
import { agentConfidence } from '../gates/elo';
import { gateRow } from '../gates/gateTable';
import { EMPTY_LEDGER, candidateThreshold } from '../gates/thresholds';
import type { RunLedger } from '../gates/thresholds';
import type { Suggestion } from '../journal/control';
import { askAndRead } from '../llm/reask';
import { estimateTokens } from '../llm/tokens';
import type { Random } from '../ports';
import { evolvableRefusal, fileTextWith } from '../prompt/evolvable';
import { describeFrozenChange, frozenChange, frozenTokens } from '../prompt/frozenTokens';
import { templateVariableNames } from '../prompt/template';
import { evaluatedAs, followsCopilot } from '../files/fileKinds';
import type { RunSpec } from '../run/specTypes';
import { deliver } from './delivery';
import type { Evaluation } from './evaluator';
import { testCandidate, testCandidateWithMatches } from './gateRunner';
import type { GateContext, TestResult } from './gateContext';
import { proposerNote } from './harness';
import { RejectionMemory, rejectionWhy, summarize } from './memory';
import type { EvolveOptions } from './options';
import { copiedDatasetText, itemText } from './overfit';
import { mergePair, opponents, pickParent, sample } from './parents';
import type { FeedbackScoring } from './parents';
import { mergeCall, proposalReminder, proposerCall, readProposal } from './proposer';
import type { FeedbackTrace } from './proposer';
import { Ratings } from './ratings';
import { refreshRubric } from './rubric';
import { makeVersion } from './versions';
import type { Version } from './versions';

/** Feedback items the parent runs on before each proposal (run/estimate.ts counts them too). */
export const MINIBATCH = 4;

/** A proposed child, and how the proposer's memory will name its edit. */
interface Proposed {
  child: Version;
  parent: Version;
  summary: string;
}

export class Evolution {
  incumbent: Version;
  commits = 0;
  candidates = 0;
  /** The candidate whose test is going on: a budget running out now leaves it undecided. */
  underTest: string | undefined;
  ledger: RunLedger = EMPTY_LEDGER;
  /** The file's text as this run last wrote it (or found it): what a suggestion's edit applies to. */
  private fileText: string;
  /** A Copilot file's frozen tokens, as the run started: every version keeps exactly these. */
  private readonly frozen: string[];
  private readonly about: string | undefined;
  private readonly memory = new RejectionMemory();
  private readonly rejectedHashes = new Set<string>();
  private readonly committed: Version[];
  private readonly byId: Map<string, Version>;
  private readonly ratings: Ratings;
  private confidence = 1;
  private readonly recentDecisions: { decision: string; rationale?: string }[] = [];
  private readonly scoring: FeedbackScoring;
  /** One list per set of splits, so the copy check indexes the items once, not per proposal. */
  private texts: { dev: readonly DataItem[]; list: { id: string; text: string }[] } | undefined;

  constructor(
    private readonly opts: EvolveOptions,
    private readonly ctx: GateContext,
    /** The items of the moment: a zero-data run's rounds replace its feedback and dev items. */
    private readonly splits: EvolveOptions['splits'],
    v0: Version,
    fileText: string,
  ) {
    this.incumbent = v0;
    this.fileText = fileText;
    this.frozen = followsCopilot(opts.prompt.kind) ? frozenTokens(v0.text) : [];
    this.about = proposerNote(evaluatedAs(opts.prompt.kind));
    this.committed = [v0];
    this.byId = new Map([[v0.id, v0]]);
    this.ratings = new Ratings(opts.spec.gate.elo.k, opts.spec.gate.elo.temperature);
    this.ratings.add(v0.id, undefined);
    // Parents are scored on the feedback split the run started with.
    this.scoring = { evaluator: ctx.evaluator, feedback: opts.splits.feedback, scored: opts.scorer !== undefined, signal: ctx.signal };
  }

  private get spec(): RunSpec {
    return this.opts.spec;
  }

  /** One iteration; it ends early, without a cost update, when there is nothing to test. */
  async iterate(t: number, random: Random): Promise<void> {
    const iterRandom = random.fork(`iteration:${t}`);
    const proposed = await this.propose(t, iterRandom);
    if (!proposed || (await this.refusedUntested(proposed))) return;
    const result = await this.test(proposed, iterRandom);
    await this.land(proposed, result);
    await this.ctx.emit({ type: 'cost/update', cost: this.opts.meter.cost(), llmCalls: this.opts.meter.totalCalls() });
    await this.refreshFocusRubric();
  }

  /** Chooses a parent (or a merge pair), shows the proposer a feedback minibatch, and reads its child. */
  private async propose(t: number, iterRandom: Random): Promise<Proposed | undefined> {
    const { spec, ctx, opts } = this;
    // Parent selection: ratings when fully reward-free, else the Pareto front over feedback scores;
    // with `merge`, every other iteration combines two front members instead (GEPA's merge).
    const pair = spec.merge && t % 2 === 0 ? await mergePair(this.committed, this.scoring, iterRandom.fork('merge')) : undefined;
    const parent = pair?.[0] ?? (spec.gate.name === 'elo' ? this.byId.get(this.ratings.pickParent(iterRandom.fork('parent')))! : await pickParent(this.committed, this.scoring, iterRandom.fork('parent')));

    // Reflection on a feedback minibatch only (A1): the proposer never sees dev items.
    const batch = pair ? [] : sample(this.splits.feedback, MINIBATCH, iterRandom.fork('minibatch'));
    const evals = await Promise.all(batch.map((item) => ctx.evaluator.evaluate(parent.hash, parent.text, item, ctx.signal)));
    if (spec.gate.name === 'elo') this.confidence = softConfidence(evals, spec.gate.elo.soft);
    const traces: FeedbackTrace[] = evals.map((e, i) => trace(e, batch[i]!));
    const variables = templateVariableNames(opts.template.text);
    const about = this.about ? { about: this.about } : {};
    const call = pair
      ? mergeCall({ a: pair[0].text, b: pair[1].text, maxPromptTokens: spec.maxPromptTokens, variables, frozen: this.frozen, ...about })
      : proposerCall({ parentText: parent.text, traces, rejected: this.memory.forParent(parent.id), maxPromptTokens: spec.maxPromptTokens, variables, frozen: this.frozen, ...about });
    // An answer that cannot be read is answered once in the same chat with what was wrong (#25).
    const asked = await askAndRead(
      (messages) => opts.ports.llm.chat({ role: 'proposer', messages, temperature: spec.models.proposer.temperature ?? 0.7, sampleIndex: t }, ctx.signal),
      call.messages,
      (res) => readProposal(res.text, call.block),
      proposalReminder(call.block),
    );
    const proposal = asked.value;
    if (!proposal) {
      await ctx.emit({ type: 'log', level: 'warn', message: `Iteration ${t}: the proposer's answer could not be read, even when asked again (${asked.problem}); the iteration is skipped.` });
      return undefined;
    }

    const child = makeVersion(`c${t}`, proposal.text.replace(/\r\n/g, '\n'), parent.id);
    if (this.committed.some((v) => v.hash === child.hash)) {
      await ctx.emit({ type: 'log', level: 'info', message: `Iteration ${t}: the proposer returned a version already committed; nothing to test.` });
      return undefined;
    }
    this.candidates++;
    this.byId.set(child.id, child);
    const reasoning = pair ? `Merge of ${pair[0].id} and ${pair[1].id}. ${proposal.reasoning}` : proposal.reasoning;
    await ctx.emit({ type: 'candidate/proposed', candidateId: child.id, parentId: parent.id, contentHash: child.hash, text: child.text, reasoning, ...(asked.reasoning === undefined ? {} : { thinking: asked.reasoning }) });
    return { child, parent, summary: summarize(proposal.reasoning) };
  }

  /** Refused before it costs an evaluation, and the proposer told why (its memory of this parent); true when it is not tested. */
  private async refusedUntested({ child, parent, summary }: Proposed): Promise<boolean> {
    const { spec, ctx } = this;
    const refusal = evolvableRefusal(this.opts.prompt, child.text) ?? describeFrozenChange(frozenChange(this.frozen, child.text));
    if (refusal !== undefined) {
      await ctx.emit({ type: 'log', level: 'warn', message: `${child.id} was not tested: ${refusal}.` });
      this.memory.add({ parentId: parent.id, candidateId: child.id, summary, why: `it was refused unevaluated: ${refusal}`, by: 'gate' });
      return true;
    }
    const tokens = estimateTokens(child.text);
    if (tokens > spec.maxPromptTokens) {
      await ctx.emit({ type: 'log', level: 'warn', message: `${child.id} is about ${tokens} tokens, over the run's maxPromptTokens of ${spec.maxPromptTokens}; not tested.` });
      this.memory.add({ parentId: parent.id, candidateId: child.id, summary, why: 'the prompt was over the length budget', by: 'gate' });
      return true;
    }
    const copied = copiedDatasetText(parent.text, child.text, this.datasetTexts());
    if (copied.length > 0) {
      await ctx.emit({
        type: 'log',
        level: 'warn',
        message: `${child.id} copies dataset text into the prompt ("${copied[0]!.excerpt}", item ${copied[0]!.itemId}); that tends to overfit.`,
      });
    }

    // A5: a re-proposal of a rejected candidate is rejected without a new test.
    if (this.rejectedHashes.has(child.hash)) {
      await ctx.emit({ type: 'decision', record: duplicateRecord(child, this.incumbent, spec, this.ledger) });
      this.memory.add({ parentId: parent.id, candidateId: child.id, summary, why: 'it repeats an edit already rejected', by: 'gate' });
      return true;
    }
    return false;
  }

  private datasetTexts() {
    const { splits } = this;
    if (this.texts?.dev !== splits.dev) this.texts = { dev: splits.dev, list: [...splits.feedback, ...splits.dev].map(itemText) };
    return this.texts.list;
  }

  /** The gate's test of the child: against the incumbent, or in matches against rated versions. */
  private async test({ child, parent }: Proposed, iterRandom: Random): Promise<TestResult> {
    const { spec, ctx } = this;
    this.underTest = child.id;
    const result =
      spec.gate.name === 'elo'
        ? await testCandidateWithMatches(ctx, child, parent, opponents(this.ratings, this.byId, child, parent, spec.gate.elo.matches, iterRandom.fork('opponents')), this.ledger)
        : await testCandidate(ctx, child, this.incumbent, this.ledger);
    this.underTest = undefined;
    this.ledger = result.ledgerAfter;
    await ctx.emit({ type: 'decision', record: result.record });
    const judgeWarning = abstentionWarning(result.record);
    if (judgeWarning) await ctx.emit({ type: 'log', level: 'warn', message: judgeWarning });
    this.recentDecisions.push({ decision: result.record.decision, ...(result.rationales[0] ? { rationale: result.rationales[0] } : {}) });

    if (spec.gate.name === 'elo') {
      this.ratings.add(child.id, parent.id);
      for (const m of result.matches) this.ratings.record(child.id, m.opponentId, m.childScore, this.confidence, `${child.id}:${m.opponentId}`);
      await ctx.emit({ type: 'ratings', ratings: this.ratings.rows(iterRandom.fork('bootstrap')) });
    }
    return result;
  }

  /** A commit becomes the incumbent and reaches the file (unless the user or the file says no); a rejection is remembered. */
  private async land({ child, parent, summary }: Proposed, result: TestResult): Promise<void> {
    const { spec, opts, ctx } = this;
    if (result.record.decision !== 'commit') {
      this.rejectedHashes.add(child.hash);
      ctx.evaluator.forget(child.hash);
      this.memory.add({ parentId: parent.id, candidateId: child.id, summary, why: rejectionWhy(result.record.reason), by: 'gate' });
      return;
    }
    this.commits++;
    ctx.outcomes.adopt(child.hash, result.candidateOutcomes);
    const previous = this.incumbent;
    this.incumbent = child;
    const suggestion: Suggestion = { candidateId: child.id, file: opts.prompt.path, baseText: this.fileText, newText: fileTextWith(opts.prompt, child.text) };
    const landed = await deliver(suggestion, spec.mode, opts.control, ctx.emit, opts.meter, ctx.signal);
    if (landed === 'stale' && spec.mode === 'autopilot') {
      // Writing on would re-commit this same edit against a file that no longer matches it,
      // candidate after candidate; the user's (or another program's) text wins and the run stops.
      throw new RatchetError('fileChanged', `${opts.prompt.path} changed since ${child.id} was computed, so its edit was not written over it and the run stopped; start a new run on the file as it is now.`, {
        file: opts.prompt.path,
        candidateId: child.id,
      });
    }
    if (landed === 'rejected' || landed === 'stale') {
      this.incumbent = previous;
      if (landed === 'rejected') this.memory.add({ parentId: parent.id, candidateId: child.id, summary, why: 'the user rejected it', by: 'user' });
    } else {
      this.committed.push(child);
      if (landed === 'applied') this.fileText = suggestion.newText;
      this.memory.add({ parentId: parent.id, candidateId: child.id, summary, why: `it became ${child.id}; look for a different improvement`, by: 'gate', outcome: 'accepted' });
    }
  }

  /** Adaptive Focus rewrites its rubric every `refreshEvery` decisions. */
  private async refreshFocusRubric(): Promise<void> {
    const { spec, ctx } = this;
    if (spec.gate.name !== 'focus' || this.recentDecisions.length % spec.gate.focus.refreshEvery !== 0) return;
    // Between tests only (GATES.md 5 caveats): the next test runs entirely under the new rubric.
    const { rubric } = ctx;
    const next = await refreshRubric(this.opts.ports.llm, rubric.text, this.recentDecisions.slice(-spec.gate.focus.refreshEvery), spec.models.meta, ctx.signal, rubric.version + 1);
    if (next) {
      rubric.text = next.rubric;
      rubric.version += 1;
      await ctx.emit({ type: 'rubric/updated', version: rubric.version, rubric: next.rubric, why: next.why });
    }
  }
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

function softConfidence(evals: readonly Evaluation[], soft: boolean): number {
  if (!soft) return 1;
  const lps = evals.map((e) => e.tokenLogprobs ?? []).filter((l) => l.length > 0);
  return lps.length === 0 ? 1 : Math.min(1, Math.max(1e-6, agentConfidence(lps)));
}

/** The record of a re-proposed rejected edit: rejected as a duplicate, no item spent. */
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
