/**
 * The run-level schedules, once (GATES.md 4.5; the default is specified in docs/gates.md,
 * "Run-level default"). A schedule decides the threshold each candidate's e-process must reach,
 * so it decides what a commit means for the whole run: the `Schedule` type, the run-spec schema's
 * enum (`npm run manifest`), the guarantee sentence every face shows (guarantee.ts) and the gate
 * runner's screen and wealth floor all derive from this table.
 */

/** What a run under the schedule controls. */
export type RunLevelControl =
  /** The family-wise error: P(any false commit in the run) ≤ α, so the final prompt is truly better than the start with probability ≥ 1 − α, or unchanged. */
  | 'fwer'
  /** Each candidate: P(this candidate is falsely committed) ≤ α; nothing over the run. */
  | 'candidate'
  /** The false discovery rate: E[false commits / commits] ≤ α. */
  | 'fdr';

export interface ScheduleRow {
  readonly name: string;
  readonly controls: RunLevelControl;
  /** How sentences (pre-flight, the CLI) name its threshold. */
  readonly title: string;
  /** The one line editors show for it (the schema's enumDescriptions). */
  readonly description: string;
  /**
   * A reject-only screen on feedback items before the dev-set test (screen.ts); α is spent only on
   * candidates that pass it, so the ledger counts dev-set tests, not candidates.
   */
  readonly screen: boolean;
  /**
   * A dev-set test also stops, rejected, once its wealth falls below this (reason `floor`). It can
   * only reject, so the guarantee is untouched; it saves the calls a loser spends wandering below 1.
   */
  readonly wealthFloor?: number;
  /** Its thresholds read the declared candidate horizon `gate.horizon` (γ_t = 1/T). */
  readonly horizon: boolean;
}

/** In the order editors list them: the default first. */
export const SCHEDULE_TABLE = [
  {
    name: 'fwer-screened',
    controls: 'fwer',
    title: 'run-level',
    description:
      'Run-level: P(any false commit in the run) ≤ α. A candidate first meets the incumbent on feedback items (a screen that can only reject); α is spent only on those that reach the dev-set test, the j-th needing evidence ×j(j+1)/α.',
    screen: true,
    wealthFloor: 0.2,
    horizon: false,
  },
  {
    name: 'per-candidate',
    controls: 'candidate',
    title: 'per-candidate',
    description: 'Each candidate: P(false commit) ≤ α (evidence ×1/α); no bound over the run, whose false commits add up.',
    screen: false,
    horizon: false,
  },
  {
    name: 'fwer-spend',
    controls: 'fwer',
    title: 'α-spending',
    description: 'Run-level: P(any false commit) ≤ α, α split evenly over gate.horizon candidates (evidence ×horizon/α each).',
    screen: false,
    horizon: true,
  },
  {
    name: 'e-lond',
    controls: 'fdr',
    title: 'e-LOND',
    description: 'Run-level false discovery rate ≤ α (the expected share of false commits among commits), e-LOND over gate.horizon candidates.',
    screen: false,
    horizon: true,
  },
] as const satisfies readonly ScheduleRow[];

export type Schedule = (typeof SCHEDULE_TABLE)[number]['name'];

export const SCHEDULES: readonly Schedule[] = SCHEDULE_TABLE.map((s) => s.name);

export function isSchedule(name: unknown): name is Schedule {
  return typeof name === 'string' && (SCHEDULES as readonly string[]).includes(name);
}

export function scheduleRow(name: Schedule): ScheduleRow {
  return SCHEDULE_TABLE.find((s) => s.name === name)!;
}

/**
 * γ_j of the screened schedule for the j-th candidate that reaches a dev-set test (1-based):
 * 1/(j(j+1)), whose partial sums 1 − 1/(J+1) stay below 1 however long the run.
 */
export function screenedGamma(j: number): number {
  return 1 / (j * (j + 1));
}
