/**
 * The panel's wire contract, written once and imported by both ends: the extension host
 * (src/extension/panel) posts `HostMessage`s, the webview (webview/) posts `ViewMessage`s. Both
 * sides switch over `type` with `assertNever` in the default branch, so adding a message without
 * handling it on both ends does not compile.
 *
 * Flow: the view posts `view/ready` once its script runs; the host answers with a full
 * `run/snapshot`; later changes arrive as `run/events` batches, which the view folds with the
 * same code the host used to build the snapshot (src/protocol/runState.ts).
 */
import type { Decision, DecisionReason, DecisionRecord, GateName } from '../core/gates/record';
import type { CostReport, Role } from '../core/llm/types';
import type { EngineEvent, EventOf, RunSummaryInfo, ScoreInterval } from '../core/run/events';
import type { HistogramBin } from '../core/zero/dispersion';
import type { Exemplar } from '../core/zero/exemplars';
import type { Reliability } from '../core/zero/reliability';
import type { ProgramDetail, ProgramsState } from './programs';
import type { ResultCell, ResultsFilter, ResultsTable } from './results';

// ---------------------------------------------------------------------------------------------
// What the panel folds: the engine's events.

/** One candidate's ratings (GATES.md 7), as the engine's `ratings` event carries them: online Elo,
 * the Bradley–Terry refit on the Elo scale with its 95 % interval (lo, hi), and the probability
 * that parent selection picks it next (selectP). */
export type CandidateRating = EventOf<'ratings'>['ratings'][number];

/** Everything the panel folds: the engine's events. */
export type PanelEvent = EngineEvent;

// ---------------------------------------------------------------------------------------------
// The folded run state (the snapshot). Only light data: texts from an LLM or a file (candidate
// texts, outputs, rationales, inputs) stay on the host and travel on demand as `Evidence`.

export type RunStatus = 'pending' | 'running' | 'finished' | 'failed' | 'cancelled';

export interface CandidateNode {
  id: string;
  parentId: string | undefined;
  at: number;
  contentHash: string;
  decision?: Decision;
  reason?: DecisionReason;
  /** Set when the edit reached the file (autopilot or the user's Accept). */
  applied?: 'autopilot' | 'user';
  /** The user rejected the suggestion in the editor. */
  userRejected?: boolean;
  /** A budget ran out while it was under test: no decision was made (which budget). */
  stoppedBy?: string;
}

/** Counts of a candidate's pairwise-validator verdicts; a pair is one item judged in both orders. */
export interface VerdictTally {
  child: number;
  parent: number;
  tie: number;
  /** Judgements without a verdict (the judge did not answer, asked twice): never ties. Absent when none. */
  abstained?: number;
  agreed: number;
  disagreed: number;
}

export interface DecisionRow {
  /** Position in the run's decision sequence (stable across filtering). */
  seq: number;
  at: number;
  candidateId: string;
  parentId: string | undefined;
  incumbentId: string | undefined;
  gate: GateName;
  decision: Decision;
  reason: DecisionReason;
  alpha: number;
  threshold: number;
  logWealth: number;
  itemsConsumed: number;
  wins: number;
  losses: number;
  ties: number;
  /** Items the judge did not answer for, left out of the test (DecisionRecord.unjudged). */
  unjudged?: number;
  /** The judge's answers in this test and how many it did not give (DecisionRecord.judge). */
  judge?: { answers: number; abstained: number; model?: string };
  statistic?: Record<string, number>;
  rubricVersion?: number;
  verdicts?: VerdictTally;
}

/** One discordant pair of a candidate's e-process (ties are counted, not kept). */
export type WealthStep = Omit<EventOf<'wealth/step'>, 'type' | 'runId' | 'at' | 'candidateId'>;

export interface WealthTrace {
  candidateId: string;
  steps: WealthStep[];
  ties: number;
  decision?: Decision;
  /** The threshold its decision was taken against (a factor, ×20): known even with no discordant pair. */
  threshold?: number;
}

export interface RoleSample {
  calls: number;
  tokens: number;
  dollars?: number;
}

/** Cumulative cost at one moment. */
export interface CostSample {
  at: number;
  byRole: Record<Role, RoleSample>;
}

export interface LogLine {
  at: number;
  level: 'info' | 'warn';
  message: string;
}

/**
 * One zero-data round as the Zero-data tab draws it (`zero/round`): what the Challenger wrote and
 * why tasks were dropped, how many were kept and held out, the histograms and the judge's
 * reliability. Counts only: the tasks' and the exemplars' texts stay on the host (`zero/request`).
 */
