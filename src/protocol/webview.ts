/**
 * The panel's wire contract, written once and imported by both ends: the extension host
 * (src/extension/panel) posts `HostMessage`s, the webview (webview/) posts `ViewMessage`s. Both
 * sides switch over `type` with `assertNever` in the default branch, so adding a message without
 * handling it on both ends does not compile.
 *
 * Flow: the view posts `view/ready` once its script runs; the host answers with a full
 * `run/snapshot`; later changes arrive as `run/events` batches, which the view folds with the
 * same code the host used to build the snapshot (src/panelState/runState.ts).
 */
import type { DecisionRecord } from '../core/gates/record';
import type { EventOf } from '../core/journal/events';
import type { Exemplar } from '../core/journal/payloadTypes';
import type { ResultCell, ResultsFilter, ResultsTable } from '../panelState/results';
import type { PanelRunStatus } from '../core/journal/runStates';
import type { PanelEvent, RunState } from '../panelState/types';
import type { ProgramDetail } from '../panelState/types';

export interface RunListEntry {
  runId: string;
  target: string | undefined;
  status: PanelRunStatus;
  startedAt: number | undefined;
  /**
   * Set when the server lists the run as interrupted: its events never said it ended and no process
   * runs it any more. Only such a run can be resumed; its folded status still reads `running`.
   */
  interrupted?: true;
  /**
   * Set while the run's status says its own work is done and it waits only for the user's answer
   * to its suggestion (runStatus.ts `waitsOnlyForYou`): the header offers no Cancel then.
   */
  waitsOnlyForYou?: true;
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
