/**
 * Gated code search on one file, ShinkaEvolve style: islands of programs, a proposer answering in
 * Shinka's formats (diff / full / cross), novelty and duplicate checks, a model bandit — and every
 * acceptance a paired, anytime-valid test (gate.ts) instead of one evaluation and a strict `>`.
 *
 * One proposal: pick an island (round robin) and its parent (the database's rule; fix mode when
 * the island has no correct program), a proposal kind (the spec's mix), a proposer model (UCB);
 * ask; apply the answer to the parent — a failed read or patch is answered in the same chat with
 * the precise error, up to MAX_PATCH_RETRIES times; refuse duplicates and near-copies; then test
 * the child against its island's incumbent through the gate, which evaluates it shard by shard.
 *
 * Proposals run concurrently so that the evaluator slots stay busy, yet a run is as reproducible
 * as a sequential one (a resume replays it event for event): proposal k is launched the moment
 * proposal k − W is applied, from exactly the state the applied proposals left, and proposals are
 * applied — journaled, added to the database, rewarded — strictly in order. Each draws its
 * randomness at launch and holds its events until it is applied. At one slot W is 1: sequential.
 * Everything that happens is an engine event; the journal and the faces take it from there.
 *
 * This file is the loop; each part it drives has a module of its own: a proposal (proposal.ts), the
 * proposer's chat (askProposer.ts), refusing repeats (newChild.ts), the child's test (childGate.ts,
 * gate.ts), fix mode (fixMode.ts), the instances the first correct program fixes (runInstances.ts),
 * the failed-proposal stop rule (failureStreak.ts), meta notes (metaNotebook.ts), and the program
 * events (programEvents.ts).
 */
import { RatchetError } from '../errors';
import { abstentionWarning } from '../gates/abstentions';
import { childMatchScore } from '../gates/pairwise';
import { verdictEvent } from '../evolve/judge';
import { advanceLedger } from '../gates/thresholds';
import type { RunLedger } from '../gates/thresholds';
import type { PriceTable } from '../llm/types';
import { budgetOf } from '../run/budget';
import { askProposer } from './askProposer';
import { UcbBandit, gateReward } from './bandit';
import { describeSpans, parseBlocks } from './blocks';
import type { Blocks } from './blocks';
import { childGateContext } from './childGate';
import type { ChildGateSetting } from './childGate';
import { ProgramDatabase } from './database';
import type { ProgramRecord } from './database';
import { Evaluations } from './evaluations';
import { FailureStreak } from './failureStreak';
import { applyRepair, evaluateSeed } from './fixMode';
import type { FixModeSetting } from './fixMode';
import { scoreCache, testChild } from './gate';
import type { CodeGateResult } from './gate';
import { MatchRatings } from './matchRatings';
import { MetaNotebook } from './metaNotebook';
import { ngramSimilarity, textHash } from './novelty';
import { NoveltyJudge } from './noveltyJudge';
import { newChild } from './newChild';
import { ProgramEvents } from './programEvents';
import { drawKind } from './proposal';
import type { Child, Proposal, ProposalResult } from './proposal';
import { proposalMessages } from './proposalPrompt';
import { RunInstances } from './runInstances';
import { proposerArms } from './spec';
import type { SearchOptions, SearchOutcome } from './searchTypes';

// The evaluator a search is given, and the search's own interface: its callers name them with the search.
export type { ProgramBatchEvaluator, ProgramEvaluation, ProgramEvaluator } from './evaluations';
export type { CommittedProgram, CommittedPrograms, SearchOptions, SearchOutcome } from './searchTypes';

/** Proposals in flight for `slots` evaluator slots: enough that each slot has work while the next children are written; one slot, one proposal. */
export function proposalsInFlight(slots: number): number {
  return 2 * Math.max(1, slots) - 1;
}

export async function runSearch(o: SearchOptions): Promise<SearchOutcome> {
  return new Search(o).run();
}

