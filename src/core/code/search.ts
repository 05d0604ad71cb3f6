/**
 * Gated code search on one file, ShinkaEvolve style: islands of programs, a proposer answering in
 * Shinka's formats (diff / full / cross), novelty and duplicate checks, a model bandit — and every
 * acceptance a paired, anytime-valid test (gate.ts) instead of one evaluation and a strict `>`.
 *
 * One iteration: pick an island (round robin) and its parent (the database's rule; fix mode when
 * the island has no correct program), a proposal kind (the spec's mix), a proposer model (UCB);
 * ask; apply the answer to the parent — a failed read or patch is answered in the same chat with
 * the precise error, up to MAX_PATCH_RETRIES times; refuse duplicates and near-copies; then test
 * the child against its island's incumbent through the gate, which evaluates it shard by shard.
 * Everything that happens is an engine event; the journal and the faces take it from there.
 */
import { RatchetError } from '../errors';
import type { LlmClient, Random } from '../ports';
import type { ChatMessage } from '../llm/types';
import type { EngineEvent } from '../run/events';
import type { EventPayload } from '../evolve/versions';
import { CONTINUOUS_CAP } from '../gates/eprocess';
import { paceConfig, startPaceTest } from '../gates/pace';
import { advanceLedger } from '../gates/thresholds';
import type { RunLedger } from '../gates/thresholds';
import { parseAnswer } from './answers';
import { UcbBandit, gateReward } from './bandit';
import { describeSpans, parseBlocks } from './blocks';
import type { Blocks } from './blocks';
import { ProgramDatabase } from './database';
import type { MetricValue, ParentRule, ProgramKind, ProgramRecord } from './database';
import { scoreCache, testChild } from './gate';
import { metaMessages, parseRecommendations } from './metaNotes';
import type { ProgramSummary } from './metaNotes';
import type { CodeGateContext, ShardEvaluator } from './gate';
import { ngramSimilarity, noveltyCheck, textHash } from './novelty';
import { applyAnswer } from './patch';
import type { CodeRunSpec } from './spec';
import { hashSeed } from '../random';

/** What one evaluator run says of a program (sandbox + result parsing live in src/node). */
export interface ProgramEvaluation {
  correct: boolean;
  /** combined_score. */
  score?: number;
  instances?: Readonly<Record<string, number>>;
  publicMetrics?: Record<string, MetricValue>;
  feedback?: string;
  /** Why the program is incorrect, in words the proposer can act on. */
  error?: string;
}

/**
 * Runs the evaluator on a program's text; `instanceIds` undefined: every instance (a whole run).
 * `repeat` (0 first) tells deliberate re-evaluations of the same program apart, so a cache of
 * evaluations does not answer "is it repeatable?" with its own copy.
 */
export type ProgramEvaluator = (text: string, instanceIds: readonly string[] | undefined, signal: AbortSignal, repeat?: number) => Promise<ProgramEvaluation>;

export interface SearchOptions {
  spec: CodeRunSpec;
  /** The file's text when the run starts: the seed program. */
  seedText: string;
  llm: LlmClient;
  evaluate: ProgramEvaluator;
  random: Random;
  emit: (e: EventPayload<EngineEvent>) => Promise<void>;
  signal: AbortSignal;
}

export interface SearchOutcome {
  best: { id: string; text: string; score: number | undefined };
  seedScore: number | undefined;
  proposals: number;
  /** Evaluator runs, seed included. */
  evaluations: number;
  commits: number;
}

/** A failed read or patch is answered in the same chat this many times before the parent is resampled. */
export const MAX_PATCH_RETRIES = 2;
const SINGLE = 'score';

export async function runSearch(o: SearchOptions): Promise<SearchOutcome> {
  return new Search(o).run();
}

