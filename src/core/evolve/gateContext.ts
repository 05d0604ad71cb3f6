/** What a gate's test of one candidate is given, and what it returns (gateRunner.ts runs it). */
import type { DataItem } from '../data/item';
import type { GateSpec, ModelSpec } from '../run/specTypes';
import type { EngineEvent } from '../journal/events';
import type { LlmClient } from '../ports';
import type { DecisionRecord } from '../gates/record';
import type { RunLedger } from '../gates/thresholds';
import type { ScoreMode } from '../gates/eprocess';
import type { OutcomeCache } from '../gates/incumbentCache';
import type { Evaluator } from './evaluator';
import type { EventPayload } from '../journal/control';

export type Emit = (e: EventPayload<EngineEvent>) => Promise<void>;

export interface GateContext {
  emit: Emit;
  evaluator: Evaluator;
  llm: LlmClient;
  validator: ModelSpec;
  dev: readonly DataItem[];
  /** The feedback split: what a screened schedule's screen compares on (never the dev items). */
  feedback: readonly DataItem[];
  gate: GateSpec;
  scores: ScoreMode;
  outcomes: OutcomeCache;
  runSeed: number;
  /** Items evaluated at once; the e-process still advances in the pre-fixed order. */
  batchSize: number;
  rubric: { text: string; version: number };
  signal: AbortSignal;
}

export interface TestResult {
  record: DecisionRecord;
  ledgerAfter: RunLedger;
  /** The candidate's outcomes measured in its test: its cache entries if it is committed (4.3). */
  candidateOutcomes: Map<string, number>;
  /** Both-order verdicts (pairwise gates): the child's Elo score against each opponent. */
  matches: { opponentId: string; childScore: number }[];
  /** The judge's rationales in this test, for Adaptive Focus's rubric refresh. */
  rationales: string[];
}
