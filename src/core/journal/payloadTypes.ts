/**
 * The engines' value types that journaled events carry. They live here, under the journal, so the
 * run's record (events.ts) depends on nothing above it: the prompt loop, code search and the
 * zero-data rounds import these from the journal, never the other way round.
 */
import type { Schedule } from '../gates/record';
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

/** A generated task as a `zero/round` event lists it; `id` is the dataset loader's id for its variables. */
export interface ZeroTaskInfo {
  id: string;
  text: string;
  difficulty: number;
  dispersion: number;
}

export type RunMode = 'suggest' | 'autopilot';
/** `judge`: one candidate text against a file's current text, tested once (core/judgeEdit). */
export type RunKind = 'evolve' | 'search' | 'evaluate' | 'gen-data' | 'judge';

export interface RunSummaryInfo {
  kind: RunKind;
  /** Workspace-relative (or absolute, from the CLI) path of the file under evolution. */
  target: string;
  gate: string;
  alpha: number;
  /**
   * The run-level schedule (core/gates/schedules.ts): with the gate and α it says what the run
   * guarantees (core/gates/guarantee.ts). Absent from journals written before runs said it.
   */
  schedule?: Schedule;
  mode: RunMode;
  seed: number;
  /** The limits the run declared, so a face can show how much of each is used. */
  budget?: { llmCalls?: number; tokens?: number; dollars?: number; wallMs?: number; candidates?: number };
  /**
   * What the run expects to spend, upper-ish (run/estimate.ts): dollars when every model it calls
   * has a price, else the unpriced model ids.
   */
  estimate?: { calls: number; tokens: number; dollars?: number; unpriced?: string[] };
  /** The model each role the run calls uses, and where that was chosen (run/modelChoice.ts), said before the first call. */
  models?: RoleModel[];
  /** A dev-set generation (gen-data): how many zero-data rounds it writes, so a face can say "round 1 of 2". */
  rounds?: number;
}

/** Code search: what `candidate/proposed` says of a proposed program beyond its text. */
export interface ProposedProgram {
  island: number;
  generation: number;
  /** How it was made from its parent: a SEARCH/REPLACE diff, a full rewrite, or a crossover. */
  kind: 'diff' | 'full' | 'cross';
  /** The proposer model the bandit picked (absent when the run has one proposer model and names none). */
  model?: string;
  /** The proposer's <DESCRIPTION> (its <NAME> is `reasoning`). */
  description?: string;
}

/** One dataset item as a run's journal records it (`dataset/loaded`). */
export interface DatasetItemInfo {
  itemId: string;
  /** The template variables' values, joined: what the item asks, in one line. */
  input: string;
  split: 'feedback' | 'dev' | 'test';
  /** The label as text. */
  expected?: string;
  /** The template variables, each as text. */
  vars?: Record<string, string>;
}

/** One task of a Slurm array job as `slurm/submitted` lists it. */
export interface SlurmTaskInfo {
  index: number;
  /** The evaluation's key: the same program on the same instances through the same evaluator. */
  key: string;
  /** The shard's instance ids; absent for a whole evaluation. */
  instances?: string[];
}

/** A mean score with a 95 % interval. */
export interface ScoreInterval {
  mean: number;
  lo: number;
  hi: number;
}
