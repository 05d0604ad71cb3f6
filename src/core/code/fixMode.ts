/**
 * Fix mode (ShinkaEvolve's): a search whose starting program is incorrect by its evaluator starts
 * in it — proposals repair the program, shown what it printed — and a correct repair ends it for
 * its island, becoming the island's incumbent with no test (nothing correct to test it against).
 */
import type { EngineEvent } from '../journal/events';
import type { EventPayload } from '../journal/control';
import type { RunLedger } from '../gates/thresholds';
import type { ProgramDatabase } from './database';
import type { ProgramEvaluation } from './evaluations';
import { textHash } from './novelty';
import type { ProgramEvents } from './programEvents';
import type { Child, Proposal } from './proposal';
import type { RunInstances } from './runInstances';

export interface FixModeSetting {
  seedText: string;
  db: ProgramDatabase;
  instances: RunInstances;
  events: ProgramEvents;
  emit: (e: EventPayload<EngineEvent>) => Promise<void>;
}

/**
 * The seed, evaluated whole. A correct seed says which instances there are (or that there is
 * one score); an incorrect one starts the search in fix mode, where proposals repair it and the
 * first correct child sets the instances instead. `stopped`: why the search stops at once.
 */
export async function evaluateSeed(s: FixModeSetting, ledger: RunLedger): Promise<{ evaluation: ProgramEvaluation; stopped?: string }> {
  await s.emit({ type: 'candidate/proposed', candidateId: 'p0', parentId: undefined, contentHash: textHash(s.seedText), text: s.seedText });
  const first = await s.instances.evaluateWhole(s.seedText);
  if (!first.correct) {
    await s.events.evaluated('p0', 0, first, 0);
    await s.events.log(
      'warn',
      `The starting program is incorrect by its evaluator (${first.error ?? 'no reason given'}): the search starts in fix mode — proposals repair it, shown what it printed, and the first correct program of each island becomes its incumbent.`,
    );
    return { evaluation: first };
  }
  const stopped = await s.instances.establish('p0', s.seedText, first, ledger);
  return { evaluation: first, ...(stopped === undefined ? {} : { stopped }) };
}

/** What a repair came to: the proposer's reward, whether it repaired its island, and why the search stops (when it does). */
export interface RepairOutcome {
  reward: number;
  repaired: boolean;
  stopped?: string;
}

/**
 * Fix mode's outcome: a correct repair becomes its island's incumbent — the first correct program
 * there, so no test is needed (or possible) — and, if it is the run's first, sets the instances.
 */
export async function applyRepair(s: FixModeSetting, p: Proposal, child: Child, evaluation: ProgramEvaluation, ledger: RunLedger): Promise<RepairOutcome> {
  const { db, instances, events } = s;
  const base = { id: child.id, parentId: p.parent.id, island: p.island, generation: p.generation, textHash: child.hash, kind: p.kind };
  const scores = evaluation.correct ? instances.scoresOf(evaluation) : {};
  const missing = instances.ids.find((i) => !Number.isFinite(scores[i]));
  if (!evaluation.correct || (instances.ids.length > 0 && missing !== undefined)) {
    const error = evaluation.error ?? `the evaluator reported no score for instance ${missing}`;
    db.add({ ...base, correct: false, feedback: error });
    await events.evaluated(child.id, p.island, { correct: false, error, ...(evaluation.output ? { output: evaluation.output } : {}) }, 0);
    return { reward: 0, repaired: false };
  }
  // The first correct program fixes the instances (one score, or per instance): its scores are read by them.
  let stopped: string | undefined;
  if (instances.ids.length === 0) stopped = await instances.establish(child.id, child.text, evaluation, ledger);
  else await instances.cacheWhole(child.id, child.text, scores);
  const established = instances.scoresOf(evaluation);
  const mean = instances.ids.reduce((a, i) => a + established[i]!, 0) / instances.ids.length;
  db.add({ ...base, correct: true, score: mean });
  const first = db.islandNeedsFix(p.island);
  db.recordDecision(child.id, first ? 'commit' : 'reject');
  await events.log(
    'info',
    first
      ? `${child.id} repairs island ${p.island}: the evaluator passes it, the first correct program there, so it becomes the incumbent (score ${mean.toPrecision(6)}).`
      : `${child.id} is correct too, but another repair became island ${p.island}'s incumbent first.`,
  );
  await events.evaluated(child.id, p.island, { correct: true, score: mean }, instances.ids.length);
  return { reward: first ? 1 : 0, repaired: first, ...(stopped === undefined ? {} : { stopped }) };
}