class Search {
  private readonly db: ProgramDatabase;
  private readonly bandit: UcbBandit;
  private readonly texts = new Map<string, string>();
  private readonly blocks: Blocks;
  private readonly cache = scoreCache();
  private ledger: RunLedger = { tested: 0, commits: 0 };
  private instances: string[] = [];
  /** Every instance score lies in the spec's range; a single score is scaled by it too. */
  private single = false;
  private deterministic: boolean;
  private evaluations = 0;
  private proposals = 0;
  private nextId = 0;
  /** Tested children since the last meta notes, and the notes' recommendations, handed out in turn. */
  private sinceNotes: ProgramSummary[] = [];
  private recommendations: string[] = [];
  private nextRecommendation = 0;

  constructor(private readonly o: SearchOptions) {
    const s = o.spec;
    this.blocks = parseBlocks(o.seedText, s.programPath);
    this.db = new ProgramDatabase(
      { islands: s.islands, archiveSize: s.search.archiveSize, archivePolicy: 'fitness', migrationInterval: s.search.migrationInterval, migrationRate: s.search.migrationRate },
      { similarity: (a, b) => ngramSimilarity(this.texts.get(a) ?? '', this.texts.get(b) ?? '') },
    );
    const models = [...new Set([s.models.proposer.model ?? ''])];
    this.bandit = UcbBandit.create(models);
    this.deterministic = s.evaluator.deterministic;
  }

  async run(): Promise<SearchOutcome> {
    const s = this.o.spec;
    if (this.blocks.notice) await this.log('info', this.blocks.notice);
    const seed = await this.evaluateSeed();
    let seedRecord: ProgramRecord | undefined;
    for (let island = 0; island < s.islands; island++) {
      // Each island starts from the seed: the same program, scored once.
      seedRecord = this.db.add({ id: island === 0 ? 'p0' : `p0.${island}`, island, generation: 0, textHash: textHash(this.o.seedText), correct: seed.correct, ...(seed.score === undefined ? {} : { score: seed.score }), kind: 'seed' }) as ProgramRecord;
      this.texts.set(seedRecord.id, this.o.seedText);
    }
    while (this.proposals < s.budget.proposals && (s.budget.evaluations === undefined || this.evaluations < s.budget.evaluations)) {
      this.o.signal.throwIfAborted();
      try {
        await this.iterate(this.proposals % s.islands, Math.floor(this.proposals / s.islands) + 1);
      } catch (err) {
        // A spent LLM budget refuses the next proposal before it is sent: the search ends there,
        // with what it has. (Evaluations spend no LLM budget, so no child is cut off mid-test.)
        if (!(RatchetError.is(err) && err.code === 'budgetExhausted')) throw err;
        this.proposals--; // counted when it was begun, and never sent
        await this.log('warn', `${err.message} The search stops after ${this.proposals} proposals.`);
        break;
      }
    }
    const best = this.db.best() ?? seedRecord!;
    await this.o.emit({ type: 'run/finished', commits: this.ledger.commits, candidates: this.ledger.tested, incumbentId: best.id });
    return {
      best: { id: best.id, text: this.texts.get(best.id)!, score: best.score },
      seedScore: seed.score,
      proposals: this.proposals,
      evaluations: this.evaluations,
      commits: this.ledger.commits,
    };
  }