export interface ZeroRoundRow {
  round: number;
  at: number;
  requested: number;
  written: number;
  discarded: EventOf<'zero/round'>['discarded'];
  /** How the Challenger's JSON was repaired, by kind (absent: nothing was). */
  repaired?: EventOf<'zero/round'>['repaired'];
  kept: number;
  heldOut: number;
  tooEasy: number;
  tooHard: number;
  difficultyHistogram: HistogramBin[];
  dispersionHistogram: HistogramBin[];
  reliability: Reliability[];
  /** Worked examples chosen for the next round's judge, and how many this round's judge was shown. */
  exemplars: number;
  exemplarsUsed: number;
  heldOutScore?: ScoreInterval & { n: number };
}

export interface RunState {
  runId: string;
  info: RunSummaryInfo | undefined;
  /**
   * The file the user started the run on, known from the moment they asked (RunStore.begin), before
   * the run's first event says its `info`: the panel shows the new run at once, as starting.
   */
  requestedTarget?: string;
  status: RunStatus;
  resumed: boolean;
  startedAt: number | undefined;
  lastAt: number | undefined;
  endedAt: number | undefined;
  error: { code: string; message: string } | undefined;
  incumbentId: string | undefined;
  finished: { commits: number; candidates: number } | undefined;
  llmCalls: number;
  cost: CostReport | undefined;
  costSamples: CostSample[];
  candidates: Record<string, CandidateNode>;
  candidateOrder: string[];
  decisions: DecisionRow[];
  /** Oldest decision rows dropped to keep memory bounded (LIMITS.feedRows). */
  droppedDecisions: number;
  wealth: Record<string, WealthTrace>;
  wealthOrder: string[];
  /** The candidate whose test is running (or ran last). */
  activeCandidateId: string | undefined;
  verdicts: Record<string, VerdictTally>;
  /** First verdict of an item judged in one order, waiting for the other order. */
  pendingVerdicts: Record<string, EventOf<'verdict'>['winner']>;
  /**
   * The judge's answers over every decision so far, and how many it did not give (#25): the
   * header's "the judge did not answer 70 of 72 times". Absent until a test asked the judge.
   */
  judge?: { answers: number; abstained: number; model?: string };
  ratings: CandidateRating[];
  rubric: { version: number; text: string; why?: string } | undefined;
  /** The held-out test split, scored once at the end (GATES.md 4.8: report this, not dev gains). */
  testReport: Omit<EventOf<'report/test'>, 'type' | 'runId' | 'at'> | undefined;
  logs: LogLine[];
  /** The latest LLM wait (rate limit or retry backoff); a face shows it while `until` is ahead. */
  waiting?: { why: 'rate-limited' | 'retry'; until: number; message: string };
  /** Code search: every program, failed proposal and migration (empty for other runs). */
  programs: ProgramsState;
  /** Zero-data rounds, in round order (a dev-set generation, an evolve run without a dataset; empty otherwise). */
  zeroRounds: ZeroRoundRow[];
  eventCount: number;
  skippedEvents: number;
}

export interface RunListEntry {
  runId: string;
  target: string | undefined;
  status: RunStatus;
  startedAt: number | undefined;
  /**
   * Set when the server lists the run as interrupted: its events never said it ended and no process
   * runs it any more. Only such a run can be resumed; its folded status still reads `running`.
   */
  interrupted?: true;
}

// ---------------------------------------------------------------------------------------------
// Evidence for one decision, built by the host on request from the texts it keeps.

export interface JudgeView {
  winner: EventOf<'verdict'>['winner'];
  rationale?: string;
  /** Why no verdict was read, when the judge abstained. */
  problem?: string;
  /** The judge's reasoning, shown folded. */
  thinking?: string;
}

export interface EvidenceItem {
  itemId: string;
  /** 1-based position in the pre-fixed item order, when the e-process saw it. */
  k?: number;
  input?: string;
  incumbentOutput?: string;
  candidateOutput?: string;
  /** Candidate score minus incumbent score (−1/+1 for binary outcomes). */
  delta?: number;
  /** `unjudged`: the judge gave no verdict in one order or both (asked twice), so the item was left out. */
  winner: 'candidate' | 'incumbent' | 'tie' | 'unjudged';
  /** Pairwise gates: the validator's verdict with the child in slot A, and with the parent in slot A. */
  childFirst?: JudgeView;
  parentFirst?: JudgeView;
  /** Both orders named the same winner (an inconsistent pair counts as a tie). */
  agreed?: boolean;
}

