/**
 * One zero-data round (J-Zero, transposed; issue #17), from the building blocks of this folder:
 *
 *   Challenger writes N tasks → format filter → BLEU dedup (against earlier rounds too) → a
 *   seeded share is held out → the Solver (the incumbent prompt) answers every task M times at a
 *   temperature above 0, each sample seeded → the judge scores each answer → top-K of the rest by
 *   dispersion is the round's dev set → on the held-out tasks, role-asymmetry and amplification
 *   pairs are judged in both orders with the exemplars the previous round chose → reliability per
 *   pair type → the pairs judged wrongly become the next round's exemplars, so each round's
 *   reliability is the re-measurement, on fresh pairs, of the co-adaptation the last one made.
 *
 * Everything the round decided is one `zero/round` event (counts by discard reason, the kept and
 * held-out tasks with their difficulty and dispersion, the histograms, reliability with n and
 * interval, the exemplars), so the Zero-data tab draws it from the journal alone.
 *
 * Pure core: the LLM client is the only port. Every call is a function of the round's inputs and
 * the run seed (sampleIndex and seed for the Solver's samples), so a rerun or a resume is answered
 * by the response cache and pays nothing twice. The held-out tasks are also the generated test
 * split: the incumbent's judged score on them is reported apart from the dev split it was not
 * chosen on.
 */
import pLimit from 'p-limit';
import { contentId } from '../data/item';
import { judge } from '../evolve/judge';
import { askAndRead } from '../llm/reask';
import { meanInterval } from '../evolve/report';
import type { JudgeReading } from '../gates/pairwise';
import type { LlmClient } from '../ports';
import type { Template } from '../prompt/template';
import { renderPrompt } from '../prompt/template';
import { hashSeed, seededPermutation } from '../random';
import type { EventOf } from '../journal/events';
import type { ChatMessage } from '../llm/types';
import { composeMessages, decomposeMessages, parseSubtasks, subtaskMessages } from './amplification';
import type { ChallengerTask } from './challengerFormat';
import { parseChallengerAnswer } from './challengerFormat';
import type { PreviousRound, TaskVars } from './challengerPrompt';
import { challengerMessages } from './challengerPrompt';
import type { EarlierTask } from './dedup';
import { dedupTasks } from './dedup';
import type { TaskSpread } from './dispersion';
import { selectByDispersion, taskSpread } from './dispersion';
import { knownOrderJudgeCalls, selectExemplars } from './exemplars';
import type { JudgedPair, KnownOrderPair } from './reliability';
import { amplificationPair, reliabilityOf, roleAsymmetryPair } from './reliability';
import { DEFAULT_SCORE_RUBRIC, readTaskScore, taskScoreCall, taskScoreReminder } from './taskJudge';
import { PAIR_TYPES } from '../journal/payloadTypes';
import type { Exemplar } from '../journal/payloadTypes';

export interface ZeroSettings {
  /** Tasks the Challenger is asked for per round (N). */
  tasks: number;
  /** Dev tasks kept per round at most (K), by dispersion. */
  keep: number;
  /** Solver answers per task (M). */
  samples: number;
  /** Share of the deduplicated tasks held out for reliability pairs and the test split. */
  heldOutShare: number;
  /** Exemplars the judge is shown at most. */
  exemplarBudget: number;
  /** The Solver's sampling temperature; above 0, or M answers would be one. */
  solverTemperature: number;
  /** Where the Solver's answers stop (the agent's `models.agent.stop`): a few-shot prompt's next example. */
  solverStop?: readonly string[];
  /** The pointwise judge's rubric. */
  rubric: string;
  seed: number;
}

export const DEFAULT_ZERO_SETTINGS: Omit<ZeroSettings, 'seed'> = {
  tasks: 12,
  keep: 6,
  samples: 4,
  heldOutShare: 0.25,
  exemplarBudget: 4,
  solverTemperature: 0.8,
  rubric: DEFAULT_SCORE_RUBRIC,
};

