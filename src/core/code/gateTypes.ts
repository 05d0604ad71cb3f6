/**
 * What the code-search gate (gate.ts) is given and what it answers: the programs it compares, the
 * evaluator calls it makes, the context a test runs in, and the result it returns.
 */
import type { CodeGateName } from '../gates/gateTable';
import type { PaceStep } from '../gates/pace';
import type { DecisionRecord, Population, Schedule } from '../gates/record';
import type { RunLedger } from '../gates/thresholds';
import type { ProgramComparison, ProgramView } from './programJudge';
import type { ChatMessage, ChatResponse } from '../llm/types';

export interface ProgramRef {
  id: string;
  /** Content hash: seeds the child's instance order and keys the score cache. */
  hash: string;
}

/** One evaluator call on some instances: every requested instance scored, or the program is incorrect. */
export type ShardOutcome = { correct: true; scores: Readonly<Record<string, number>> } | { correct: false; error: string };

export type ShardEvaluator = (program: ProgramRef, instanceIds: readonly string[], signal: AbortSignal) => Promise<ShardOutcome>;

/**
 * Starts a program's shards all at once (one cluster submission); element i settles with shard i's
 * outcome, in whatever order they finish. Aborting the signal cancels every shard not yet settled.
 */
export type ShardBatchEvaluator = (program: ProgramRef, shards: readonly (readonly string[])[], signal: AbortSignal) => readonly Promise<ShardOutcome>[];

export interface CodeGateSpec {
  name: CodeGateName;
  alpha: number;
  schedule: Schedule;
  horizon?: number;
  population: Population;
}

export interface CodeGateContext {
  gate: CodeGateSpec;
  runSeed: number;
  /** The evaluator's instance ids (for a single noisy score: its repeated seeds). */
  instances: readonly string[];
  /** The range every instance score lies in, declared by the run spec; Δ is scaled by it. */
  range: { lo: number; hi: number };
  /** Instances per evaluator call; `instances.length` when the evaluator runs whole. */
  shardSize: number;
  /** Evaluator calls of one test running at once. */
  parallelShards: number;
  evaluate: ShardEvaluator;
  /** A backend that takes a program's shards in one submission; when given, it runs every shard instead of `evaluate`. */
  evaluateBatch?: ShardBatchEvaluator;
  /** Per-instance scores already known, by program hash (the parent's, from earlier tests). */
  cache: ScoreCache;
  /** Each e-process step as it happens (the journal's `wealth/step`). */
  onStep?: (instanceId: string, step: PaceStep) => Promise<void>;
  /** The validator, for gate `pairwise` (required by it, unread by the others). */
  pairwise?: PairwiseValidator;
  signal: AbortSignal;
}

/** What gate `pairwise` asks the validator with, and how it shows it a program. */
export interface PairwiseValidator {
  /** One judge call: the validator role's chat, seeded by the caller. */
  ask(messages: ChatMessage[], signal: AbortSignal): Promise<ChatResponse>;
  /** One line: the program file and what its evaluator scores. */
  task: string;
  /** A program as the validator sees it, given its scores on every instance. */
  view(program: ProgramRef, scores: ReadonlyMap<string, number>): ProgramView;
}

export interface ScoreCache {
  get(hash: string, instanceId: string): number | undefined;
  set(hash: string, instanceId: string, score: number): void;
}

export interface CodeGateResult {
  record: DecisionRecord;
  ledgerAfter: RunLedger;
  /** The child's scores measured in this test, by instance. */
  childScores: Map<string, number>;
  /** Why the child is incorrect, when a shard said so. */
  incorrect?: string;
  /** Instances the evaluator ran, child and parent (cached parent scores not counted). */
  evaluations: { child: number; parent: number };
  /** Gate `pairwise`: the validator's both-order comparison of a correct child with its parent. */
  comparison?: ProgramComparison;
}