  /** The seed, evaluated whole: it says which instances there are (or that there is one score). */
  private async evaluateSeed(): Promise<ProgramEvaluation> {
    const e = this.o.spec.evaluator;
    await this.o.emit({ type: 'candidate/proposed', candidateId: 'p0', parentId: undefined, contentHash: textHash(this.o.seedText), text: this.o.seedText });
    const repeats = e.repeats === undefined ? undefined : Array.from({ length: e.repeats }, (_, i) => `seed-${i + 1}`);
    const first = await this.evaluateCounted(this.o.seedText, repeats);
    if (!first.correct) {
      await this.programEvaluated('p0', 0, first, 0);
      throw new RatchetError('badInput', `The starting program is incorrect by its evaluator, so there is nothing to improve on: ${first.error ?? 'no reason given'}`, { file: this.o.spec.programPath });
    }
    const measured = first.instances ? Object.keys(first.instances) : [];
    if (repeats) this.instances = repeats;
    else if (measured.length > 0) this.instances = measured;
    else {
      this.single = true;
      this.instances = [SINGLE];
      if (!this.deterministic) {
        // One score and no instances: only a repeatable evaluator can be trusted on one run.
        const again = await this.evaluateCounted(this.o.seedText, undefined, this.o.signal, 1);
        if (again.correct && again.score === first.score) {
          this.deterministic = true;
          await this.log('info', 'The evaluator gave the starting program the same score twice: it is treated as deterministic, and a strict improvement commits (no statistics needed).');
        } else {
          throw new RatchetError(
            'badInput',
            `The evaluator reports one score and it is not repeatable (${first.score} then ${again.score}): one evaluation cannot tell a better program from a lucky one. Set evaluator.repeats: N to score each program on N seeds, or report per-instance scores.`,
            { field: 'evaluator.repeats' },
          );
        }
      }
    }
    const scores = repeats ? (first.instances ?? {}) : this.single ? { [SINGLE]: first.score ?? NaN } : first.instances!;
    const { lo, hi } = this.o.spec.evaluator.scoreRange;
    const scaled = !(this.deterministic && this.single) && this.o.spec.gate.name !== 'greedy';
    for (const id of this.instances) {
      const y = scores[id];
      if (y === undefined || !Number.isFinite(y)) throw new RatchetError('badInput', `The evaluator gave the starting program no score for instance ${id}.`, { instanceId: id });
      if (scaled && (y < lo || y > hi)) {
        throw new RatchetError('badInput', `The starting program scored ${y} on instance ${id}, outside evaluator.scoreRange [${lo}, ${hi}]; declare the range the scores take.`, { field: 'evaluator.scoreRange', instanceId: id });
      }
      this.cache.set(textHash(this.o.seedText), id, y);
      await this.o.emit({ type: 'item/evaluated', candidateId: 'p0', itemId: id, score: y, cached: false });
    }
    await this.programEvaluated('p0', 0, first, this.instances.length);
    const g = this.o.spec.gate;
    if (this.deterministic && this.single && g.name !== 'greedy') {
      await this.log('info', `Deterministic single score: gate ${g.name} is not needed; a strict improvement commits.`);
    } else if (g.name !== 'greedy') {
      // The pre-flight of GATES.md 4.2: could a child that wins every instance by the whole range commit?
      const cfg = paceConfig(g.name, { alpha: g.alpha, scores: 'continuous', schedule: g.schedule, population: g.population, horizonT: g.horizon });
      const test = startPaceTest(cfg, this.ledger, this.instances.length);
      if (test.verdict?.reason !== 'infeasible') {
        // The bets are capped (Δ may be as bad as the whole range), so the evidence a child can gather
        // per instance is bounded by its margin over the range: say what margin commits at all.
        const n = this.instances.length;
        const { lo, hi } = this.o.spec.evaluator.scoreRange;
        const margin = ((hi - lo) * (test.threshold ** (1 / n) - 1)) / CONTINUOUS_CAP;
        await this.log(
          'info',
          `Gate ${g.name} on ${n} instances with scores in [${lo}, ${hi}]: a child commits only when it beats its parent by at least about ${margin.toPrecision(2)} per instance on nearly all of them. If real improvements are smaller, narrow evaluator.scoreRange to the range the scores actually take.`,
        );
      }
      if (test.verdict?.reason === 'infeasible') {
        throw new RatchetError(
          'badInput',
          `${this.instances.length} instance${this.instances.length === 1 ? '' : 's'} cannot give gate ${g.name} the evidence to commit at α = ${g.alpha}, even for a child better on every one by the whole score range: report more instances, or set evaluator.repeats.`,
          { field: 'evaluator' },
        );
      }
    }
    return first;
  }