export interface ZeroPromptBrief {
  /** The prompt file's description (front matter), when it has one. */
  description?: string;
  /** The user's own examples (their variables), as style anchors for the Challenger. */
  examples?: readonly TaskVars[];
}

export interface ZeroRoundsDeps {
  runId: string;
  llm: LlmClient;
  /**
   * Calls handed to the LLM client at once (the run's concurrency): a round's tasks × samples and
   * their judge calls are a pool of this width, not one burst of hundreds waiting in the client.
   */
  concurrency: number;
  now: () => number;
  /** The prompt's template (its text is replaced by the incumbent's each round). */
  template: Template;
  /** The template's variables (roots, in order of first use); at least one. */
  variables: readonly string[];
  brief: ZeroPromptBrief;
  settings: ZeroSettings;
  /** The Challenger's model id, for provenance. */
  challengerModel: string;
}

/** A generated task as the dev set and the journal keep it. */
export interface GeneratedTask {
  /** The dataset loader's id for these variables (contentId), so the journal and the file agree. */
  id: string;
  vars: Record<string, unknown>;
  text: string;
  round: number;
  difficulty: number;
  dispersion: number;
}

export interface RoundOutcome {
  round: number;
  /** The round's dev tasks: top-K by dispersion. */
  dev: GeneratedTask[];
  /** The held-out generated tasks (the test split). */
  test: GeneratedTask[];
  /**
   * The rest of the judged pool (not in the top K, or no spread): answered, never gate items, so an
   * evolve run's proposer reflects on these and not on the dev tasks its gate decides on.
   */
  feedback: GeneratedTask[];
  /** The incumbent's mean judged score on this round's held-out tasks, with a 95 % interval; undefined with none judged. */
  heldOutScore: { mean: number; lo: number; hi: number; n: number } | undefined;
  event: EventOf<'zero/round'>;
}

type ZeroRoundEvent = EventOf<'zero/round'>;

interface Solved {
  task: ChallengerTask;
  /** The Solver's messages for the task: the incumbent rendered with its variables. */
  messages: ChatMessage[];
  input: string;
  answers: string[];
  /** The judge's score per answer; undefined where it abstained. */
  scores: (number | undefined)[];
}

/**
 * The rounds of one zero-data run, carrying what a round hands the next: the tasks already
 * generated (dedup), the Challenger's feedback, the judge's exemplars.
 */
export class ZeroRounds {
  private readonly earlier: EarlierTask[] = [];
  private previous: PreviousRound | undefined;
  private exemplars: Exemplar[] = [];
  private readonly llm: LlmClient;

  constructor(private readonly deps: ZeroRoundsDeps) {
    this.llm = pooled(deps.llm, deps.concurrency);
  }

