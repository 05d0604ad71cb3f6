/**
 * The panel's state: what src/panelState folds from the engine's events and what the snapshot
 * carries to the view. The wire contract (src/protocol/webview.ts) names these types; they live
 * here, below it, so the folds never import the wire.
 */
import type { Decision, DecisionReason, DecisionRecord } from '../core/gates/record';
import type { CostReport, Role } from '../core/llm/types';
import type { EngineEvent, EventOf } from '../core/journal/events';
import type { RunSummaryInfo, ScoreInterval } from '../core/journal/payloadTypes';
import type { HistogramBin, MetricValue, Reliability } from '../core/journal/payloadTypes';
import type { PanelRunStatus } from '../core/journal/runStates';
import type { ClusterTasks } from './clusterTasks';

// ---------------------------------------------------------------------------------------------
// What the panel folds: the engine's events.

/** One candidate's ratings (GATES.md 7), as the engine's `ratings` event carries them: online Elo,
 * the Bradley–Terry refit on the Elo scale with its 95 % interval (lo, hi), and the probability
 * that parent selection picks it next (selectP). */
export type CandidateRating = EventOf<'ratings'>['ratings'][number];

/**
 * What the editor saw rather than what the engine did: the file's text went back to exactly what
 * it was before an applied edit (Ctrl+Z: `undone`), or forward to the edit again (Ctrl+Y). Never
 * journaled and never numbered: the file itself is the record, looked at again when a window
 * loads the run (src/extension/runs/undoneEdits.ts).
 */
export interface EditUndoneEvent {
  type: 'edit/undone';
  runId: string;
  at: number;
  seq?: undefined;
  candidateId: string;
  undone: boolean;
}

/** Everything the panel folds: the engine's events, and what the editor saw become of an applied edit. */
export type PanelEvent = EngineEvent | EditUndoneEvent;

// ---------------------------------------------------------------------------------------------
// The folded run state (the snapshot). Only light data: texts from an LLM or a file (candidate
// texts, outputs, rationales, inputs) stay on the host and travel on demand as `Evidence`.