class Search {
  private readonly db: ProgramDatabase;
  private readonly bandit: UcbBandit;
  /** The proposer models' prices, for a cost-aware bandit. */
  private readonly armPrices: PriceTable;
  private readonly novelty: NoveltyJudge;
  private readonly texts = new Map<string, string>();
  private readonly blocks: Blocks;
  private readonly cache = scoreCache();
  /** Gate `pairwise`: every child-versus-incumbent match so far, rated for Bradley–Terry parents. */
  private readonly matchRatings: MatchRatings;
  private readonly evaluations: Evaluations;
  private readonly events: ProgramEvents;
  private readonly instances: RunInstances;
  private readonly fixMode: FixModeSetting;
  private readonly childGate: ChildGateSetting;
  private readonly failures: FailureStreak;
  private readonly notes: MetaNotebook;
  /** Ends every proposal still in flight when the run fails or is cancelled. */
  private readonly stop = new AbortController();
  private ledger: RunLedger = { tested: 0, commits: 0 };
  /** Test indices handed out at launch; one a proposal did not use is taken back when no later one holds a higher index. */
  private testsReserved = 0;
  /** Fix mode: islands given their first correct program. */
  private repairs = 0;
  /** Proposals sent (a proposal the budget refused is not counted) and launched. */
  private proposals = 0;
  private launched = 0;
  /** Why no further proposal is launched before the budgets say so. */
  private stopped: string | undefined;

  constructor(private readonly o: SearchOptions) {
    const s = o.spec;
    this.blocks = parseBlocks(o.seedText, s.programPath);
    this.db = new ProgramDatabase(
      { islands: s.islands, archiveSize: s.search.archiveSize, archivePolicy: s.search.archivePolicy, migrationInterval: s.search.migrationInterval, migrationRate: s.search.migrationRate },
      { similarity: (a, b) => ngramSimilarity(this.texts.get(a) ?? '', this.texts.get(b) ?? '') },
    );
    const arms = proposerArms(s);
    this.bandit = UcbBandit.create(
      arms.map((a) => a.model),
      { costWeight: s.search.bandit.costWeight },
    );
    this.armPrices = Object.fromEntries(arms.flatMap((a) => (a.price ? [[a.model, a.price]] : [])));
    this.novelty = NoveltyJudge.forRun(o.llm, s.search.novelty, s.seed);
    this.matchRatings = new MatchRatings(s.search.parentSelection === 'bt');
    this.evaluations = new Evaluations({
      evaluate: o.evaluate,
      slots: s.concurrency,
      limit: s.budget.evaluations,
      whole: !s.evaluator.shards && s.evaluator.repeats === undefined,
      texts: this.texts,
      cache: this.cache,
    });
    const signal = this.stop.signal;
    this.events = new ProgramEvents({ emit: o.emit, evaluations: this.evaluations, texts: this.texts, seedText: o.seedText });
    this.instances = new RunInstances({ spec: s, evaluations: this.evaluations, cache: this.cache, events: this.events, emit: o.emit, signal });
    this.fixMode = { seedText: o.seedText, db: this.db, instances: this.instances, events: this.events, emit: o.emit };
    this.childGate = { spec: s, llm: o.llm, instances: this.instances, evaluations: this.evaluations, ...(o.evaluateShards ? { evaluateShards: o.evaluateShards } : {}), cache: this.cache, texts: this.texts, signal };
    this.failures = new FailureStreak(s.search.stopAfterFailedProposals);
    this.notes = new MetaNotebook({ llm: o.llm, runSeed: s.seed, every: s.search.metaEvery, emit: o.emit, signal });
  }

