/**
 * The sequential paired test of PACE (GATES.md 3) and PACE+ (4) as a state machine the evolve loop
 * drives item by item, in the order fixed before the first evaluation (A2):
 *
 *   const t = startPaceTest(cfg, ledger, n);       // threshold from the ledger; may be infeasible
 *   for (const item of order) { if (t.verdict) break; const step = t.observe(yC - yI); emit(step); }
 *   const ledger2 = t.ledgerAfter();
 *
 * The loop may evaluate items concurrently but must call `observe` strictly in the pre-fixed
 * order; the first crossing in that order decides, later results are ignored (4.7). Works for
 * binary outcomes (Δ ∈ {−1, 0, 1}) and continuous scores (Δ ∈ [−1, 1], 4.4), and for either null:
 * the population one (default) or this dev set's (`population: 'finite'`, finite.ts).
 */
import type { Decision, DecisionReason, DecisionRecord, Population, Schedule } from './record';
import type { BettorSpec, EProcess, ScoreMode } from './eprocess';
import type { PaceGateName } from './gateTable';
import type { RunLedger } from './thresholds';
import { RatchetError } from '../errors';
import { sha256Hex } from '../random';
import { CONTINUOUS_GRID, DEFAULT_GRID, createEProcess } from './eprocess';
import { createFiniteEProcess } from './finite';
import { scheduleRow } from './schedules';
import { advanceLedger, candidateThreshold, checkAlpha } from './thresholds';

export type { PaceGateName };

export interface PaceConfig {
  /** 'pace' = the paper (section 3); 'pace+' = section 4; 'pace-rf' = reward-free PACE+ (section 5). */
  readonly gate: PaceGateName;
  readonly alpha: number;
  readonly scores: ScoreMode;
  readonly bettor: BettorSpec;
  /** Exact futility stop and the pre-test infeasibility check (4.2); off for the paper's gate. */
  readonly futility: boolean;
  readonly schedule: Schedule;
  /** Declared candidate budget T: γ_t = 1/T in run-level schedules (4.5). */
  readonly horizonT?: number;
  /** The null: E[Δ] ≤ 0 over P ('infinite'), or Σ Δ_i ≤ 0 over the n dev items ('finite', GATES.md 1.2). */
  readonly population: Population;
  /**
   * Reject (reason `floor`) once the wealth falls below this: the schedule's, unless overridden.
   * Reject-only, so the guarantee is untouched (docs/gates.md); undefined: exact futility alone.
   */
  readonly wealthFloor?: number;
}

/**
 * A gate configuration with the spec's defaults (GATES.md 3, 4): paper PACE = fixed λ = 0.5, no
 * futility; PACE+ and reward-free PACE = grid mixture {0.3, 0.5, 0.7, 0.85} (binary) or aGRAPA with
 * c = 0.75 (continuous), futility on, α = 0.05 per candidate; the wealth floor of the schedule.
 */
export function paceConfig(gate: PaceGateName, overrides: Partial<Omit<PaceConfig, 'gate'>> = {}): PaceConfig {
  const scores = overrides.scores ?? 'binary';
  const bettor: BettorSpec = overrides.bettor ?? (gate === 'pace' ? { kind: 'fixed', lambda: 0.5 } : scores === 'binary' ? { kind: 'mixture', lambdas: DEFAULT_GRID } : { kind: 'agrapa' });
  const schedule = overrides.schedule ?? 'per-candidate';
  const wealthFloor = 'wealthFloor' in overrides ? overrides.wealthFloor : scheduleRow(schedule).wealthFloor;
  const cfg: PaceConfig = {
    gate,
    alpha: overrides.alpha ?? 0.05,
    scores,
    bettor,
    futility: overrides.futility ?? gate !== 'pace',
    schedule,
    ...(overrides.horizonT === undefined ? {} : { horizonT: overrides.horizonT }),
    population: overrides.population ?? 'infinite',
    ...(wealthFloor === undefined ? {} : { wealthFloor }),
  };
  checkAlpha(cfg.alpha);
  if (cfg.wealthFloor !== undefined && !(cfg.wealthFloor > 0 && cfg.wealthFloor < 1)) {
    throw new RatchetError('badInput', `The wealth floor must lie in (0, 1), got ${cfg.wealthFloor}.`);
  }
  if (cfg.population !== 'infinite' && cfg.population !== 'finite') {
    throw new RatchetError('badInput', `The population must be 'infinite' or 'finite', got ${JSON.stringify(cfg.population)}.`);
  }
  createEProcess(cfg.bettor, cfg.scores); // validates the bets now rather than at the first item
  return cfg;
}