  private async iterate(island: number, generation: number): Promise<void> {
    const s = this.o.spec;
    const random = this.o.random;
    const fix = this.db.islandNeedsFix(island);
    const parent = (fix ? this.db.fixCandidate(island, random) : this.db.selectParent(island, random, this.parentRule())) ?? this.db.incumbent(island)!;
    const kind = this.kindFor(random);
    const inspirations = this.db.inspirations(island, random, { exclude: parent.id });
    const model = this.bandit.choose(random);
    this.proposals++;
    const messages = proposalMessages({
      kind,
      path: s.programPath,
      parentText: this.texts.get(parent.id)!,
      parent,
      spans: describeSpans(this.blocks.spans),
      inspirations: inspirations.map((p) => ({ record: p, text: this.texts.get(p.id)! })),
      fix,
      ...(this.recommendations.length > 0 ? { hint: this.recommendations[this.nextRecommendation++ % this.recommendations.length]! } : {}),
    });
    let childText: string | undefined;
    let answerName = '';
    for (let attempt = 1; attempt <= 1 + MAX_PATCH_RETRIES; attempt++) {
      // Each proposal is its own sample (a resume replays it from the cache; a rerun does not collapse two proposals into one).
      const sample = { seed: hashSeed(s.seed, 'proposal', this.proposals, attempt), sampleIndex: this.proposals };
      const reply = await this.o.llm.chat({ role: 'proposer', messages, ...sample, ...(model ? { model } : {}) }, this.o.signal);
      const parsed = parseAnswer(reply.text);
      const applied = parsed.ok ? applyAnswer(this.texts.get(parent.id)!, parsed.answer, s.programPath) : undefined;
      if (parsed.ok && applied?.ok) {
        childText = applied.text;
        answerName = parsed.answer.name;
        break;
      }
      const message = parsed.ok ? applied!.ok ? '' : applied!.error.message : parsed.error.message;
      await this.o.emit({ type: 'proposal/failed', parentId: parent.id, island, kind, attempt, reason: parsed.ok ? 'patch' : 'format', message });
      messages.push({ role: 'assistant', content: reply.text }, { role: 'user', content: `${message}\n\nAnswer again in the same format.` });
    }
    if (childText === undefined) return this.banditReward(model, 0);
    const hash = textHash(childText);
    const sameIsland = this.db.programs(island).map((p) => ({ id: p.id, text: this.texts.get(p.id)! }));
    const duplicate = this.db.findByTextHash(hash);
    const novelty = duplicate ? { novel: false as const, closestId: duplicate.id, via: 'duplicate' as const } : await noveltyCheck({ candidate: childText, programs: sameIsland });
    if (!novelty.novel) {
      const reason = novelty.via === 'duplicate' ? 'duplicate' : 'not-novel';
      await this.o.emit({ type: 'proposal/failed', parentId: parent.id, island, kind, attempt: 1, reason, message: `the child repeats ${novelty.closestId ?? 'a program'} of this run` });
      return this.banditReward(model, 0);
    }
    const id = `p${++this.nextId}`;
    this.texts.set(id, childText);
    await this.o.emit({ type: 'candidate/proposed', candidateId: id, parentId: parent.id, contentHash: hash, text: childText, ...(answerName ? { reasoning: answerName } : {}) });
    await this.test(id, childText, parent, island, generation, kind, model, answerName || id);
    if (s.search.migrationRate > 0) this.db.migrate(generation, random);
  }

