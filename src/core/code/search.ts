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
 */
import { RatchetError } from '../errors';
import type { LlmClient, Random } from '../ports';
import type { ChatMessage } from '../llm/types';
import type { EngineEvent, EventOf } from '../journal/events';
import { PROPOSAL_FAILED } from '../journal/runStatus';
import { abstentionWarning } from '../gates/abstentions';
import { childMatchScore } from '../gates/pairwise';
import { verdictEvent } from '../evolve/judge';
import { advanceLedger } from '../gates/thresholds';
import type { RunLedger } from '../gates/thresholds';
import { askProposer } from './askProposer';
import { UcbBandit, gateReward } from './bandit';
import { describeSpans, parseBlocks } from './blocks';
import type { Blocks } from './blocks';
import { ProgramDatabase } from './database';
import type { ParentRule, ProgramKind, ProgramRecord } from './database';
import { scoreCache, testChild } from './gate';
import { checkFirstScores, gatePreflight } from './preflight';
import { metaMessages, parseRecommendations } from './metaNotes';
import type { ProgramSummary } from './metaNotes';
import type { CodeGateContext, CodeGateResult, PairwiseValidator } from './gate';
import { MatchRatings } from './matchRatings';
import { pairwiseValidator } from './pairwiseValidator';
import { Evaluations } from './evaluations';
import type { ProgramBatchEvaluator, ProgramEvaluation, ProgramEvaluator } from './evaluations';
import { ngramSimilarity, textHash } from './novelty';
import { NoveltyJudge } from './noveltyJudge';
import { proposalMessages } from './proposalPrompt';
import { proposerArms } from './spec';
import type { CodeRunSpec } from './spec';
import { budgetOf } from '../run/budget';
import type { PriceTable } from '../llm/types';
import { hashSeed } from '../random';
import type { MetricValue } from '../journal/payloadTypes';
import type { EventPayload } from '../journal/control';

// The evaluator a search is given: its callers name it with the search.
export type { ProgramBatchEvaluator, ProgramEvaluation, ProgramEvaluator } from './evaluations';

export interface SearchOptions {
  spec: CodeRunSpec;
  /** The file's text when the run starts: the seed program. */
  seedText: string;
  llm: LlmClient;
  evaluate: ProgramEvaluator;
  /** Evaluates a sharded test's shards together (a cluster backend); absent: shard by shard through `evaluate`, as the gate asks. */
  evaluateShards?: ProgramBatchEvaluator;
  /** Which budget of the evaluations' own (budget.clusterHours) is spent, in words; undefined while none is. */
  evaluationBudget?: () => string | undefined;
  random: Random;
  emit: (e: EventPayload<EngineEvent>) => Promise<void>;
  signal: AbortSignal;
  /** Told of the programs the run commits, to offer its best to the user (bestOffer.ts); absent: nobody is told. */
  committed?: CommittedPrograms;
}

/** A program the run committed: its starting program (when correct), or a child the gate committed. */
export interface CommittedProgram {
  id: string;
  text: string;
  score: number;
}

export interface CommittedPrograms {
  /** Each committed program once its events are journaled, in the run's order; the search waits only for this call. */
  committed(program: CommittedProgram): Promise<void>;
  /** Before the run finishes: resolves once nothing the run offered still waits (throws when the run is cancelled meanwhile). */
  settled(): Promise<void>;
}

export interface SearchOutcome {
  best: { id: string; text: string; score: number | undefined };
  seedScore: number | undefined;
  proposals: number;
  /** Evaluator runs, seed included. */
  evaluations: number;
  commits: number;
  /** Fix mode: islands whose broken seed a child repaired (each a change to keep, though no test decided it). */
  repairs: number;
  /** Why the search stopped before its proposals were spent, in one sentence (with its full stop); undefined when it used them all. */
  stopped?: string;
}

const SINGLE = 'score';

/** Proposals in flight for `slots` evaluator slots: enough that each slot has work while the next children are written; one slot, one proposal. */
export function proposalsInFlight(slots: number): number {
  return 2 * Math.max(1, slots) - 1;
}

export async function runSearch(o: SearchOptions): Promise<SearchOutcome> {
  return new Search(o).run();
}

type Payload = EventPayload<EngineEvent>;
interface Child {
  id: string;
  text: string;
  hash: string;
  island: number;
}

