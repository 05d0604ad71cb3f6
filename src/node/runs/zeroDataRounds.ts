/**
 * The zero-data rounds of an evolve run whose spec names no dataset (evolve/loop.ts DataRounds),
 * as the Node face wires them: generated tasks become the run's items, each round journaled.
 */
import type { DataItem } from '../../core/data/item';
import type { DataRounds } from '../../core/evolve/loop';
import type { EngineEvent } from '../../core/journal/events';
import type { GeneratedTask, ZeroRounds } from '../../core/zero/rounds';

/** A generated task as an item of the run (the gate's or the proposer's; never a test item). */
function generatedItem(t: GeneratedTask, challengerModel: string): DataItem {
  return {
    id: t.id,
    vars: t.vars,
    source: { file: `zero-data round ${t.round}`, line: 0 },
    metadata: { zeroData: { round: t.round, difficulty: t.difficulty, dispersion: t.dispersion, challengerModel, split: 'dev' } },
  };
}

/**
 * An evolve run's items when its spec names no dataset (loop.ts DataRounds): a zero-data round
 * per `candidatesPerRound` candidates, each journaled through `emit`, the dev tasks of every round
 * so far as the gate's items and the rest of each round's pool as the proposer's feedback. It
 * stops when the incumbent's judged score on a round's held-out tasks is not above the round
 * before's — each round's held-out tasks are new ones, written harder, so the comparison is of the
 * incumbent on the Challenger's latest level, not on one fixed set.
 */
export function zeroDataRounds(engine: ZeroRounds, candidatesPerRound: number, challengerModel: string, emit: (e: EngineEvent) => Promise<void>): DataRounds {
  const dev: DataItem[] = [];
  const feedback: DataItem[] = [];
  let lastScore: number | undefined;
  return {
    candidatesPerRound,
    async next(round, incumbentText, signal) {
      const outcome = await engine.round(round, incumbentText, signal);
      await emit(outcome.event);
      const score = outcome.heldOutScore?.mean;
      if (round > 1 && score !== undefined && lastScore !== undefined && score <= lastScore) return 'stop';
      lastScore = score ?? lastScore;
      dev.push(...outcome.dev.map((t) => generatedItem(t, challengerModel)));
      feedback.push(...outcome.feedback.map((t) => generatedItem(t, challengerModel)));
      return { dev: [...dev], feedback: [...feedback] };
    },
  };
}