  async run(): Promise<SearchOutcome> {
    const onAbort = () => this.stop.abort(this.o.signal.reason);
    this.o.signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.search();
    } finally {
      this.o.signal.removeEventListener('abort', onAbort);
    }
  }

  private async search(): Promise<SearchOutcome> {
    const s = this.o.spec;
    if (this.blocks.notice) await this.events.log('info', this.blocks.notice);
    const { evaluation: seed, stopped } = await evaluateSeed(this.fixMode, this.ledger);
    this.stopped ??= stopped;
    let seedRecord: ProgramRecord | undefined;
    for (let island = 0; island < s.islands; island++) {
      // Each island starts from the seed: the same program, scored once.
      seedRecord = this.db.add({
        id: island === 0 ? 'p0' : `p0.${island}`,
        island,
        generation: 0,
        textHash: textHash(this.o.seedText),
        correct: seed.correct,
        ...(seed.score === undefined ? {} : { score: seed.score }),
        kind: 'seed',
      }) as ProgramRecord;
      this.texts.set(seedRecord.id, this.o.seedText);
    }
    if (seed.correct && seed.score !== undefined) await this.o.committed?.committed({ id: 'p0', text: this.o.seedText, score: seed.score });
    const window = proposalsInFlight(s.concurrency);
    const flight: Proposal[] = [];
    const fill = () => {
      while (flight.length < window && this.mayLaunch(flight)) flight.push(this.launch(flight));
    };
    try {
      fill();
      for (let p = flight.shift(); p; p = flight.shift()) {
        await this.apply(p, await p.done);
        fill();
      }
    } catch (err) {
      // Whatever is still in flight is past use: stop it, and let its evaluators end before the run does.
      this.stop.abort(err);
      await Promise.allSettled(flight.map((p) => p.done));
      throw err;
    }
    if (this.stopped) await this.events.log('warn', `${this.stopped} The search stops after ${this.proposals} proposals.`);
    // The best program may still wait for the user's answer: the run ends with it answered.
    await this.o.committed?.settled();
    const best = this.db.best() ?? seedRecord!;
    await this.o.emit({ type: 'run/finished', commits: this.ledger.commits, candidates: this.ledger.tested, incumbentId: best.id, ...(this.stopped ? { stopped: this.stopped } : {}) });
    return {
      best: { id: best.id, text: this.texts.get(best.id)!, score: best.score },
      seedScore: seed.score,
      proposals: this.proposals,
      evaluations: this.evaluations.count,
      commits: this.ledger.commits,
      repairs: this.repairs,
      ...(this.stopped ? { stopped: this.stopped } : {}),
    };
  }

  /**
   * Another proposal is launched while the budgets leave room for it: an evaluation budget counts
   * one evaluation ahead for each proposal in flight whose child is not evaluated yet, so no
   * proposal is paid for whose child the budget could not evaluate.
   */
  private mayLaunch(flight: readonly Proposal[]): boolean {
    const b = this.o.spec.budget;
    const spent = this.o.evaluationBudget?.();
    if (spent !== undefined) this.stopped ??= `The run's budget is spent (${spent}); no further evaluation is submitted.`;
    const ahead = flight.filter((p) => !p.evaluating).length;
    return this.stopped === undefined && this.launched < b.proposals && (b.evaluations === undefined || this.evaluations.count + ahead < b.evaluations);
  }

  /**
   * Launches proposal n from the state the applied proposals left: every random draw it needs is
   * made now, in launch order, so the run does not depend on which proposal finishes first.
   */
  private launch(inFlight: readonly Proposal[]): Proposal {
    const s = this.o.spec;
    const random = this.o.random;
    const n = ++this.launched;
    this.proposals++;
    const island = (n - 1) % s.islands;
    const fix = this.db.islandNeedsFix(island);
    const parent = (fix ? this.db.fixCandidate(island, random) : this.db.selectParent(island, random, this.matchRatings.parentRule(s.search.parentSelection, s.gate.name))) ?? this.db.incumbent(island)!;
    const kind = drawKind(s.search.mix, random);
    const inspirations = this.db.inspirations(island, random, { exclude: parent.id });
    const model = this.bandit.choose(random);
    const output = fix ? this.evaluations.outputOf(parent.textHash) : undefined;
    const hint = this.notes.hint();
    const messages = proposalMessages({
      kind,
      path: s.programPath,
      parentText: this.texts.get(parent.id)!,
      parent,
      ...(output !== undefined ? { output } : {}),
      spans: describeSpans(this.blocks.spans),
      inspirations: inspirations.map((p) => ({ record: p, text: this.texts.get(p.id)! })),
      fix,
      ...(hint !== undefined ? { hint } : {}),
    });
    let settleChild: (c: Child | undefined) => void = () => undefined;
    const p: Proposal = {
      n,
      island,
      generation: Math.floor((n - 1) / s.islands) + 1,
      parent,
      incumbent: this.db.incumbent(island) ?? parent,
      kind,
      repair: fix,
      model,
      messages,
      ledger: { tested: this.testsReserved++, commits: this.ledger.commits },
      known: [...this.db.programs()],
      earlier: [...inFlight],
      child: new Promise<Child | undefined>((resolve) => (settleChild = resolve)),
      events: [],
      costs: [],
      done: Promise.resolve({ kind: 'none' }),
      evaluating: false,
    };
    p.done = this.work(p, settleChild).finally(() => settleChild(undefined));
    p.done.catch(() => undefined); // awaited in order by the loop, or abandoned when the run fails
    return p;
  }

  /** Asks, patches, checks novelty and tests — everything a proposal does before it is applied. */
  private async work(p: Proposal, settleChild: (c: Child | undefined) => void): Promise<ProposalResult> {
    const s = this.o.spec;
    const signal = this.stop.signal;
    const asked = await askProposer(
      {
        llm: this.o.llm,
        runSeed: s.seed,
        n: p.n,
        model: p.model,
        kind: p.kind,
        messages: p.messages,
        parentText: this.texts.get(p.parent.id)!,
        programPath: s.programPath,
        prices: this.armPrices,
        onFailed: (attempt, reason, message) => p.events.push({ type: 'proposal/failed', parentId: p.parent.id, island: p.island, kind: p.kind, attempt, reason, message, ...(p.model ? { model: p.model } : {}) }),
        onCost: (dollars) => p.costs.push(dollars),
      },
      signal,
    );
    if (asked.kind === 'unsent') return { kind: 'unsent', message: asked.message };
    if (asked.kind === 'spent') this.stopped ??= asked.message;
    if (asked.kind !== 'child') return { kind: 'none' };
    const { text: childText, name: answerName, description, thinking } = asked;
    const child = await newChild({ texts: this.texts, novelty: this.novelty, signal: this.stop.signal }, p, childText);
    if (!child) return { kind: 'none' };
    settleChild(child);
    const program = { island: p.island, generation: p.generation, kind: p.kind, ...(p.model ? { model: p.model } : {}), ...(description ? { description } : {}) };
    p.events.push({
      type: 'candidate/proposed',
      candidateId: child.id,
      parentId: p.parent.id,
      contentHash: child.hash,
      text: child.text,
      ...(answerName ? { reasoning: answerName } : {}),
      ...(thinking.length > 0 ? { thinking: thinking.join('\n\n') } : {}),
      program,
    });
    let result: CodeGateResult;
    try {
      // A repair has nothing correct to be tested against: the evaluator's verdict is the test.
      p.evaluating = true;
      if (p.repair) return { kind: 'repair', child, evaluation: await this.instances.evaluateWhole(child.text) };
      result = await testChild(childGateContext(this.childGate, p, child), { id: child.id, hash: child.hash }, { id: p.incumbent.id, hash: textHash(this.texts.get(p.incumbent.id)!) }, p.ledger);
    } catch (err) {
      // A spent evaluation budget (cluster hours) ends the test where it is: no decision on part of the evidence.
      if (!(RatchetError.is(err) && err.code === 'budgetExhausted') || signal.aborted) throw err;
      return { kind: 'stopped', child, budget: budgetOf(err), message: err.message };
    }
    if (result.comparison) {
      // Journaled as prompt runs journal theirs: one event per presentation order, slot A first.
      const { childFirst, parentFirst } = result.comparison;
      p.events.push(verdictEvent(child.id, p.incumbent.id, undefined, 'child-first', childFirst), verdictEvent(child.id, p.incumbent.id, undefined, 'parent-first', parentFirst));
    }
    return { kind: 'tested', child, name: answerName || child.id, result };
  }

  /** Applies a finished proposal, in launch order: its events into the journal, its child into the database. */
  private async apply(p: Proposal, r: ProposalResult): Promise<void> {
    for (const e of p.events) await this.o.emit(e);
    for (const dollars of p.costs) this.bandit.recordCost(p.model, dollars);
    this.stopped ??= this.failures.count(r, p.events);
    if (r.kind !== 'tested') {
      if (p.ledger.tested === this.testsReserved - 1) this.testsReserved--;
      if (r.kind === 'repair') {
        const repair = await applyRepair(this.fixMode, p, r.child, r.evaluation, this.ledger);
        this.stopped ??= repair.stopped;
        if (repair.repaired) this.repairs++;
        return this.banditReward(p.model, repair.reward);
      }
      if (r.kind === 'stopped') {
        this.stopped ??= r.message;
        await this.o.emit({ type: 'candidate/stopped', candidateId: r.child.id, reason: 'budget', budget: r.budget });
        return;
      }
      if (r.kind === 'unsent') {
        this.proposals--;
        this.stopped ??= r.message;
      } else this.banditReward(p.model, 0);
      return;
    }
    const { child, result } = r;
    const e = this.o.spec.evaluator;
    this.ledger = advanceLedger(this.ledger, result.record.decision);
    const scores = [...result.childScores.values()];
    const mean = scores.length > 0 ? scores.reduce((a, b) => a + b, 0) / scores.length : undefined;
    const correct = result.incorrect === undefined;
    // The pre-flight rules out a test that consumes nothing, so a correct child has a mean.
    if (correct && mean === undefined) throw new RatchetError('internal', `Child ${child.id} was tested on no instance.`);
    this.db.add({
      id: child.id,
      parentId: p.parent.id,
      island: p.island,
      generation: p.generation,
      textHash: child.hash,
      correct,
      ...(correct && mean !== undefined ? { score: mean } : {}),
      ...(result.incorrect === undefined ? {} : { feedback: result.incorrect }),
      kind: p.kind,
    });
    await this.o.emit({ type: 'decision', record: result.record });
    const judgeWarning = abstentionWarning(result.record);
    if (judgeWarning) await this.events.log('warn', judgeWarning);
    const matchScore = result.comparison && childMatchScore(result.comparison.outcome);
    if (matchScore !== undefined) this.matchRatings.record(child.id, p.incumbent.id, matchScore);
    if (correct) {
      // A child tested against an incumbent that another child replaced meanwhile beat the old one, not the new.
      const superseded = result.record.decision === 'commit' && this.db.incumbent(p.island)?.id !== p.incumbent.id;
      this.db.recordDecision(child.id, result.record.decision, { replacesIncumbent: !superseded });
      if (superseded) {
        const now = this.db.incumbent(p.island)!.id;
        await this.events.log('info', `${child.id} beat ${p.incumbent.id}, but ${now} replaced ${p.incumbent.id} while ${child.id} was tested: ${child.id} joins the archive and ${now} stays the incumbent.`);
      }
    }
    const output = correct ? undefined : this.evaluations.outputOf(child.hash);
    await this.events.evaluated(child.id, p.island, correct ? { correct, ...(mean === undefined ? {} : { score: mean }) } : { correct, error: result.incorrect!, ...(output ? { output } : {}) }, result.childScores.size);
    if (correct && mean !== undefined && result.record.decision === 'commit') await this.o.committed?.committed({ id: child.id, text: child.text, score: mean });
    const parentMean = p.incumbent.score;
    const gain = mean !== undefined && parentMean !== undefined ? (mean - parentMean) / (e.scoreRange.hi - e.scoreRange.lo) : undefined;
    this.banditReward(p.model, gateReward({ decision: result.record.decision, ...(gain === undefined ? {} : { gain }), gainScale: 0.1 }));
    this.stopped ??= await this.notes.tested({ id: child.id, name: r.name, decision: result.record.decision, ...(mean === undefined ? {} : { score: mean }), ...(result.incorrect === undefined ? {} : { error: result.incorrect }) });
    if (this.o.spec.search.migrationRate > 0) {
      const moves = this.db.migrate(p.generation, this.o.random);
      if (moves.length > 0) await this.o.emit({ type: 'program/migrated', generation: p.generation, moves: moves.map((m) => ({ programId: m.id, from: m.from, to: m.to })) });
    }
  }

  private banditReward(model: string, r: number): void {
    this.bandit.reward(model, Math.min(1, Math.max(0, r)));
  }
}
