/**
 * A run's budgets as hard limits. The LLM layer asks `admit` for every attempt at the moment it
 * has its concurrency slot and would be sent, so no budget is overrun by more than the calls
 * already in flight: calls count paid answers plus the attempts still out (a budget of N calls
 * sends at most N requests while none fail), tokens and dollars count what was paid, wall time
 * counts the run's active time across resumes (not the time it lay interrupted).
 *
 * The loop asks `exceeded` between candidates, and the same words reach the user either way.
 */
import { RatchetError } from '../errors';
import type { CallAdmission } from '../llm/client';
import type { CostReport } from '../llm/types';
import type { Clock } from '../ports';
import type { BudgetSpec } from './specTypes';

/** The accounting a budget reads: the LLM layer's meter. */
export interface Metered {
  cost(): CostReport;
  totalCalls(): number;
  totalDollars(): number | undefined;
}

export class RunBudget implements CallAdmission {
  private inFlight = 0;
  /** The known input price of the calls in flight: spent already as far as a dollar budget is concerned. */
  private inFlightDollars = 0;
  private meter: Metered | undefined;
  private readonly startedAt: number;
  /** Active time of the run before this process took it up (a resume); 0 for a new run. */
  private elapsedBefore = 0;
  /** While true, the wall-time budget cannot run out (a resume re-executing its journal). */
  private replaying: () => boolean = () => false;

  constructor(
    private readonly spec: BudgetSpec,
    private readonly clock: Clock,
  ) {
    this.startedAt = clock.now();
  }

  /**
   * A resumed run: the wall-time budget goes on from the active time its journal records, and it
   * cannot run out while `replaying` says the run is still re-executing what its journal holds —
   * the original run went past those points within its budget, and stopping there now would make
   * the replay differ from the journal.
   */
  continueFrom(elapsedMs: number, replaying: () => boolean = () => false): void {
    this.elapsedBefore = Math.max(0, elapsedMs);
    this.replaying = replaying;
  }

  /** The meter to read; the LLM layer that owns it is built with this budget as its admission. */
  measure(meter: Metered): void {
    this.meter = meter;
  }

  /** The run's active time so far, over every process that ran it. */
  elapsedMs(): number {
    return this.elapsedBefore + (this.clock.now() - this.startedAt);
  }

  /** Which budget has run out, in words ("40 of 40 LLM calls"), or undefined. */
  exceeded(): string | undefined {
    return this.over(0);
  }

  /**
   * A call about to be sent: refused when a budget is spent, or when its input at the known price,
   * with the inputs of the calls still in flight, would take the dollars past the budget.
   */
  admit(_role?: unknown, inputDollars = 0): void {
    const over = this.over(this.inFlight, this.inFlightDollars + inputDollars);
    if (over !== undefined) throw budgetError(over);
    this.inFlight++;
    this.inFlightDollars += inputDollars;
  }

  release(_role?: unknown, inputDollars = 0): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.inFlightDollars = this.inFlight === 0 ? 0 : Math.max(0, this.inFlightDollars - inputDollars);
  }

  deadline(): number | undefined {
    const wall = this.spec.wallTimeMinutes;
    return wall === undefined ? undefined : this.startedAt - this.elapsedBefore + wall * 60_000;
  }

  /** Calls the budget still allows, counting those in flight; undefined without a calls budget. */
  callsLeft(): number | undefined {
    if (this.spec.calls === undefined) return undefined;
    return Math.max(0, this.spec.calls - this.paidCalls() - this.inFlight);
  }

  /** Dollars the budget still allows; undefined without a dollars budget or while unpriced. */
  dollarsLeft(): number | undefined {
    const spent = this.meter?.totalDollars();
    if (this.spec.dollars === undefined || spent === undefined) return undefined;
    return Math.max(0, this.spec.dollars - spent);
  }

  /** Mean dollars per paid call so far (what the next calls are expected to cost), if known. */
  dollarsPerCall(): number | undefined {
    const spent = this.meter?.totalDollars();
    const calls = this.paidCalls();
    return spent === undefined || calls === 0 ? undefined : spent / calls;
  }

  private paidCalls(): number {
    return this.meter?.totalCalls() ?? 0;
  }

  private over(inFlight: number, inFlightDollars = 0): string | undefined {
    const b = this.spec;
    const calls = this.paidCalls();
    if (b.calls !== undefined && calls + inFlight >= b.calls) return `${calls} of ${b.calls} LLM calls`;
    const cost = this.meter?.cost();
    const tokens = cost ? Object.values(cost).reduce((s, r) => s + r.promptTokens + r.completionTokens, 0) : 0;
    if (b.tokens !== undefined && tokens >= b.tokens) return `${tokens} of ${b.tokens} tokens`;
    const dollars = this.meter?.totalDollars();
    if (b.dollars !== undefined && dollars !== undefined && dollars >= b.dollars) return `$${dollars.toFixed(2)} of $${b.dollars}`;
    // A call whose input alone would pass the budget, on top of those still out, is not sent.
    if (b.dollars !== undefined && dollars !== undefined && inFlightDollars > 0 && dollars + inFlightDollars > b.dollars) {
      return `$${dollars.toFixed(2)} of $${b.dollars}`;
    }
    if (b.wallTimeMinutes !== undefined && this.elapsedMs() >= b.wallTimeMinutes * 60_000 && !this.replaying()) return `${b.wallTimeMinutes} minutes of wall time`;
    return undefined;
  }
}

export function budgetError(over: string): RatchetError {
  return new RatchetError('budgetExhausted', `The run's budget is spent (${over}); no further LLM call is sent.`, { budget: over });
}

/** Which budget a budgetExhausted error names. */
export function budgetOf(err: RatchetError): string {
  const b = err.details['budget'];
  return typeof b === 'string' ? b : err.message;
}