export interface Evidence {
  runId: string;
  candidateId: string;
  parentId: string | undefined;
  incumbentId: string | undefined;
  record: DecisionRecord | undefined;
  reasoning?: string;
  /** The proposer's reasoning section (its model's thinking), shown folded; never read for the prompt. */
  thinking?: string;
  rubric?: { version: number; text: string };
  candidateText: string;
  parentText?: string;
  items: EvidenceItem[];
  /** Items left out to keep the message small. */
  omittedItems: number;
}

// ---------------------------------------------------------------------------------------------
// UI choices the webview persists with setState (never run data).

export const TABS = ['programs', 'zero', 'verdicts', 'evidence', 'results', 'ratings', 'lineage', 'cost'] as const;
export type TabId = (typeof TABS)[number];
export type DecisionFilter = 'all' | 'commit' | 'reject';
export type CostMetric = 'calls' | 'tokens' | 'dollars';

export interface UiState {
  v: 1;
  runId?: string;
  tab: TabId;
  filter: DecisionFilter;
  /** The decision whose evidence is open (and whose wealth is drawn next to the live one). */
  candidateId?: string;
  costMetric: CostMetric;
  /** Code search: the program open in the Programs view. */
  programId?: string;
  /** Code search: the Score-over-time x axis (evaluation order, or wall time since the start). */
  programsAxis?: ProgramsAxis;
  /** Zero-data: the round whose histograms and exemplars are open (the latest when unset). */
  zeroRound?: number;
}

export type ProgramsAxis = 'index' | 'time';

// ---------------------------------------------------------------------------------------------
// Messages.

/** Host → view. */
export type HostMessage =
  | { type: 'run/snapshot'; runs: RunListEntry[]; run: RunState | undefined }
  | { type: 'run/events'; runId: string; events: PanelEvent[] }
  | { type: 'runs/updated'; runs: RunListEntry[] }
  | { type: 'evidence/show'; evidence: Evidence }
  | { type: 'evidence/missing'; runId: string; candidateId: string; why: string }
  /**
   * The editor's Evidence command (a suggestion's lens, a decision in the Runs view): select this
   * run's decision on `candidateId` in the verdict feed and open its evidence. Posted after the
   * run's `run/snapshot`; the host holds it until the view has said `view/ready`.
   */
  | { type: 'focus'; runId: string; candidateId: string }
  /** The Results view's table, built from the run's journal, answering `results/request`. */
  | { type: 'results/show'; table: ResultsTable }
  /** One Results cell's output, answering `results/cell`. */
  | { type: 'results/cell'; cell: ResultCell }
  /** One program of a code search with its texts and its gate's evidence, answering `program/request`. */
  | { type: 'program/show'; detail: ProgramDetail }
  | { type: 'program/missing'; runId: string; programId: string; why: string }
  /**
   * A zero-data round's exemplars (the judge's worked examples, LLM text) answering `zero/request`;
   * `why` says why there are none to show when the host does not hold the round.
   */
  | { type: 'zero/exemplars'; runId: string; round: number; exemplars: Exemplar[]; why?: string }
  /**
   * A code search's evaluator load changed (its live status, never journaled): the Throughput
   * section's slot timeline is made of these, so it covers only what this window saw.
   */
  | ({ type: 'programs/load'; runId: string } & EvaluatorLoadSample);

/** How many evaluations ran at `at`, of `slots`. */
export interface EvaluatorLoadSample {
  at: number;
  busy: number;
  slots: number;
}

/** View → host. Cancel and Resume are requests: the host forwards them to the engine. */
export type ViewMessage =
  | { type: 'view/ready'; runId: string | undefined }
  | { type: 'run/select'; runId: string }
  | { type: 'run/cancel'; runId: string }
  | { type: 'run/resume'; runId: string }
  | { type: 'evidence/request'; runId: string; candidateId: string }
  /** Code search: one program's texts, evaluation and evidence (the Programs view's detail). */
  | { type: 'program/request'; runId: string; programId: string }
  /** Zero-data: one round's exemplars with their texts (the Zero-data tab's worked examples). */
  | { type: 'zero/request'; runId: string; round: number }
  | { type: 'candidate/open'; runId: string; candidateId: string; as: 'text' | 'diff' }
  | { type: 'results/request'; runId: string }
  | { type: 'results/cell'; runId: string; itemId: string; versionId: string }
  /** Save the rows the filter keeps, with outputs, to a file the user picks. */
  | { type: 'results/export'; runId: string; format: 'csv' | 'json'; filter: ResultsFilter }
  /** The panel's "How Ratchet decides" link: the host opens the page shipped with the extension. */
  | { type: 'docs/open' }
  | { type: 'view/error'; message: string };

export type HostMessageType = HostMessage['type'];
export type ViewMessageType = ViewMessage['type'];
