/**
 * How a run stands, once (issue #27). Every word for a run's state elsewhere derives from this
 * table: the daemon's live status (`LiveRunState`, runStatus.ts), a listing's status read from a
 * journal on disk (`ListedRunStatus`, listRuns.ts), the panel's status folded from events
 * (`PanelRunStatus`, panelState/types.ts), whether a state is over, whether it can be resumed, and
 * the word the Runs view, the panel and the CLI show for it. A test
 * (test/unit/literalLists.test.ts) fails when a list of these words is spelled anywhere else.
 *
 * Each face can tell only some of the words: events alone never say `waiting-for-you` or
 * `interrupted` (the daemon's pushed status does), a journal on disk never says `waiting-for-you`
 * (only the daemon knows) but can be `corrupt`, and only the panel has a run it asked for whose
 * `run/started` it has not folded yet (`pending`).
 *
 * Pure: no imports, so every layer (the webview included) can read it.
 */

/**
 * Whether a run in this state can go on from its journal (`ratchet/resumeRun`, "Resume Run"):
 * `if-endpoint-failed` when its error was the endpoint's (`isResumableFailure` in events.ts).
 */
export type RunResumable = 'always' | 'never' | 'if-endpoint-failed';

export interface RunStateRow {
  readonly name: string;
  /** What it means, in words. */
  readonly meaning: string;
  /** Over: nothing of the run goes on. */
  readonly terminal: boolean;
  readonly resumable: RunResumable;
  /** The word the Runs view, the panel's run picker and `ratchet runs list` show for it. */
  readonly label: string;
  /** The daemon's live status can say it (`LiveRunState`). */
  readonly live: boolean;
  /** A listing read from a journal on disk can say it (`ListedRunStatus`). */
  readonly listed: boolean;
  /** The panel's fold of a run's events can say it (`PanelRunStatus`). */
  readonly panel: boolean;
}

export const RUN_STATE_TABLE = [
  {
    name: 'pending',
    meaning: 'asked for, but its run/started event has not been folded yet',
    terminal: false,
    resumable: 'never',
    label: 'pending',
    live: false,
    listed: false,
    panel: true,
  },
  {
    name: 'running',
    meaning: 'going on',
    terminal: false,
    resumable: 'never',
    label: 'running',
    live: true,
    listed: true,
    panel: true,
  },
  {
    name: 'waiting-for-you',
    meaning: 'a gated suggestion waits for your Accept or Reject',
    terminal: false,
    resumable: 'never',
    label: 'waiting for you',
    live: true,
    listed: false,
    panel: false,
  },
  {
    name: 'finished',
    meaning: 'ended by its own end (done, or a budget ran out)',
    terminal: true,
    resumable: 'never',
    label: 'finished',
    live: true,
    listed: true,
    panel: true,
  },
  {
    name: 'failed',
    meaning: 'ended by an error',
    terminal: true,
    resumable: 'if-endpoint-failed',
    label: 'failed',
    live: true,
    listed: true,
    panel: true,
  },
  {
    name: 'cancelled',
    meaning: 'cancelled by the user',
    terminal: true,
    resumable: 'never',
    label: 'cancelled',
    live: true,
    listed: true,
    panel: true,
  },
  {
    name: 'interrupted',
    meaning: 'stopped with no terminal event (its process ended)',
    terminal: true,
    resumable: 'always',
    label: 'interrupted',
    live: true,
    listed: true,
    panel: false,
  },
  {
    name: 'corrupt',
    meaning: 'its journal cannot be read',
    terminal: true,
    resumable: 'never',
    label: 'corrupt',
    live: false,
    listed: true,
    panel: false,
  },
] as const satisfies readonly RunStateRow[];

type Row = (typeof RUN_STATE_TABLE)[number];

/** Every word for how a run stands. */
export type RunStateName = Row['name'];
/** What the daemon's live status can say (runStatus.ts). */
export type LiveRunState = Extract<Row, { live: true }>['name'];
/** What a listing read from a journal on disk can say (listRuns.ts). */
export type ListedRunStatus = Extract<Row, { listed: true }>['name'];
/** What the panel's fold of a run's events can say (panelState/types.ts). */
export type PanelRunStatus = Extract<Row, { panel: true }>['name'];
/** The states in which the run is over. */
export type TerminalRunState = Extract<Row, { terminal: true }>['name'];

/** Every state's name, in the table's order. */
export const RUN_STATE_NAMES: readonly RunStateName[] = RUN_STATE_TABLE.map((row) => row.name);

export function runStateRow(name: RunStateName): Row {
  return RUN_STATE_TABLE.find((row) => row.name === name)!;
}

export function isTerminalRunState(name: RunStateName): name is TerminalRunState {
  return runStateRow(name).terminal;
}

/** The word shown for a state: "waiting for you", else the state's name. */
export function runStateLabel(name: RunStateName): string {
  return runStateRow(name).label;
}
