/**
 * One proposal of a code search (search.ts) from its launch until it is applied: what it was
 * launched with, the child it proposed, the events it holds back, and how it ended.
 */
import type { ChatMessage } from '../llm/types';
import type { Random } from '../ports';
import type { EngineEvent } from '../journal/events';
import type { EventPayload } from '../journal/control';
import type { RunLedger } from '../gates/thresholds';
import type { ProgramRecord } from './database';
import type { CodeGateResult } from './gateTypes';
import type { ProgramEvaluation } from './evaluations';
import type { SearchSpec } from './spec';

export type Payload = EventPayload<EngineEvent>;

export interface Child {
  id: string;
  text: string;
  hash: string;
  island: number;
}

/** One proposal, from its launch until it is applied. */
export interface Proposal {
  /** 1-based, in launch order: seeds its LLM samples and names its child. */
  readonly n: number;
  readonly island: number;
  readonly generation: number;
  readonly parent: Readonly<ProgramRecord>;
  /** Its island's incumbent at launch: the program the child is tested against. */
  readonly incumbent: Readonly<ProgramRecord>;
  readonly kind: 'diff' | 'full' | 'cross';
  /** Its island had no correct program at launch (fix mode): its child is evaluated whole, not tested. */
  readonly repair: boolean;
  readonly model: string;
  readonly messages: ChatMessage[];
  /** The run's ledger as this test may count on it: its own test index, the commits applied before its launch. */
  readonly ledger: RunLedger;
  /** The database's programs at launch and the proposals still in flight then: what its child must differ from. */
  readonly known: readonly Readonly<ProgramRecord>[];
  readonly earlier: readonly Proposal[];
  /** Its child once proposed and found new (undefined: none came of it); later proposals wait on it. */
  readonly child: Promise<Child | undefined>;
  /** Its events, journaled when it is applied. */
  readonly events: Payload[];
  /** What each of its proposer calls cost, told to the bandit when it is applied. */
  readonly costs: number[];
  done: Promise<ProposalResult>;
  /** Its child's evaluations have begun (and are counted by the evaluation budget from here on). */
  evaluating: boolean;
}

export type ProposalResult =
  /** The LLM budget refused its first call: it was never sent. */
  | { kind: 'unsent'; message: string }
  /** No child came of it (no usable answer, a duplicate, a near-copy). */
  | { kind: 'none' }
  | { kind: 'tested'; child: Child; name: string; result: CodeGateResult }
  | { kind: 'repair'; child: Child; evaluation: ProgramEvaluation }
  /** An evaluation budget ran out while its child was evaluated: neither committed nor rejected. */
  | { kind: 'stopped'; child: Child; budget: string; message: string };

/** A proposal's kind, drawn by the spec's mix (search.mix). */
export function drawKind(mix: SearchSpec['mix'], random: Random): Proposal['kind'] {
  const { diff, full, cross } = mix;
  const u = random.next() * (diff + full + cross);
  return u < diff ? 'diff' : u < diff + full ? 'full' : 'cross';
}