/** The continuous-mode grid alternative of 4.4, for callers that prefer an exact futility bound. */
export const CONTINUOUS_GRID_BETTOR: BettorSpec = { kind: 'mixture', lambdas: CONTINUOUS_GRID };

export type PaceReason = Extract<DecisionReason, 'evidence' | 'futile' | 'floor' | 'budget' | 'infeasible'>;

export interface PaceVerdict {
  decision: Decision;
  reason: PaceReason;
  /** Items consumed when the test stopped (0 = before item 1). */
  stoppedAt: number;
}

/** What one `observe` returns: the 'wealth/step' numbers plus the verdict if this item decided. */
export interface PaceStep {
  /** 1-based position in the pre-fixed order. */
  k: number;
  delta: number;
  /** The bet λ_k used on this item (0 for a tie, which needs no bet). */
  bet: number;
  logWealth: number;
  logThreshold: number;
  /** ln B_k(n − k): below logThreshold means nothing can commit any more. */
  logBest: number;
  /** The item was consumed without an outcome: the judge did not answer (`abstain`). */
  abstained?: true;
  verdict?: PaceVerdict;
}

export interface PaceSummary {
  gate: PaceGateName;
  alpha: number;
  schedule: Schedule;
  ledgerBefore: RunLedger;
  threshold: number;
  n: number;
  itemsConsumed: number;
  wins: number;
  losses: number;
  ties: number;
  /** Items consumed without an outcome because the judge did not answer (`abstain`); not ties. */
  unjudged: number;
  logWealth: number;
  /** undefined while the test is still running. */
  verdict: PaceVerdict | undefined;
}

export interface PaceTest {
  readonly config: PaceConfig;
  readonly n: number;
  readonly ledgerBefore: RunLedger;
  readonly threshold: number;
  readonly logThreshold: number;
  /** ln B_0(n): the pre-flight bound (4.2). */
  readonly initialLogBest: number;
  readonly verdict: PaceVerdict | undefined;
  readonly itemsConsumed: number;
  logWealth(): number;
  /** Feed the next item's Δ = Y_C − Y_I in the pre-fixed order. Throws once a verdict exists. */
  observe(delta: number): PaceStep;
  /**
   * The next item has no outcome: the judge did not answer (docs/gates.md, abstentions). It is
   * consumed — the budget of n items is what it is — and bets nothing: under the population null
   * it is not observed, so the bettor's estimates are not pulled towards 0 as a tie would pull
   * them; under the finite null it enters as Δ = 0, which leaves the sum that null is about as it
   * is. Counted as unjudged, never as a tie.
   */
  abstain(): PaceStep;
  /** The ledger the next candidate is tested with; throws before the verdict. */
  ledgerAfter(): RunLedger;
  summary(): PaceSummary;
}

/**
 * Starts one candidate's test (GATES.md 4.6 `paceTest`, without the I/O): threshold from the
 * ledger, e-process at E = 1, and — with futility on — the infeasibility verdict before item 1 when
 * even n straight wins cannot reach the threshold. `n` is the number of dev items available; with
 * `population: 'finite'` it is also the size of the population the null is about.
 */
export function startPaceTest(cfg: PaceConfig, ledger: RunLedger, n: number): PaceTest {
  return new PaceTestMachine(cfg, ledger, n);
}

class PaceTestMachine implements PaceTest {
  readonly threshold: number;
  readonly logThreshold: number;
  readonly initialLogBest: number;
  verdict: PaceVerdict | undefined;
  itemsConsumed = 0;
  private wins = 0;
  private losses = 0;
  private ties = 0;
  private unjudged = 0;
  private readonly ep: EProcess;
  private readonly finite: boolean;
  private readonly logFloor: number;