/** One proposal, from its launch until it is applied. */
interface Proposal {
  /** 1-based, in launch order: seeds its LLM samples and names its child. */
  readonly n: number;
  readonly island: number;
  readonly generation: number;
  readonly parent: Readonly<ProgramRecord>;
  /** Its island's incumbent at launch: the program the child is tested against. */
  readonly incumbent: Readonly<ProgramRecord>;
  readonly kind: 'diff' | 'full' | 'cross';
  /** Its island had no correct program at launch (fix mode): its child is evaluated whole, not tested. */
  readonly repair: boolean;
  readonly model: string;
  readonly messages: ChatMessage[];
  /** The run's ledger as this test may count on it: its own test index, the commits applied before its launch. */
  readonly ledger: RunLedger;
  /** The database's programs at launch and the proposals still in flight then: what its child must differ from. */
  readonly known: readonly Readonly<ProgramRecord>[];
  readonly earlier: readonly Proposal[];
  /** Its child once proposed and found new (undefined: none came of it); later proposals wait on it. */
  readonly child: Promise<Child | undefined>;
  /** Its events, journaled when it is applied. */
  readonly events: Payload[];
  /** What each of its proposer calls cost, told to the bandit when it is applied. */
  readonly costs: number[];
  done: Promise<ProposalResult>;
  /** Its child's evaluations have begun (and are counted by the evaluation budget from here on). */
  evaluating: boolean;
}

