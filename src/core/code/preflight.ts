/**
 * What a code search checks of its first correct program before any proposal, once the instances
 * are known: every instance has a finite score inside the declared range (the gates that scale by
 * it need that), and the gate can commit at all on this many instances (GATES.md 4.2) — said in
 * one line for the log, or refused with what to change.
 */
import { RatchetError } from '../errors';
import { CONTINUOUS_CAP } from '../gates/eprocess';
import { paceConfig, startPaceTest } from '../gates/pace';
import type { RunLedger } from '../gates/thresholds';
import { scalesScores } from './gateShards';
import type { CodeGateSpec } from './gate';

export interface FirstScores {
  /** The program in words, as a sentence names it mid-clause ("the starting program"). */
  who: string;
  instances: readonly string[];
  scores: Readonly<Record<string, number>>;
  range: { lo: number; hi: number };
  gate: CodeGateSpec;
  /** One repeatable score: a strict improvement commits and no gate's statistics apply. */
  deterministicSingle: boolean;
}

/** Throws badInput when an instance has no finite score, or one outside the range a scaling gate reads it by. */
export function checkFirstScores(f: FirstScores): void {
  const { lo, hi } = f.range;
  const scaled = !f.deterministicSingle && scalesScores(f.gate.name);
  for (const instance of f.instances) {
    const y = f.scores[instance];
    if (y === undefined || !Number.isFinite(y)) throw new RatchetError('badInput', `The evaluator gave ${f.who} no score for instance ${instance}.`, { instanceId: instance });
    if (scaled && (y < lo || y > hi)) {
      throw new RatchetError('badInput', `${f.who[0]!.toUpperCase()}${f.who.slice(1)} scored ${y} on instance ${instance}, outside evaluator.scoreRange [${lo}, ${hi}]; declare the range the scores take.`, {
        field: 'evaluator.scoreRange',
        instanceId: instance,
      });
    }
  }
}

/**
 * What the gate will do on these instances, in one line for the log (undefined: nothing to say);
 * throws badInput when not even a child better on every instance by the whole range could commit.
 */
export function gatePreflight(f: Pick<FirstScores, 'instances' | 'range' | 'gate' | 'deterministicSingle'>, ledger: RunLedger): string | undefined {
  const g = f.gate;
  const n = f.instances.length;
  if (f.deterministicSingle && g.name !== 'greedy') return `Deterministic single score: gate ${g.name} is not needed; a strict improvement commits.`;
  if (g.name === 'pairwise') {
    return `Gate pairwise: each correct child is evaluated on all ${n} instance${n === 1 ? '' : 's'}, then commits when the validator prefers it to its incumbent in both orders. It has no e-process and controls no error rate: a verdict is not evidence that the child is better.`;
  }
  if (g.name === 'greedy') return undefined;
  // The pre-flight of GATES.md 4.2: could a child that wins every instance by the whole range commit?
  const cfg = paceConfig(g.name, { alpha: g.alpha, scores: 'continuous', schedule: g.schedule, population: g.population, horizonT: g.horizon });
  const test = startPaceTest(cfg, ledger, n);
  if (test.verdict?.reason === 'infeasible') {
    throw new RatchetError(
      'badInput',
      `${n} instance${n === 1 ? '' : 's'} cannot give gate ${g.name} the evidence to commit at α = ${g.alpha}, even for a child better on every one by the whole score range: report more instances, or set evaluator.repeats.`,
      { field: 'evaluator' },
    );
  }
  // The bets are capped (Δ may be as bad as the whole range), so the evidence a child can gather
  // per instance is bounded by its margin over the range: say what margin commits at all.
  const { lo, hi } = f.range;
  const margin = ((hi - lo) * (test.threshold ** (1 / n) - 1)) / CONTINUOUS_CAP;
  return `Gate ${g.name} on ${n} instances with scores in [${lo}, ${hi}]: a child commits only when it beats its parent by at least about ${margin.toPrecision(2)} per instance on nearly all of them. If real improvements are smaller, narrow evaluator.scoreRange to the range the scores actually take.`;
}