  constructor(
    readonly config: PaceConfig,
    readonly ledgerBefore: RunLedger,
    readonly n: number,
  ) {
    if (!(Number.isInteger(n) && n >= 0)) throw new RatchetError('internal', `Dev-set size must be a non-negative integer, got ${n}.`);
    this.threshold = candidateThreshold(config.schedule, config.alpha, ledgerBefore, config.horizonT);
    this.logThreshold = Math.log(this.threshold);
    this.finite = config.population === 'finite';
    this.logFloor = config.wealthFloor === undefined ? -Infinity : Math.log(config.wealthFloor);
    this.ep = this.finite ? createFiniteEProcess(config.bettor, config.scores, n) : createEProcess(config.bettor, config.scores);
    this.initialLogBest = this.ep.logBest(n);
    if (config.futility && this.initialLogBest < this.logThreshold) {
      this.verdict = { decision: 'reject', reason: 'infeasible', stoppedAt: 0 };
    } else if (n === 0) {
      this.verdict = { decision: 'reject', reason: 'budget', stoppedAt: 0 };
    }
  }

  logWealth(): number {
    return this.ep.logWealth();
  }

  observe(delta: number): PaceStep {
    if (this.verdict) throw new RatchetError('internal', `This test already decided (${this.verdict.reason}); observe no more items.`);
    checkDelta(delta, this.config.scores);
    // A tie's factor is 1 under the population null, so it is skipped (GATES.md 3); in the finite
    // population it is a draw of Δ = 0 whose factor is 1 − λ_k m_k, so every item is observed.
    const observed = delta !== 0 || this.finite;
    const bet = observed ? this.ep.nextBet() : 0;
    if (observed) this.ep.observe(delta);
    if (delta === 0) this.ties++;
    else if (delta > 0) this.wins++;
    else this.losses++;
    return this.step(delta, bet);
  }

  abstain(): PaceStep {
    if (this.verdict) throw new RatchetError('internal', `This test already decided (${this.verdict.reason}); observe no more items.`);
    if (this.finite) this.ep.observe(0);
    this.unjudged++;
    return { ...this.step(0, 0), abstained: true };
  }

  private step(delta: number, bet: number): PaceStep {
    const k = ++this.itemsConsumed;
    const logWealth = this.ep.logWealth();
    const logBest = this.ep.logBest(this.n - k);
    const step: PaceStep = { k, delta, bet, logWealth, logThreshold: this.logThreshold, logBest };
    // Compare logs without tolerance (4.7); commit first, so a crossing on the last item commits.
    if (logWealth >= this.logThreshold) this.verdict = { decision: 'commit', reason: 'evidence', stoppedAt: k };
    else if (k === this.n) this.verdict = { decision: 'reject', reason: 'budget', stoppedAt: k };
    else if (this.config.futility && logBest < this.logThreshold) this.verdict = { decision: 'reject', reason: 'futile', stoppedAt: k };
    else if (logWealth < this.logFloor) this.verdict = { decision: 'reject', reason: 'floor', stoppedAt: k };
    if (this.verdict) step.verdict = this.verdict;
    return step;
  }

  ledgerAfter(): RunLedger {
    if (!this.verdict) throw new RatchetError('internal', 'The test has no verdict yet; the ledger advances only after it.');
    return advanceLedger(this.ledgerBefore, this.verdict.decision);
  }

  summary(): PaceSummary {
    return {
      gate: this.config.gate,
      alpha: this.config.alpha,
      schedule: this.config.schedule,
      ledgerBefore: this.ledgerBefore,
      threshold: this.threshold,
      n: this.n,
      itemsConsumed: this.itemsConsumed,
      wins: this.wins,
      losses: this.losses,
      ties: this.ties,
      unjudged: this.unjudged,
      logWealth: this.ep.logWealth(),
      verdict: this.verdict,
    };
  }
}

function checkDelta(delta: number, scores: ScoreMode): void {
  const ok = scores === 'binary' ? delta === 1 || delta === -1 || delta === 0 : Number.isFinite(delta) && delta >= -1 && delta <= 1;
  if (!ok) {
    const want = scores === 'binary' ? '−1, 0 or 1' : 'a number in [−1, 1]';
    throw new RatchetError('badInput', `A paired difference must be ${want} for ${scores} scores, got ${delta}.`, { delta });
  }
}