type ProposalResult =
  /** The LLM budget refused its first call: it was never sent. */
  | { kind: 'unsent'; message: string }
  /** No child came of it (no usable answer, a duplicate, a near-copy). */
  | { kind: 'none' }
  | { kind: 'tested'; child: Child; name: string; result: CodeGateResult }
  | { kind: 'repair'; child: Child; evaluation: ProgramEvaluation }
  /** An evaluation budget ran out while its child was evaluated: neither committed nor rejected. */
  | { kind: 'stopped'; child: Child; budget: string; message: string };

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
  /** Ends every proposal still in flight when the run fails or is cancelled. */
  private readonly stop = new AbortController();
  private ledger: RunLedger = { tested: 0, commits: 0 };
  /** Test indices handed out at launch; one a proposal did not use is taken back when no later one holds a higher index. */
  private testsReserved = 0;
  private instances: string[] = [];
  private deterministic: boolean;
  /** Fix mode: islands given their first correct program. */
  private repairs = 0;
  /** Proposals sent (a proposal the budget refused is not counted) and launched. */
  private proposals = 0;
  private launched = 0;
  /** Why no further proposal is launched before the budgets say so. */
  private stopped: string | undefined;
  /** Proposals in a row, in launch order, that came to nothing, and what went wrong with the first of them. */
  private failedInARow = 0;
  private firstFailure: string | undefined;
  /** Tested children since the last meta notes, and the notes' recommendations, handed out in turn. */
  private sinceNotes: ProgramSummary[] = [];
  private recommendations: string[] = [];
  private nextRecommendation = 0;

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
    this.deterministic = s.evaluator.deterministic;
    this.matchRatings = new MatchRatings(s.search.parentSelection === 'bt');
    this.evaluations = new Evaluations({
      evaluate: o.evaluate,
      slots: s.concurrency,
      limit: s.budget.evaluations,
      whole: !s.evaluator.shards && s.evaluator.repeats === undefined,
      texts: this.texts,
      cache: this.cache,
    });
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
    if (this.blocks.notice) await this.log('info', this.blocks.notice);
    const seed = await this.evaluateSeed();
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
    if (this.stopped) await this.log('warn', `${this.stopped} The search stops after ${this.proposals} proposals.`);
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
   * The seed, evaluated whole. A correct seed says which instances there are (or that there is
   * one score); an incorrect one starts the search in fix mode (ShinkaEvolve's), where proposals
   * repair it and the first correct child sets the instances instead.
   */
  private async evaluateSeed(): Promise<ProgramEvaluation> {
    await this.o.emit({ type: 'candidate/proposed', candidateId: 'p0', parentId: undefined, contentHash: textHash(this.o.seedText), text: this.o.seedText });
    const first = await this.evaluateWhole(this.o.seedText);
    if (!first.correct) {
      await this.programEvaluated('p0', 0, first, 0);
      await this.log(
        'warn',
        `The starting program is incorrect by its evaluator (${first.error ?? 'no reason given'}): the search starts in fix mode — proposals repair it, shown what it printed, and the first correct program of each island becomes its incumbent.`,
      );
      return first;
    }
    await this.establish('p0', this.o.seedText, first);
    return first;
  }

  /** One whole evaluation of a program: every instance, or the repeated seeds of a single noisy score. */
  private evaluateWhole(text: string): Promise<ProgramEvaluation> {
    const repeats = this.o.spec.evaluator.repeats;
    return this.evaluations.evaluate(text, repeats === undefined ? undefined : Array.from({ length: repeats }, (_, i) => `seed-${i + 1}`), this.stop.signal);
  }

  /**
   * The run's first correct program (the seed, or a repair of a broken seed) fixes the instances,
   * shows whether one score is repeatable, runs the gate's pre-flight, and has its scores cached.
   */
  private async establish(id: string, text: string, first: ProgramEvaluation): Promise<void> {
    const who = id === 'p0' ? 'the starting program' : `${id}, the first correct program,`;
    const measured = first.instances ? Object.keys(first.instances) : [];
    const repeats = this.o.spec.evaluator.repeats;
    if (repeats !== undefined) this.instances = Array.from({ length: repeats }, (_, i) => `seed-${i + 1}`);
    else if (measured.length > 0) this.instances = measured;
    else {
      this.evaluations.useSingleScore();
      this.instances = [SINGLE];
      if (!this.deterministic) {
        // One score and no instances: only a repeatable evaluator can be trusted on one run.
        const again = await this.evaluations.evaluate(text, undefined, this.stop.signal, 1).catch((err: unknown) => {
          if (!RatchetError.is(err, 'budgetExhausted')) throw err;
          this.stopped ??= err.message;
          return undefined;
        });
        // No budget left to tell whether one score is repeatable: the run ends with this program.
        if (again === undefined) {
          if (id === 'p0') await this.programEvaluated('p0', 0, first, this.instances.length);
          return;
        }
        if (again.correct && again.score === first.score) {
          this.deterministic = true;
          await this.log('info', `The evaluator gave ${who} the same score twice: it is treated as deterministic, and a strict improvement commits (no statistics needed).`);
        } else {
          throw new RatchetError(
            'badInput',
            `The evaluator reports one score and it is not repeatable (${first.score} then ${again.score}): one evaluation cannot tell a better program from a lucky one. Set evaluator.repeats: N to score each program on N seeds, or report per-instance scores.`,
            { field: 'evaluator.repeats' },
          );
        }
      }
    }
    const scores = this.scoresOf(first);
    const setting = { instances: this.instances, range: this.o.spec.evaluator.scoreRange, gate: this.o.spec.gate, deterministicSingle: this.deterministic && this.evaluations.singleScore };
    checkFirstScores({ ...setting, who, scores });
    await this.cacheWhole(id, text, scores);
    if (id === 'p0') await this.programEvaluated('p0', 0, first, this.instances.length);
    const said = gatePreflight(setting, this.ledger);
    if (said) await this.log('info', said);
  }

  /** A whole evaluation's score per instance of the run. */
  private scoresOf(e: ProgramEvaluation): Readonly<Record<string, number>> {
    return this.evaluations.singleScore ? { [SINGLE]: e.score ?? NaN } : (e.instances ?? {});
  }

  private async cacheWhole(id: string, text: string, scores: Readonly<Record<string, number>>): Promise<void> {
    for (const instance of this.instances) {
      this.cache.set(textHash(text), instance, scores[instance]!);
      await this.o.emit({ type: 'item/evaluated', candidateId: id, itemId: instance, score: scores[instance]!, cached: false });
    }
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
    const parent = (fix ? this.db.fixCandidate(island, random) : this.db.selectParent(island, random, this.parentRule())) ?? this.db.incumbent(island)!;
    const kind = this.kindFor(random);
    const inspirations = this.db.inspirations(island, random, { exclude: parent.id });
    const model = this.bandit.choose(random);
    const output = fix ? this.evaluations.outputOf(parent.textHash) : undefined;
    const messages = proposalMessages({
      kind,
      path: s.programPath,
      parentText: this.texts.get(parent.id)!,
      parent,
      ...(output !== undefined ? { output } : {}),
      spans: describeSpans(this.blocks.spans),
      inspirations: inspirations.map((p) => ({ record: p, text: this.texts.get(p.id)! })),
      fix,
      ...(this.recommendations.length > 0 ? { hint: this.recommendations[this.nextRecommendation++ % this.recommendations.length]! } : {}),
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
    const child = await this.newChild(p, childText);
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
      if (p.repair) return { kind: 'repair', child, evaluation: await this.evaluateWhole(child.text) };
      result = await testChild(this.gateContext(p, child), { id: child.id, hash: child.hash }, { id: p.incumbent.id, hash: textHash(this.texts.get(p.incumbent.id)!) }, p.ledger);
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

  /**
   * The child, unless it repeats a program: one the database held at launch, or the child of a
   * proposal launched earlier (waited for, so the answer does not depend on which finished first).
   */
  private async newChild(p: Proposal, text: string): Promise<Child | undefined> {
    const hash = textHash(text);
    const earlier = (await Promise.all(p.earlier.map((q) => q.child))).filter((c): c is Child => c !== undefined);
    const duplicate = p.known.find((r) => r.textHash === hash)?.id ?? earlier.find((c) => c.hash === hash)?.id;
    const sameIsland = [...p.known.filter((r) => r.island === p.island).map((r) => ({ id: r.id, text: this.texts.get(r.id)! })), ...earlier.filter((c) => c.island === p.island)];
    const novelty = duplicate ? { novel: false as const, closestId: duplicate, decidedBy: 'duplicate' as const, note: undefined } : await this.novelty.check(text, sameIsland, this.stop.signal);
    if (novelty.note) p.events.push({ type: 'log', level: 'info', message: `p${p.n}: ${novelty.note}` });
    if (!novelty.novel) {
      const reason = novelty.decidedBy === 'duplicate' ? 'duplicate' : 'not-novel';
      p.events.push({ type: 'proposal/failed', parentId: p.parent.id, island: p.island, kind: p.kind, attempt: 1, reason, message: `the child repeats ${novelty.closestId ?? 'a program'} of this run` });
      return undefined;
    }
    const id = `p${p.n}`;
    this.texts.set(id, text);
    return { id, text, hash, island: p.island };
  }

  private gateContext(p: Proposal, child: Child): CodeGateContext {
    const e = this.o.spec.evaluator;
    return {
      // Per-instance scores always go through the paired gate; only one repeatable score needs none.
      gate: { ...this.o.spec.gate, name: this.deterministic && this.evaluations.singleScore ? 'greedy' : this.o.spec.gate.name },
      runSeed: this.o.spec.seed,
      instances: this.instances,
      range: e.scoreRange,
      shardSize: e.shards ? e.shardSize : this.instances.length,
      parallelShards: Math.max(1, Math.floor(this.o.spec.concurrency / 2)),
      evaluate: this.evaluations.shardEvaluator(),
      // A batch backend takes a sharded test's shards in one submission; a whole evaluation is one call either way.
      ...(this.o.evaluateShards && e.shards && !this.evaluations.singleScore ? { evaluateBatch: this.evaluations.shardBatchEvaluator(this.o.evaluateShards) } : {}),
      cache: this.cache,
      onStep: async (instanceId, step) => {
        p.events.push(
          { type: 'item/evaluated', candidateId: child.id, itemId: instanceId, score: this.cache.get(child.hash, instanceId) ?? NaN, cached: false },
          { type: 'wealth/step', candidateId: child.id, k: step.k, itemId: instanceId, delta: step.delta, logWealth: step.logWealth, logThreshold: step.logThreshold, logBest: step.logBest },
        );
      },
      ...(this.o.spec.gate.name === 'pairwise' ? { pairwise: this.pairwiseValidator(p, child) } : {}),
      signal: this.stop.signal,
    };
  }

  private pairwiseValidator(p: Proposal, child: Child): PairwiseValidator {
    const s = this.o.spec;
    const setting = { llm: this.o.llm, runSeed: s.seed, programPath: s.programPath, instances: this.instances.length, range: s.evaluator.scoreRange, reportOf: (hash: string) => this.evaluations.reportOf(hash) };
    return pairwiseValidator(setting, child, { textHash: p.incumbent.textHash, text: this.texts.get(p.incumbent.id)! });
  }

  /** The evaluator's public metrics and text feedback for a program, over every shard it ran. */
  private reported(text: string | undefined): { metrics?: Record<string, MetricValue>; feedback?: string } | undefined {
    if (text === undefined) return undefined;
    const { metrics, feedback } = this.evaluations.reportOf(textHash(text));
    return { ...(Object.keys(metrics).length > 0 ? { metrics } : {}), ...(feedback ? { feedback } : {}) };
  }

  /** Applies a finished proposal, in launch order: its events into the journal, its child into the database. */
  private async apply(p: Proposal, r: ProposalResult): Promise<void> {
    for (const e of p.events) await this.o.emit(e);
    for (const dollars of p.costs) this.bandit.recordCost(p.model, dollars);
    this.countFailure(p, r);
    if (r.kind !== 'tested') {
      if (p.ledger.tested === this.testsReserved - 1) this.testsReserved--;
      if (r.kind === 'repair') return this.applyRepair(p, r.child, r.evaluation);
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
    if (judgeWarning) await this.log('warn', judgeWarning);
    const matchScore = result.comparison && childMatchScore(result.comparison.outcome);
    if (matchScore !== undefined) this.matchRatings.record(child.id, p.incumbent.id, matchScore);
    if (correct) {
      // A child tested against an incumbent that another child replaced meanwhile beat the old one, not the new.
      const superseded = result.record.decision === 'commit' && this.db.incumbent(p.island)?.id !== p.incumbent.id;
      this.db.recordDecision(child.id, result.record.decision, { replacesIncumbent: !superseded });
      if (superseded) {
        const now = this.db.incumbent(p.island)!.id;
        await this.log('info', `${child.id} beat ${p.incumbent.id}, but ${now} replaced ${p.incumbent.id} while ${child.id} was tested: ${child.id} joins the archive and ${now} stays the incumbent.`);
      }
    }
    const output = correct ? undefined : this.evaluations.outputOf(child.hash);
    await this.programEvaluated(child.id, p.island, correct ? { correct, ...(mean === undefined ? {} : { score: mean }) } : { correct, error: result.incorrect!, ...(output ? { output } : {}) }, result.childScores.size);
    if (correct && mean !== undefined && result.record.decision === 'commit') await this.o.committed?.committed({ id: child.id, text: child.text, score: mean });
    const parentMean = p.incumbent.score;
    const gain = mean !== undefined && parentMean !== undefined ? (mean - parentMean) / (e.scoreRange.hi - e.scoreRange.lo) : undefined;
    this.banditReward(p.model, gateReward({ decision: result.record.decision, ...(gain === undefined ? {} : { gain }), gainScale: 0.1 }));
    this.sinceNotes.push({ id: child.id, name: r.name, decision: result.record.decision, ...(mean === undefined ? {} : { score: mean }), ...(result.incorrect === undefined ? {} : { error: result.incorrect }) });
    const every = this.o.spec.search.metaEvery;
    if (every > 0 && this.sinceNotes.length >= every) await this.writeNotes(child.id);
    if (this.o.spec.search.migrationRate > 0) {
      const moves = this.db.migrate(p.generation, this.o.random);
      if (moves.length > 0) await this.o.emit({ type: 'program/migrated', generation: p.generation, moves: moves.map((m) => ({ programId: m.id, from: m.from, to: m.to })) });
    }
  }

  /**
   * A proposal that came to nothing (no answer that could be read and applied, or a repeat) adds
   * to the run of failures; one that gave a program to test ends it. A run of
   * search.stopAfterFailedProposals stops the search: a proposer that cannot answer in the format
   * would otherwise spend the whole budget on answers nobody can test.
   */
  private countFailure(p: Proposal, r: ProposalResult): void {
    if (r.kind === 'unsent' || r.kind === 'stopped') return;
    if (r.kind !== 'none') {
      this.failedInARow = 0;
      this.firstFailure = undefined;
      return;
    }
    const failed = p.events.find((e): e is EventOf<'proposal/failed'> => e.type === 'proposal/failed');
    if (!failed) return;
    this.failedInARow++;
    this.firstFailure ??= `the first ${PROPOSAL_FAILED[failed.reason]}: ${firstSentence(failed.message)}`;
    const limit = this.o.spec.search.stopAfterFailedProposals;
    if (limit > 0 && this.failedInARow >= limit) this.stopped ??= `${limit} proposals in a row came to nothing (search.stopAfterFailedProposals); ${this.firstFailure}.`;
  }

  /**
   * Fix mode's outcome: a correct repair becomes its island's incumbent — the first correct program
   * there, so no test is needed (or possible) — and, if it is the run's first, sets the instances.
   */
  private async applyRepair(p: Proposal, child: Child, evaluation: ProgramEvaluation): Promise<void> {
    const base = { id: child.id, parentId: p.parent.id, island: p.island, generation: p.generation, textHash: child.hash, kind: p.kind };
    const scores = evaluation.correct ? this.scoresOf(evaluation) : {};
    const missing = this.instances.find((i) => !Number.isFinite(scores[i]));
    if (!evaluation.correct || (this.instances.length > 0 && missing !== undefined)) {
      const error = evaluation.error ?? `the evaluator reported no score for instance ${missing}`;
      this.db.add({ ...base, correct: false, feedback: error });
      await this.programEvaluated(child.id, p.island, { correct: false, error, ...(evaluation.output ? { output: evaluation.output } : {}) }, 0);
      return this.banditReward(p.model, 0);
    }
    // The first correct program fixes the instances (one score, or per instance): its scores are read by them.
    if (this.instances.length === 0) await this.establish(child.id, child.text, evaluation);
    else await this.cacheWhole(child.id, child.text, scores);
    const established = this.scoresOf(evaluation);
    const mean = this.instances.reduce((a, i) => a + established[i]!, 0) / this.instances.length;
    this.db.add({ ...base, correct: true, score: mean });
    const first = this.db.islandNeedsFix(p.island);
    this.db.recordDecision(child.id, first ? 'commit' : 'reject');
    if (first) this.repairs++;
    await this.log(
      'info',
      first
        ? `${child.id} repairs island ${p.island}: the evaluator passes it, the first correct program there, so it becomes the incumbent (score ${mean.toPrecision(6)}).`
        : `${child.id} is correct too, but another repair became island ${p.island}'s incumbent first.`,
    );
    await this.programEvaluated(child.id, p.island, { correct: true, score: mean }, this.instances.length);
    this.banditReward(p.model, first ? 1 : 0);
  }

  private async writeNotes(afterProgram: string): Promise<void> {
    let reply;
    try {
      reply = await this.o.llm.chat({ role: 'meta', messages: metaMessages(this.sinceNotes, this.recommendations), seed: hashSeed(this.o.spec.seed, 'meta', afterProgram) }, this.stop.signal);
    } catch (err) {
      if (!(RatchetError.is(err) && err.code === 'budgetExhausted')) throw err;
      this.stopped ??= err.message;
      return;
    }
    this.sinceNotes = [];
    const recommendations = parseRecommendations(reply.text);
    if (recommendations.length === 0) return;
    this.recommendations = recommendations;
    this.nextRecommendation = 0;
    await this.o.emit({ type: 'meta/notes', afterProgram, recommendations });
  }

  private parentRule(): ParentRule {
    const rule = this.o.spec.search.parentSelection;
    if (rule !== 'bt') return { rule };
    // Bradley–Terry parents need pairwise verdicts, which only gate pairwise produces; the scored gates fall back to weighted.
    if (this.o.spec.gate.name !== 'pairwise') return { rule: 'weighted' };
    return { rule: 'bt', rating: this.matchRatings.now() };
  }

  private kindFor(random: Random): ProgramKind & ('diff' | 'full' | 'cross') {
    const { diff, full, cross } = this.o.spec.search.mix;
    const u = random.next() * (diff + full + cross);
    return u < diff ? 'diff' : u < diff + full ? 'full' : 'cross';
  }

  private banditReward(model: string, r: number): void {
    this.bandit.reward(model, Math.min(1, Math.max(0, r)));
  }

  private async programEvaluated(id: string, island: number, e: ProgramEvaluation, instances: number): Promise<void> {
    // The seed's text is filed under its island records only after its evaluation.
    const reported = e.correct ? this.reported(this.texts.get(id) ?? (id === 'p0' ? this.o.seedText : undefined)) : undefined;
    const feedback = e.feedback ?? reported?.feedback;
    await this.o.emit({
      type: 'program/evaluated',
      candidateId: id,
      island,
      correct: e.correct,
      ...(e.score === undefined ? {} : { score: e.score }),
      instances,
      ...(feedback ? { feedback } : {}),
      ...(reported?.metrics ? { metrics: reported.metrics } : {}),
      ...(e.error === undefined ? {} : { error: e.error }),
      ...(e.output === undefined ? {} : { output: e.output }),
    });
  }

  private async log(level: 'info' | 'warn', message: string): Promise<void> {
    await this.o.emit({ type: 'log', level, message });
  }
}

/** A failure's message as the clause of one sentence: on one line, its first sentence, without its full stop, at most 200 characters. */
function firstSentence(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  const first = /^.*?[.!?](?=\s|$)/.exec(flat)?.[0] ?? flat;
  const clause = first.replace(/[.!?]$/, '');
  return clause.length <= 200 ? clause : `${clause.slice(0, 199)}…`;
}
