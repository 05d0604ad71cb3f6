/**
 * The engines' value types that journaled events carry. They live here, under the journal, so the
 * run's record (events.ts) depends on nothing above it: the prompt loop, code search and the
 * zero-data rounds import these from the journal, never the other way round.
 */
import type { Role } from '../llm/types';

/** One role's model as a run reports it (`run/started`), and the lens shows it before a run. */
export interface RoleModel {
  role: Role;
  model: string | undefined;
  from: string;
}

/**
 * How far a code search's evaluation was isolated from the machine (src/core/code/isolation.ts says
 * what each means): `jail` (bubblewrap), `namespaces` (its own process tree, no network),
 * `none` (nothing the machine could offer), `off` (`evaluator.isolation: off`).
 */
export const ISOLATION_TIERS = ['jail', 'namespaces', 'none', 'off'] as const;
export type IsolationTier = (typeof ISOLATION_TIERS)[number];

/** The isolation one evaluation had: its tier, and the network its spec asked for. */
export interface EvaluationIsolation {
  tier: IsolationTier;
  network: 'off' | 'on';
}

/** JSON-safe metric values the evaluator reports as public (shown to the proposer). */
export type MetricValue = number | string | boolean | null;

/** Why a block (or a task the Challenger was asked for) did not become a task. */
export const DISCARD_REASONS = ['missingTag', 'unclosedTag', 'notJson', 'missingVariable', 'empty', 'overLength'] as const;

export type FormatDiscardReason = (typeof DISCARD_REASONS)[number];

/** How the Challenger's task JSON had to be repaired to be read (zero/jsonRepair.ts). */
export const JSON_REPAIRS = ['fence', 'label', 'comment', 'trailingComma', 'lineBreak', 'other'] as const;
export type JsonRepair = (typeof JSON_REPAIRS)[number];

export interface HistogramBin {
  lo: number;
  hi: number;
  count: number;
}

export const PAIR_TYPES = ['roleAsymmetry', 'amplification'] as const;

export type PairType = (typeof PAIR_TYPES)[number];

/**
 * right: every decisive verdict agrees; wrong: every one disagrees; split: one each; tie: none
 * decisive; abstained: none decisive and the judge gave no verdict in an order (#25) — not a tie.
 */
export type PairJudgement = 'right' | 'wrong' | 'split' | 'tie' | 'abstained';

export interface Reliability {
  type: PairType;
  /** Pairs judged, ties included. */
  pairs: number;
  right: number;
  wrong: number;
  split: number;
  /** Pairs with two tie verdicts: dropped from the rate. */
  ties: number;
  /** Pairs the judge gave no verdict on in either order, asked twice: dropped from the rate, and not ties. Absent when none. */
  abstained?: number;
  /** Mean pair score over the pairs not dropped; undefined when every pair was a tie (or none judged). */
  agreement: number | undefined;
  /** 95 % Wilson interval of the agreement; [0, 1] when there is none. */
  lo: number;
  hi: number;
}

export interface Exemplar {
  pairId: string;
  type: PairType;
  /** How the judge got it wrong: in both orders, or in one. */
  judgement: Extract<PairJudgement, 'wrong' | 'split'>;
  task: string;
  better: string;
  worse: string;
  /** The slot the better response is shown in. */
  betterSlot: 'A' | 'B';
}
