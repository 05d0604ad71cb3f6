/**
 * An evidence bundle: one verdict of `ratchet check` as the numbers it was made of — the pairs in
 * the test's order, the bets (the e-process's wealth after each), the threshold and the α it
 * spent, what the models and the evaluator were, and the response-cache keys of every answer —
 * compact enough to commit (`.ratchet/evidence/`). `replayBets` recomputes the verdict from the
 * pairs alone with the gate's own e-process; a bundle whose numbers were altered does not replay.
 */
import { paceConfigFor } from '../evolve/paceGates';
import { paceConfig, startPaceTest } from '../gates/pace';
import type { PaceConfig, PaceGateName, PaceStep } from '../gates/pace';
import type { CodeGateSpec } from '../code/gate';
import { isPaceGate } from '../gates/gateTable';
import type { ScoreMode } from '../gates/eprocess';
import type { Decision, DecisionReason } from '../gates/record';
import type { RunLedger } from '../gates/thresholds';
import type { GateSpec } from '../run/specTypes';
import type { CheckPolicy, CheckVerdict } from './policy';

export const BUNDLE_VERSION = 1;

/** One dev item the test consumed: Δ = candidate − incumbent, and the step the e-process took on it. */
export interface BundleStep {
  itemId: string;
  delta: number;
  /** ln of the wealth after this item. */
  logWealth: number;
  abstained?: true;
}

export interface EvidenceBundle {
  version: number;
  file: string;
  /** A prompt file (its dev items) or a program (its evaluator's instances, Δ scaled by the score range). */
  kind: 'prompt' | 'program';
  policy: CheckPolicy;
  /** Which version the gate's test took as its candidate (the other was its incumbent). */
  candidate: 'head' | 'base';
  base: { commit: string; contentHash: string };
  head: { commit: string; contentHash: string };
  gate: GateSpec | CodeGateSpec;
  scores: ScoreMode;
  /** The dev items the test could use (n: its futility bound and finite population). */
  devItems: number;
  ledgerBefore: RunLedger;
  threshold: number;
  /** The level the test ran at: 1/threshold (Ville), the α this verdict spent. */
  alphaSpent: number;
  steps: BundleStep[];
  decision: { decision: Decision; reason: DecisionReason; logWealth: number; itemsConsumed: number };
  verdict: CheckVerdict;
  passed: boolean;
  fingerprints: {
    /** Each role the test called: its endpoint (no key) and model. */
    models: Record<string, { baseURL?: string; model?: string }>;
    /** sha256 of what decides a score: the scorer, the harness, the agent's decoding, the dev items. */
    evaluator: string;
  };
  cacheKeys: string[];
  /** The run that made the verdict (`ratchet runs show`). */
  runId: string;
}

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * The verdict recomputed from the bundle's pairs with the gate's e-process, the bundle's ledger
 * and n: every wealth step, the threshold and the decision must come out as recorded. Returns what
 * did not (empty: it replays).
 */
export function replayBets(b: EvidenceBundle): string[] {
  const problems: string[] = [];
  if (!isPaceGate(b.gate.name)) return [`gate ${String(b.gate.name)} is not an anytime-valid gate this version can replay`];
  const test = startPaceTest(configOf(b, b.gate.name), b.ledgerBefore, b.devItems);
  if (!close(test.threshold, b.threshold)) problems.push(`threshold: recorded ×${b.threshold}, the ledger gives ×${test.threshold}`);
  for (const [i, s] of b.steps.entries()) {
    if (test.verdict) {
      problems.push(`step ${i + 1} (${s.itemId}) comes after the test had already decided`);
      break;
    }
    let step: PaceStep;
    try {
      step = s.abstained ? test.abstain() : test.observe(s.delta);
    } catch (err) {
      problems.push(`step ${i + 1} (${s.itemId}): ${err instanceof Error ? err.message : String(err)}`);
      break;
    }
    if (!close(step.logWealth, s.logWealth)) {
      problems.push(`step ${i + 1} (${s.itemId}): recorded ln wealth ${s.logWealth}, the pairs give ${step.logWealth}`);
      break;
    }
  }
  const verdict = test.verdict ?? { decision: 'reject' as const, reason: 'budget' as const, stoppedAt: test.itemsConsumed };
  if (verdict.decision !== b.decision.decision || verdict.reason !== b.decision.reason) {
    problems.push(`decision: recorded ${b.decision.decision} (${b.decision.reason}), the pairs give ${verdict.decision} (${verdict.reason})`);
  }
  if (!close(test.logWealth(), b.decision.logWealth)) problems.push(`final ln wealth: recorded ${b.decision.logWealth}, the pairs give ${test.logWealth()}`);
  return problems;
}

/** The e-process a test of this bundle ran: a prompt's gate as the gate runner builds it, a program's as the code gate does. */
function configOf(b: EvidenceBundle, name: PaceGateName): PaceConfig {
  if (b.kind === 'prompt') return paceConfigFor({ gate: b.gate as GateSpec, scores: b.scores }, name);
  const g = b.gate;
  return paceConfig(name, { alpha: g.alpha, scores: 'continuous', schedule: g.schedule, population: g.population, ...(g.horizon === undefined ? {} : { horizonT: g.horizon }) });
}

/** What a rerun from the cache must reproduce: the same steps (items, Δ, wealth) and decision. */
export function sameEvidence(recorded: EvidenceBundle, rerun: Pick<EvidenceBundle, 'steps' | 'decision' | 'threshold'>): string[] {
  const problems: string[] = [];
  if (!close(recorded.threshold, rerun.threshold)) problems.push(`threshold: recorded ×${recorded.threshold}, the rerun faced ×${rerun.threshold}`);
  const n = Math.max(recorded.steps.length, rerun.steps.length);
  for (let i = 0; i < n; i++) {
    const a = recorded.steps[i];
    const b = rerun.steps[i];
    if (!a || !b || a.itemId !== b.itemId || !close(a.delta, b.delta) || !close(a.logWealth, b.logWealth)) {
      problems.push(`step ${i + 1}: recorded ${a ? `${a.itemId} Δ ${a.delta}` : 'nothing'}, the rerun gives ${b ? `${b.itemId} Δ ${b.delta}` : 'nothing'}`);
      break;
    }
  }
  if (recorded.decision.decision !== rerun.decision.decision || recorded.decision.reason !== rerun.decision.reason) {
    problems.push(`decision: recorded ${recorded.decision.decision} (${recorded.decision.reason}), the rerun gives ${rerun.decision.decision} (${rerun.decision.reason})`);
  }
  return problems;
}