  private async test(id: string, text: string, parent: Readonly<ProgramRecord>, island: number, generation: number, kind: ProgramKind, model: string, name: string): Promise<void> {
    const incumbent = this.db.incumbent(island) ?? parent;
    const child = { id, hash: textHash(text) };
    const against = { id: incumbent.id, hash: textHash(this.texts.get(incumbent.id)!) };
    const e = this.o.spec.evaluator;
    const ctx: CodeGateContext = {
      // Per-instance scores always go through the paired gate; only one repeatable score needs none.
      gate: { ...this.o.spec.gate, name: this.deterministic && this.single ? 'greedy' : this.o.spec.gate.name },
      runSeed: this.o.spec.seed,
      instances: this.instances,
      range: e.scoreRange,
      shardSize: e.shards ? e.shardSize : this.instances.length,
      parallelShards: Math.max(1, Math.floor(this.o.spec.concurrency / 2)),
      evaluate: this.shardEvaluator(),
      cache: this.cache,
      onStep: async (instanceId, step) => {
        await this.o.emit({ type: 'item/evaluated', candidateId: id, itemId: instanceId, score: this.cache.get(child.hash, instanceId) ?? NaN, cached: false });
        await this.o.emit({ type: 'wealth/step', candidateId: id, k: step.k, itemId: instanceId, delta: step.delta, logWealth: step.logWealth, logThreshold: step.logThreshold, logBest: step.logBest });
      },
      signal: this.o.signal,
    };
    const result = await testChild(ctx, child, against, this.ledger);
    this.ledger = advanceLedger(this.ledger, result.record.decision);
    const scores = [...result.childScores.values()];
    const mean = scores.length > 0 ? scores.reduce((a, b) => a + b, 0) / scores.length : undefined;
    const correct = result.incorrect === undefined;
    // The pre-flight rules out a test that consumes nothing, so a correct child has a mean.
    if (correct && mean === undefined) throw new RatchetError('internal', `Child ${id} was tested on no instance.`);
    this.db.add({
      id,
      parentId: parent.id,
      island,
      generation,
      textHash: child.hash,
      correct,
      ...(correct && mean !== undefined ? { score: mean } : {}),
      ...(result.incorrect === undefined ? {} : { feedback: result.incorrect }),
      kind,
    });
    if (correct) this.db.recordDecision(id, result.record.decision);
    await this.o.emit({ type: 'decision', record: result.record });
    await this.programEvaluated(id, island, correct ? { correct, ...(mean === undefined ? {} : { score: mean }) } : { correct, error: result.incorrect! }, result.childScores.size);
    const parentMean = this.db.get(incumbent.id)?.score;
    const gain = mean !== undefined && parentMean !== undefined ? (mean - parentMean) / (e.scoreRange.hi - e.scoreRange.lo) : undefined;
    this.banditReward(model, gateReward({ decision: result.record.decision, ...(gain === undefined ? {} : { gain }), gainScale: 0.1 }));
    this.sinceNotes.push({ id, name, decision: result.record.decision, ...(mean === undefined ? {} : { score: mean }), ...(result.incorrect === undefined ? {} : { error: result.incorrect }) });
    const every = this.o.spec.search.metaEvery;
    if (every > 0 && this.sinceNotes.length >= every) await this.writeNotes(id);
  }

  private async writeNotes(afterProgram: string): Promise<void> {
    const reply = await this.o.llm.chat({ role: 'meta', messages: metaMessages(this.sinceNotes, this.recommendations), seed: hashSeed(this.o.spec.seed, 'meta', afterProgram) }, this.o.signal);
    this.sinceNotes = [];
    const recommendations = parseRecommendations(reply.text);
    if (recommendations.length === 0) return;
    this.recommendations = recommendations;
    this.nextRecommendation = 0;
    await this.o.emit({ type: 'meta/notes', afterProgram, recommendations });
  }

  /** The gate's view of the evaluator: a shard of instance ids → their scores (or incorrect). */
  private shardEvaluator(): ShardEvaluator {
    const byHash = new Map<string, string>();
    for (const text of this.texts.values()) byHash.set(textHash(text), text);
    return async (program, ids, signal) => {
      const text = this.textOf(program.hash, byHash);
      const whole = !this.o.spec.evaluator.shards && this.o.spec.evaluator.repeats === undefined;
      const r = await this.evaluateCounted(text, whole || this.single ? undefined : ids, signal);
      if (!r.correct) return { correct: false, error: r.error ?? 'the evaluator found the program incorrect' };
      const scores: Record<string, number> = {};
      for (const id of ids) {
        const y = this.single ? r.score : r.instances?.[id];
        if (y === undefined) return { correct: false, error: `the evaluator reported no score for instance ${id}` };
        scores[id] = y;
        this.cache.set(program.hash, id, y);
      }
      return { correct: true, scores };
    };
  }

