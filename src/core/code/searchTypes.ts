/**
 * What a code search (search.ts) is given and what it gives back: its options, the programs it
 * tells of as it commits them (bestOffer.ts listens), and its outcome.
 */
import type { LlmClient, Random } from '../ports';
import type { EngineEvent } from '../journal/events';
import type { EventPayload } from '../journal/control';
import type { ProgramBatchEvaluator, ProgramEvaluator } from './evaluations';
import type { CodeRunSpec } from './spec';

export interface SearchOptions {
  spec: CodeRunSpec;
  /** The file's text when the run starts: the seed program. */
  seedText: string;
  llm: LlmClient;
  evaluate: ProgramEvaluator;
  /** Evaluates a sharded test's shards together (a cluster backend); absent: shard by shard through `evaluate`, as the gate asks. */
  evaluateShards?: ProgramBatchEvaluator;
  /** Which budget of the evaluations' own (budget.clusterHours) is spent, in words; undefined while none is. */
  evaluationBudget?: () => string | undefined;
  random: Random;
  emit: (e: EventPayload<EngineEvent>) => Promise<void>;
  signal: AbortSignal;
  /** Told of the programs the run commits, to offer its best to the user (bestOffer.ts); absent: nobody is told. */
  committed?: CommittedPrograms;
}

/** A program the run committed: its starting program (when correct), or a child the gate committed. */
export interface CommittedProgram {
  id: string;
  text: string;
  score: number;
}

export interface CommittedPrograms {
  /** Each committed program once its events are journaled, in the run's order; the search waits only for this call. */
  committed(program: CommittedProgram): Promise<void>;
  /** Before the run finishes: resolves once nothing the run offered still waits (throws when the run is cancelled meanwhile). */
  settled(): Promise<void>;
}

export interface SearchOutcome {
  best: { id: string; text: string; score: number | undefined };
  seedScore: number | undefined;
  proposals: number;
  /** Evaluator runs, seed included. */
  evaluations: number;
  commits: number;
  /** Fix mode: islands whose broken seed a child repaired (each a change to keep, though no test decided it). */
  repairs: number;
  /** Why the search stopped before its proposals were spent, in one sentence (with its full stop); undefined when it used them all. */
  stopped?: string;
}