export interface CandidateNode {
  id: string;
  parentId: string | undefined;
  at: number;
  contentHash: string;
  decision?: Decision;
  reason?: DecisionReason;
  /** Set when the edit reached the file (autopilot or the user's Accept). */
  applied?: 'autopilot' | 'user';
  /** The applied edit was taken back in the editor: the file holds the text it replaced (an `edit/undone`). */
  undone?: boolean;
  /** The user rejected the suggestion in the editor. */
  userRejected?: boolean;
  /** The run offered it in the editor (a `suggestion`): a commit it never offered waits for nobody. */
  suggested?: boolean;
  /** The run took its suggestion back unanswered: a newer best superseded it, or the file had changed. */
  withdrawn?: 'superseded' | 'stale';
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

/** A decision as the panel lists it: the record's fields it shows (DecisionRecord says what each is), where it stands and when. */
export interface DecisionRow extends Pick<
  DecisionRecord,
  'candidateId' | 'parentId' | 'incumbentId' | 'gate' | 'decision' | 'reason' | 'alpha' | 'threshold' | 'logWealth' | 'itemsConsumed' | 'wins' | 'losses' | 'ties' | 'unjudged' | 'judge' | 'statistic' | 'rubricVersion'
> {
  /** Position in the run's decision sequence (stable across filtering). */
  seq: number;
  at: number;
  verdicts?: VerdictTally;
}

/** One discordant pair of a candidate's e-process (ties are counted, not kept). */
export type WealthStep = Omit<EventOf<'wealth/step'>, 'type' | 'runId' | 'at' | 'candidateId'>;

export interface WealthTrace {
  candidateId: string;
  steps: WealthStep[];
  ties: number;
  /** Items consumed without an outcome: the judge did not answer (not ties). Absent when none. */
  unjudged?: number;
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
  /**
   * The run as its events tell it (core/journal/runStates.ts): `pending` before its `run/started`
   * is folded; never `waiting-for-you` or `interrupted`, which only the daemon's pushed status says.
   */
  status: PanelRunStatus;
  resumed: boolean;
  startedAt: number | undefined;
  lastAt: number | undefined;
  endedAt: number | undefined;
  error: { code: string; message: string } | undefined;
  incumbentId: string | undefined;
  /** `stopped`: why it ended before its budget was spent (run/finished's sentence). */
  finished: { commits: number; candidates: number; stopped?: string } | undefined;
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

export type ProgramKindName = 'seed' | 'diff' | 'full' | 'cross';

export type FailureReason = EventOf<'proposal/failed'>['reason'];

export interface ProgramNode {
  id: string;
  parentId: string | undefined;
  /** When it was proposed (the seed: when the run read it). */
  proposedAt: number;
  /** The island it was proposed on: its lane in the genealogy (a migration moves it, see `migratedTo`). */
  island: number;
  generation: number;
  kind: ProgramKindName;
  /** The proposer model the bandit picked. */
  model?: string;
  /** The proposer's <NAME>. */
  name?: string;
  /** Set once the evaluator's verdict is in: its 1-based place in evaluation order (the Score-over-time x axis). */
  evalIndex?: number;
  evaluatedAt?: number;
  correct?: boolean;
  /** Mean over the instances evaluated (a gate may stop early: fewer instances than the seed's). */
  score?: number;
  instances?: number;
  /** The gate's decision against its island's incumbent; the seed and a repair have none. */
  decision?: Decision;
  reason?: DecisionReason;
  /** A correct seed, a committed child, or a repair that became its island's incumbent. */
  committed: boolean;
  /** It raised the run's best committed score: a point the best-so-far line steps to. */
  newBest?: true;
  /** Islands ring migration moved it to, in order. */
  migratedTo?: number[];
  children: number;
}

export interface FailedProposal {
  /** 1-based, over the run's failed proposals (stable when older ones are dropped). */
  n: number;
  at: number;
  parentId: string;
  island: number;
  kind: 'diff' | 'full' | 'cross';
  attempt: number;
  reason: FailureReason;
  /** Capped at 400 characters; the journal has the whole. */
  message: string;
  model?: string;
}

export interface Migration {
  at: number;
  generation: number;
  programId: string;
  from: number;
  to: number;
}

/** One step of the best-so-far line: from evaluation `evalIndex` on, the best committed score is `score`. */
export interface BestStep {
  evalIndex: number;
  at: number;
  programId: string;
  score: number;
}

export interface ModelTally {
  proposals: number;
  failed: number;
  commits: number;
}

export interface ProgramsState {
  nodes: Record<string, ProgramNode>;
  /** Program ids in proposal order. */
  order: string[];
  /** Program ids in evaluation order: `evaluated[i]` has evalIndex i + 1. */
  evaluated: string[];
  bestSteps: BestStep[];
  failed: FailedProposal[];
  failedDropped: number;
  failedByReason: Partial<Record<FailureReason, number>>;
  migrations: Migration[];
  /** The bandit's picks: proposals per proposer model (the seed's run has none when it names no model). */
  byModel: Record<string, ModelTally>;
  islands: number;
  /** A search whose evaluations run on Slurm: its tasks (clusterTasks.ts); absent for a local one. */
  cluster?: ClusterTasks;
}

/** One instance of a program's gate test: the child's score beside the score of the program it was tested against. */
export interface PairedScore {
  instanceId: string;
  /** 1-based place in the gate's pre-fixed instance order, when the e-process counted the pair. */
  k?: number;
  child: number;
  /** Absent when the run's events never said the opponent's score on this instance. */
  opponent?: number;
  /** The e-process's outcome for the pair (child − opponent on its scale; 0 is a tie). */
  delta?: number;
}

/**
 * One program as the Programs view's detail shows it, built by the host on request
 * (`program/request`) from the texts its journal's events carried. Every string in it came from an
 * LLM, a file or the evaluator: the view sets each as text.
 */
export interface ProgramDetail {
  runId: string;
  programId: string;
  parentId: string | undefined;
  /** The seed's id (the diff "from the seed" is against its text). */
  seedId: string | undefined;
  text: string;
  parentText?: string;
  seedText?: string;
  /** The proposer's <NAME> and <DESCRIPTION>. */
  name?: string;
  description?: string;
  /** The evaluator's verdict; absent while the program is under test. */
  evaluation?: {
    correct: boolean;
    score?: number;
    instances: number;
    metrics?: Record<string, MetricValue>;
    feedback?: string;
    error?: string;
    /** The end of what an incorrect program printed, capped (`omittedOutput` says how much was cut). */
    output?: string;
    omittedOutput?: number;
    /** How far its evaluation was isolated, in words (isolationWords); absent in a run recorded before it was. */
    isolation?: string;
    /** What the sandbox saw: limits hit, processes left, late writes, escapes tried. */
    incidents?: string[];
  };
  /** The gate's decision; the seed and a repair have none. */
  record?: DecisionRecord;
  /** Who the program was tested against (its island's incumbent then; usually its parent). */
  opponentId: string | undefined;
  pairs: PairedScore[];
  /** Pairs left out to keep the message small. */
  omittedPairs: number;
  /** The e-process's wealth, pair by pair, to the 1/α line. */
  wealth: WealthTrace;
}
