/**
 * Builds one code-search program's detail (the Programs view's right-hand story) from the texts
 * the store kept of the run's events: its text beside its parent's and the seed's, the proposer's
 * name and description, the evaluator's verdict (metrics, feedback, the capped output of an
 * incorrect one), and its gate test: per-instance scores against the program it was tested against
 * and the e-process's wealth pair by pair. Pure.
 */
import type { StoredRun } from '../runs/runStore';
import { itemKey } from '../runs/runStore';
import type { PairedScore, ProgramDetail } from '../../panelState/types';
import { describeIsolation } from '../../core/code/isolation';

/** Pairs per message: an evaluator can report thousands of instances. */
export const MAX_PROGRAM_PAIRS = 500;
/** Characters of an incorrect program's output sent (its end: where the error is). */
export const MAX_PROGRAM_OUTPUT = 8_000;

export function buildProgramDetail(run: StoredRun, programId: string): ProgramDetail | undefined {
  const { state, detail } = run;
  const text = detail.texts.get(programId);
  const node = state.programs.nodes[programId];
  if (text === undefined || !node) return undefined;
  const seedId = state.programs.order[0];
  const record = detail.records.get(programId);
  const opponentId = record?.incumbentId ?? node.parentId;
  const pairs = pairedScores(run, programId, opponentId);
  const steps = detail.steps.get(programId) ?? [];
  // The wealth moves only on discordant pairs; ties are counted beside it (as the run state folds them).
  const discordant = steps.filter((s) => s.delta !== 0);
  const out: ProgramDetail = {
    runId: state.runId,
    programId,
    parentId: node.parentId,
    seedId,
    text,
    opponentId,
    pairs: pairs.slice(0, MAX_PROGRAM_PAIRS),
    omittedPairs: Math.max(0, pairs.length - MAX_PROGRAM_PAIRS),
    wealth: {
      candidateId: programId,
      steps: discordant,
      ties: steps.length - discordant.length,
      ...(record ? { decision: record.decision, threshold: record.threshold } : {}),
    },
  };
  const parentText = node.parentId === undefined ? undefined : detail.texts.get(node.parentId);
  if (parentText !== undefined) out.parentText = parentText;
  const seedText = seedId === undefined || seedId === programId ? undefined : detail.texts.get(seedId);
  if (seedText !== undefined) out.seedText = seedText;
  const name = detail.reasoning.get(programId);
  if (name !== undefined) out.name = name;
  const description = detail.descriptions.get(programId);
  if (description !== undefined) out.description = description;
  if (record) out.record = record;
  const e = detail.evaluations.get(programId);
  if (e) {
    const output = e.output === undefined ? undefined : e.output.length > MAX_PROGRAM_OUTPUT ? e.output.slice(-MAX_PROGRAM_OUTPUT) : e.output;
    out.evaluation = {
      correct: e.correct,
      instances: e.instances,
      ...(e.score === undefined ? {} : { score: e.score }),
      ...(e.metrics ? { metrics: e.metrics } : {}),
      ...(e.feedback ? { feedback: e.feedback } : {}),
      ...(e.error === undefined ? {} : { error: e.error }),
      ...(output === undefined ? {} : { output }),
      ...(e.output !== undefined && output !== undefined && output.length < e.output.length ? { omittedOutput: e.output.length - output.length } : {}),
      ...(e.isolation === undefined ? {} : { isolation: describeIsolation(e.isolation) }),
      ...(e.incidents === undefined ? {} : { incidents: e.incidents }),
    };
  }
  return out;
}

/**
 * The instances the program was scored on, in the gate's order where the e-process took them (ties
 * too; then the rest in the order they were scored), each beside the opponent's score when known.
 */
function pairedScores(run: StoredRun, programId: string, opponentId: string | undefined): PairedScore[] {
  const { detail } = run;
  const steps = new Map((detail.steps.get(programId) ?? []).map((s) => [s.itemId, s]));
  const prefix = `${programId}\n`;
  const out: PairedScore[] = [];
  for (const [key, child] of detail.scores) {
    if (!key.startsWith(prefix)) continue;
    const instanceId = key.slice(prefix.length);
    const pair: PairedScore = { instanceId, child };
    const opponent = opponentId === undefined ? undefined : detail.scores.get(itemKey(opponentId, instanceId));
    if (opponent !== undefined) pair.opponent = opponent;
    const step = steps.get(instanceId);
    if (step) {
      pair.k = step.k;
      pair.delta = step.delta;
    }
    out.push(pair);
  }
  const order = (p: PairedScore) => p.k ?? Number.POSITIVE_INFINITY;
  // Stable: instances without a k keep the order they were scored in.
  return out.sort((a, b) => order(a) - order(b));
}