/** Δ = Y_C − Y_I for one item, each outcome checked to be 0/1 (binary) or in [0, 1] (continuous). */
export function pairedDelta(incumbent: number, candidate: number, scores: ScoreMode): number {
  for (const [name, y] of [
    ['incumbent', incumbent],
    ['candidate', candidate],
  ] as const) {
    const ok = scores === 'binary' ? y === 0 || y === 1 : Number.isFinite(y) && y >= 0 && y <= 1;
    if (!ok) throw new RatchetError('badInput', `The ${name} outcome must be ${scores === 'binary' ? '0 or 1' : 'in [0, 1]'}, got ${y}.`);
  }
  return candidate - incumbent;
}

export interface PairedOutcome {
  id?: string;
  incumbent: number;
  candidate: number;
}

export interface PaceRun {
  summary: PaceSummary & { verdict: PaceVerdict };
  steps: PaceStep[];
  ledgerAfter: RunLedger;
}

/**
 * Runs one test over recorded outcomes in the given order (audits, the CLI, benches). Items after
 * the verdict are validated but not consumed. If the outcomes run out before a verdict, the test rejects with
 * reason 'budget' — only possible when fewer outcomes than `n` are given.
 */
export function runPaceOnOutcomes(cfg: PaceConfig, ledger: RunLedger, outcomes: readonly PairedOutcome[], n: number = outcomes.length): PaceRun {
  // Every outcome is checked, including those after the verdict: an audit must not pass bad data.
  const deltas = outcomes.map((o) => pairedDelta(o.incumbent, o.candidate, cfg.scores));
  const test = startPaceTest(cfg, ledger, n);
  const steps: PaceStep[] = [];
  for (const d of deltas) {
    if (test.verdict) break;
    steps.push(test.observe(d));
  }
  const summary = test.summary();
  const verdict = summary.verdict ?? { decision: 'reject', reason: 'budget', stoppedAt: summary.itemsConsumed };
  return {
    summary: { ...summary, verdict },
    steps,
    ledgerAfter: advanceLedger(ledger, verdict.decision),
  };
}

/**
 * A stable hash of the gate configuration for DecisionRecord.configHash (4.7). The finite
 * population and a wealth floor enter only when chosen, so hashes of configurations without them
 * are unchanged.
 */
export function gateConfigHash(cfg: PaceConfig): string {
  const canonical = {
    gate: cfg.gate,
    alpha: cfg.alpha,
    scores: cfg.scores,
    bettor: cfg.bettor,
    futility: cfg.futility,
    schedule: cfg.schedule,
    horizonT: cfg.horizonT ?? null,
    ...(cfg.population === 'finite' ? { population: cfg.population } : {}),
    ...(cfg.wealthFloor === undefined ? {} : { wealthFloor: cfg.wealthFloor }),
  };
  return sha256Hex(JSON.stringify(canonical)).slice(0, 16);
}

export interface DecisionMeta {
  candidateId: string;
  parentId: string | undefined;
  incumbentId: string | undefined;
  orderSeed: number;
  candidateCalls: number;
  incumbentCalls: number;
  rubricVersion?: number;
}

/** The DecisionRecord of a finished test (4.7), for the 'decision' event and the journal. */
export function paceDecisionRecord(test: PaceTest, meta: DecisionMeta): DecisionRecord {
  const s = test.summary();
  if (!s.verdict) throw new RatchetError('internal', 'A decision record needs a finished test.');
  return {
    candidateId: meta.candidateId,
    parentId: meta.parentId,
    incumbentId: meta.incumbentId,
    gate: test.config.gate,
    configHash: gateConfigHash(test.config),
    alpha: s.alpha,
    schedule: s.schedule,
    ledgerBefore: { tested: s.ledgerBefore.tested, commits: s.ledgerBefore.commits },
    threshold: s.threshold,
    orderSeed: meta.orderSeed,
    itemsConsumed: s.itemsConsumed,
    wins: s.wins,
    losses: s.losses,
    ties: s.ties,
    ...(s.unjudged > 0 ? { unjudged: s.unjudged } : {}),
    logWealth: s.logWealth,
    decision: s.verdict.decision,
    reason: s.verdict.reason,
    candidateCalls: meta.candidateCalls,
    incumbentCalls: meta.incumbentCalls,
    statistic: { evidence: Math.exp(s.logWealth), initialLogBest: test.initialLogBest },
    scores: test.config.scores,
    bettor: test.config.bettor.kind,
    population: test.config.population,
    ...(meta.rubricVersion === undefined ? {} : { rubricVersion: meta.rubricVersion }),
  };
}