  /** Round `round` (1-based) with `incumbent` as the Solver's prompt text. */
  async round(round: number, incumbent: string, signal: AbortSignal): Promise<RoundOutcome> {
    const { settings } = this.deps;
    const generated = await this.generate(round, signal);
    const dedup = dedupTasks(generated.tasks, (t) => t.text, { earlier: this.earlier });
    for (const t of dedup.kept) this.earlier.push({ text: t.text, round });

    const order = seededPermutation(dedup.kept.length, hashSeed(settings.seed, 'zero-held-out', round));
    const heldOutCount = dedup.kept.length < 2 ? 0 : Math.max(1, Math.round(dedup.kept.length * settings.heldOutShare));
    const heldOutSet = new Set(order.slice(0, heldOutCount));
    const solved = await Promise.all(dedup.kept.map((task) => this.solve(incumbent, task, signal)));
    const judged = solved.filter((s) => s.scores.some((x) => x !== undefined));
    const scoresOf = (s: Solved) => s.scores.filter((x): x is number => x !== undefined);
    const pool = solved.filter((s, i) => !heldOutSet.has(i) && scoresOf(s).length > 0);
    const heldOut = solved.filter((s, i) => heldOutSet.has(i) && scoresOf(s).length > 0);

    const selection = selectByDispersion(
      pool.map((s) => ({ task: s, scores: scoresOf(s) })),
      { keep: settings.keep },
    );
    const generatedTask = (spread: TaskSpread<Solved>): GeneratedTask => ({
      id: contentId(spread.task.task.vars),
      vars: spread.task.task.vars,
      text: spread.task.task.text,
      round,
      difficulty: spread.difficulty,
      dispersion: spread.dispersion,
    });
    const dev = selection.kept.map(generatedTask);
    const feedback = [...selection.notInTopK, ...selection.lowDispersion].map(generatedTask);
    const test = heldOut.map((s) => generatedTask(taskSpread({ task: s, scores: scoresOf(s) })));
    const heldOutScores = heldOut.flatMap(scoresOf);
    const interval = meanInterval(heldOutScores);
    const heldOutScore = heldOutScores.length === 0 ? undefined : { mean: interval.mean, lo: interval.lo, hi: interval.hi, n: heldOutScores.length };

    // The judge's reliability on fresh pairs, with the exemplars the last round chose.
    const exemplarsUsed = this.exemplars;
    const pairs = (await Promise.all(heldOut.map((s) => this.knownOrderPairs(round, s, signal)))).flat();
    const judgedPairs = await Promise.all(pairs.map((p) => this.judgePair(p, exemplarsUsed, signal)));
    const reliability = PAIR_TYPES.map((t) => reliabilityOf(t, judgedPairs));
    this.exemplars = selectExemplars(judgedPairs, settings.exemplarBudget, hashSeed(settings.seed, 'zero-exemplars', round));

    const vars = (spreads: readonly TaskSpread<Solved>[]) => spreads.map((s) => s.task.task.vars);
    this.previous = { round, tooEasy: vars(selection.tooEasy), tooHard: vars(selection.tooHard), kept: vars(selection.kept) };

    const event: ZeroRoundEvent = {
      type: 'zero/round',
      runId: this.deps.runId,
      at: this.deps.now(),
      round,
      requested: settings.tasks,
      written: generated.tasks.length + generated.discards.length,
      discarded: {
        format: generated.counts,
        duplicate: dedup.duplicates.length,
        unjudged: solved.length - judged.length,
        lowDispersion: selection.lowDispersion.length,
        notInTopK: selection.notInTopK.length,
      },
      ...(Object.values(generated.repairs).some((n) => n > 0) ? { repaired: generated.repairs } : {}),
      kept: dev.map(taskInfo),
      heldOut: test.map(taskInfo),
      tooEasy: selection.tooEasy.length,
      tooHard: selection.tooHard.length,
      difficultyHistogram: selection.difficultyHistogram,
      dispersionHistogram: selection.dispersionHistogram,
      reliability,
      exemplarsUsed: exemplarsUsed.map((e) => e.pairId),
      exemplars: this.exemplars,
      ...(heldOutScore ? { heldOutScore } : {}),
    };
    return { round, dev, test, feedback, heldOutScore, event };
  }

  private async generate(round: number, signal: AbortSignal) {
    const { settings, variables, brief, template } = this.deps;
    const messages = challengerMessages({
      ...(brief.description === undefined ? {} : { description: brief.description }),
      body: template.text,
      variables,
      count: settings.tasks,
      ...(brief.examples?.length ? { examples: brief.examples } : {}),
      ...(this.previous ? { previous: this.previous } : {}),
    });
    const res = await this.llm.chat({ role: 'challenger', messages, temperature: 1, seed: hashSeed(settings.seed, 'challenger', round), sampleIndex: 0 }, signal);
    return parseChallengerAnswer(res.text, { variables, requested: settings.tasks });
  }

