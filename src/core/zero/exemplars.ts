/**
 * Judge co-adaptation without weights (J-Zero's judge update, transposed): pairs of known order
 * that the judge got wrong become worked examples in its prompt, with the correct verdict.
 *
 * - Candidates: pairs judged wrong in both orders first, then pairs the two orders split on
 *   (wrong in one presentation); a pair judged right or tied teaches nothing.
 * - Equal shares: the two pair types are taken in turn, so neither curve is trained at the other's
 *   expense; when one type runs out the other fills the budget rather than leaving it unused.
 * - Deterministic by seed: within a type and a rank the order is a seeded shuffle, and which type
 *   goes first is seeded, so a resumed run builds the same prompt (and hits the response cache).
 * - Slots: the better response is shown in A, A, B, B, … so the exemplars themselves carry no
 *   position preference for the judge to learn.
 *
 * The exemplars come from one round's pairs; the loop re-measures reliability on fresh pairs
 * with them, so whether the co-adaptation helped is measured, not assumed.
 */
import type { JudgeCall } from '../evolve/judge';
import type { JudgedPair, KnownOrderPair } from './reliability';
import { RatchetError } from '../errors';
import { judgeCall, itemJudgeCall } from '../evolve/judge';
import { untrustedFrame } from '../llm/untrusted';
import { SeededRandom, hashSeed } from '../random';
import { pairJudgement } from './reliability';
import { PAIR_TYPES } from '../journal/payloadTypes';
import type { PairType } from '../journal/payloadTypes';
import type { Exemplar } from '../journal/payloadTypes';

/** Longest exemplar text (characters) shown; longer ones are cut, so a budget of exemplars is a budget of tokens. */
export const DEFAULT_EXEMPLAR_CHARS = 2000;

export function selectExemplars(judged: readonly JudgedPair[], budget: number, seed: number): Exemplar[] {
  if (!(Number.isInteger(budget) && budget >= 0)) throw new RatchetError('badInput', `The exemplar budget must be a whole number ≥ 0, got ${budget}.`);
  const queues = PAIR_TYPES.map((type) => misjudged(judged, type, seed));
  const rng = new SeededRandom(hashSeed(seed, 'exemplar-types'));
  const order = rng.int(2) === 0 ? [0, 1] : [1, 0];
  const picked: Omit<Exemplar, 'betterSlot'>[] = [];
  while (picked.length < budget && queues.some((q) => q.length > 0)) {
    for (const t of order) {
      const next = queues[t]!.shift();
      if (next && picked.length < budget) picked.push(next);
    }
  }
  return picked.map((e, i) => ({ ...e, betterSlot: Math.floor(i / 2) % 2 === 0 ? 'A' : 'B' }));
}

function misjudged(judged: readonly JudgedPair[], type: PairType, seed: number): Omit<Exemplar, 'betterSlot'>[] {
  const rank = (j: Exemplar['judgement']) =>
    shuffled(
      judged.filter((p) => p.pair.type === type && pairJudgement(p) === j),
      hashSeed(seed, 'exemplars', type, j),
    ).map((p) => ({ pairId: p.pair.id, type, judgement: j, task: p.pair.task, better: p.pair.better, worse: p.pair.worse }));
  return [...rank('wrong'), ...rank('split')];
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const rng = new SeededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * A pairwise judge call for one task that first shows the exemplars, each text as untrusted data
 * and each correct verdict as our own words outside the data. With no exemplars it is exactly
 * the plain item judge call, so a judge before co-adaptation is the gate's judge and its cached
 * answers stay valid.
 */
export function exemplarJudgeCall(rubric: string, input: string, responseA: string, responseB: string, exemplars: readonly Exemplar[], maxChars = DEFAULT_EXEMPLAR_CHARS): JudgeCall {
  if (exemplars.length === 0) return itemJudgeCall(rubric, input, responseA, responseB);
  const shown = exemplars.map((e) => {
    const [a, b] = e.betterSlot === 'A' ? [e.better, e.worse] : [e.worse, e.better];
    return { task: cut(e.task, maxChars), a: cut(a, maxChars), b: cut(b, maxChars), verdict: e.betterSlot };
  });
  const frame = untrustedFrame([...shown.flatMap((s) => [s.task, s.a, s.b]), input, responseA, responseB]);
  const exampleBlocks = shown.map((s, i) =>
    [
      `Worked example ${i + 1}, judged wrongly before:`,
      frame.block(`example ${i + 1} task`, s.task),
      frame.block(`example ${i + 1} response A`, s.a),
      frame.block(`example ${i + 1} response B`, s.b),
      `The better response in example ${i + 1} is ${s.verdict}.`,
    ].join('\n'),
  );
  return judgeCall(
    frame,
    // The plain item judge's task sentence (evolve/judge.ts), so both calls ask the same question.
    'You judge which of two responses to a task is better.',
    rubric,
    [...exampleBlocks, 'Now the case to judge:', frame.block('task', input), frame.block('response A', responseA), frame.block('response B', responseB)],
    'Which response is better?',
  );
}

/** The two calls that judge a known-order pair: better in slot A, then better in slot B. */
export function knownOrderJudgeCalls(pair: KnownOrderPair, rubric: string, exemplars: readonly Exemplar[]): { betterFirst: JudgeCall; worseFirst: JudgeCall } {
  return {
    betterFirst: exemplarJudgeCall(rubric, pair.task, pair.better, pair.worse, exemplars),
    worseFirst: exemplarJudgeCall(rubric, pair.task, pair.worse, pair.better, exemplars),
  };
}

function cut(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}\n[… cut at ${maxChars} characters]`;
}