  private textOf(hash: string, byHash: Map<string, string>): string {
    const known = byHash.get(hash);
    if (known !== undefined) return known;
    for (const text of this.texts.values()) if (textHash(text) === hash) return text;
    throw new RatchetError('internal', `No program text for ${hash}.`);
  }

  private async evaluateCounted(text: string, ids: readonly string[] | undefined, signal = this.o.signal, repeat = 0): Promise<ProgramEvaluation> {
    this.evaluations++;
    return this.o.evaluate(text, ids, signal, repeat);
  }

  private parentRule(): ParentRule {
    const rule = this.o.spec.search.parentSelection;
    // Bradley–Terry parents need pairwise verdicts, which the scored code gates do not produce.
    return rule === 'bt' ? { rule: 'weighted' } : { rule };
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
    await this.o.emit({
      type: 'program/evaluated',
      candidateId: id,
      island,
      correct: e.correct,
      ...(e.score === undefined ? {} : { score: e.score }),
      instances,
      ...(e.feedback === undefined ? {} : { feedback: e.feedback }),
      ...(e.error === undefined ? {} : { error: e.error }),
    });
  }

  private async log(level: 'info' | 'warn', message: string): Promise<void> {
    await this.o.emit({ type: 'log', level, message });
  }
}

const FORMAT: Record<'diff' | 'full' | 'cross', string> = {
  diff: [
    'Answer with <NAME>a short name</NAME>, <DESCRIPTION>what you change and why</DESCRIPTION>, then <DIFF> holding one or more blocks:',
    '<<<<<<< SEARCH',
    'exact lines of the current program',
    '=======',
    'their replacement',
    '>>>>>>> REPLACE',
    '</DIFF>. SEARCH text must match the program exactly and lie inside the editable regions.',
  ].join('\n'),
  full: 'Answer with <NAME>a short name</NAME>, <DESCRIPTION>what you change and why</DESCRIPTION>, then <CODE> holding the whole new program in one fenced code block </CODE>. Keep the code outside the EVOLVE-BLOCK regions exactly as it is.',
  cross: 'Combine the best ideas of the current program and the other programs shown. Answer with <NAME>a short name</NAME>, <DESCRIPTION>which ideas you combine</DESCRIPTION>, then <CODE> holding the whole new program in one fenced code block </CODE>. Keep the code outside the EVOLVE-BLOCK regions exactly as it is.',
};

function proposalMessages(o: {
  kind: 'diff' | 'full' | 'cross';
  path: string;
  parentText: string;
  parent: Readonly<ProgramRecord>;
  spans: string;
  inspirations: { record: Readonly<ProgramRecord>; text: string }[];
  fix: boolean;
  hint?: string;
}): ChatMessage[] {
  const metrics = (r: Readonly<ProgramRecord>): string =>
    [r.score === undefined ? undefined : `score ${r.score.toPrecision(6)}`, r.publicMetrics ? JSON.stringify(r.publicMetrics) : undefined, r.feedback].filter((x) => x).join('; ');
  const system = [
    'You are an expert programmer improving a program that an evaluator scores; higher is better.',
    `Only the EVOLVE-BLOCK regions (${o.spans}) may change; everything outside them is fixed.`,
    FORMAT[o.kind],
  ].join('\n\n');
  const parts = [
    o.fix ? `This program is incorrect; fix it first. The evaluator said: ${o.parent.feedback ?? 'no reason given'}` : `Current program (${metrics(o.parent) || 'not scored yet'}):`,
    fenceOf(o.parentText),
  ];
  for (const insp of o.inspirations) parts.push(`Another program of this search (${metrics(insp.record)}):`, fenceOf(insp.text));
  if (o.hint) parts.push(`A recommendation from the search so far: ${o.hint}`);
  return [
    { role: 'system', content: system },
    { role: 'user', content: parts.join('\n\n') },
  ];
}

function fenceOf(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}