  private async solve(incumbent: string, task: ChallengerTask, signal: AbortSignal): Promise<Solved> {
    const { settings } = this.deps;
    const llm = this.llm;
    const input = renderPrompt({ ...this.deps.template, text: incumbent }, task.vars);
    const messages: ChatMessage[] = [{ role: 'user', content: input }];
    const answers = await Promise.all(
      Array.from({ length: settings.samples }, async (_, m) => {
        const res = await llm.chat({ role: 'agent', messages, temperature: settings.solverTemperature, seed: hashSeed(settings.seed, 'solver', m), sampleIndex: m, ...solverStop(settings) }, signal);
        return res.text;
      }),
    );
    const scores = await Promise.all(
      answers.map(async (answer) => {
        const call = taskScoreCall(settings.rubric, input, answer);
        const asked = await askAndRead(
          (messages) => llm.chat({ role: 'validator', messages, temperature: 0, sampleIndex: 0 }, signal),
          call.messages,
          (res) => readTaskScore(res.text, call.frame),
          taskScoreReminder(call.frame),
        );
        return asked.value;
      }),
    );
    return { task, messages, input, answers, scores };
  }

  /** The task's role-asymmetry pair, and its amplification pair when the Challenger splits it. */
  private async knownOrderPairs(round: number, s: Solved, signal: AbortSignal): Promise<KnownOrderPair[]> {
    const llm = this.llm;
    const id = `r${round}:${contentId(s.task.vars)}`;
    const oneShot = s.answers[0]!;
    const own = await llm.chat({ role: 'challenger', messages: s.messages, temperature: 0, sampleIndex: 0 }, signal);
    const pairs = [roleAsymmetryPair(`${id}:role`, s.input, oneShot, own.text)];
    const split = await llm.chat({ role: 'challenger', messages: decomposeMessages(s.input), temperature: 0, sampleIndex: 0 }, signal);
    const subtasks = parseSubtasks(split.text);
    if (subtasks.length === 0) return pairs;
    const parts = await Promise.all(
      subtasks.map(async (subtask) => {
        const res = await llm.chat({ role: 'agent', messages: subtaskMessages(s.messages, subtask), temperature: 0, sampleIndex: 0, ...solverStop(this.deps.settings) }, signal);
        return { subtask, answer: res.text };
      }),
    );
    const composed = await llm.chat({ role: 'challenger', messages: composeMessages(s.input, parts), temperature: 0, sampleIndex: 0 }, signal);
    pairs.push(amplificationPair(`${id}:amp`, s.input, composed.text, oneShot));
    return pairs;
  }

  private async judgePair(pair: KnownOrderPair, exemplars: readonly Exemplar[], signal: AbortSignal): Promise<JudgedPair> {
    const calls = knownOrderJudgeCalls(pair, this.deps.settings.rubric, exemplars);
    const verdict = async (call: typeof calls.betterFirst): Promise<JudgeReading> => (await judge((messages) => this.llm.chat({ role: 'validator', messages, temperature: 0, sampleIndex: 0 }, signal), call)).verdict;
    const [betterFirst, worseFirst] = await Promise.all([verdict(calls.betterFirst), verdict(calls.worseFirst)]);
    return { pair, betterFirst, worseFirst };
  }
}

/**
 * `llm` with at most `width` calls outstanding; the rest wait here, in the order they were asked,
 * so what a round has asked of the client stays within the run's concurrency.
 */
function pooled(llm: LlmClient, width: number): LlmClient {
  const limit = pLimit(width);
  return {
    chat: (req, signal) => limit(() => llm.chat(req, signal)),
    embed: (req, signal) => limit(() => llm.embed(req, signal)),
  };
}

/** The Solver's stop sequences, when the run's agent has any. */
function solverStop(settings: ZeroSettings): { stop?: string[] } {
  return settings.solverStop && settings.solverStop.length > 0 ? { stop: [...settings.solverStop] } : {};
}

function taskInfo(t: GeneratedTask): ZeroRoundEvent['kept'][number] {
  return { id: t.id, text: t.text, difficulty: t.difficulty, dispersion: t.dispersion };
}
