/**
 * Token and dollar accounting per role. `calls` counts answers the endpoint was paid for; cache
 * hits, retries and rate-limit waits are counted apart so a budget in LLM calls means what the
 * provider bills.
 */
import { ROLES } from './types';
import type { CostReport, PriceTable, Role, RoleCost, Usage } from './types';

export function emptyRoleCost(): RoleCost {
  return { calls: 0, cachedCalls: 0, retries: 0, rateLimited: 0, promptTokens: 0, completionTokens: 0, dollars: 0 };
}

export function emptyCostReport(): CostReport {
  const report = {} as CostReport;
  for (const role of ROLES) report[role] = emptyRoleCost();
  return report;
}

/** Dollars for one call, or undefined when the model has no price. */
export function priceOf(prices: PriceTable | undefined, model: string, usage: Usage): number | undefined {
  const price = prices?.[model];
  if (price === undefined) return undefined;
  // Cached prompt tokens are part of promptTokens, billed at their own rate where the provider has one.
  const cached = Math.min(usage.cachedPromptTokens ?? 0, usage.promptTokens);
  const fresh = usage.promptTokens - cached;
  return (fresh * price.inputPerMTok + cached * (price.cachedInputPerMTok ?? price.inputPerMTok) + usage.completionTokens * price.outputPerMTok) / 1_000_000;
}

export class CostMeter {
  private readonly byRole: CostReport = emptyCostReport();

  constructor(private readonly prices?: PriceTable) {}

  /** A paid answer. One unpriced call makes the role's dollars unknown for the rest of the run. */
  recordCall(role: Role, model: string, usage: Usage): void {
    const r = this.byRole[role];
    r.calls += 1;
    r.promptTokens += usage.promptTokens;
    r.completionTokens += usage.completionTokens;
    if (usage.reasoningTokens !== undefined) r.reasoningTokens = (r.reasoningTokens ?? 0) + usage.reasoningTokens;
    const dollars = priceOf(this.prices, model, usage);
    r.dollars = r.dollars === undefined || dollars === undefined ? undefined : r.dollars + dollars;
  }

  recordCacheHit(role: Role): void {
    this.byRole[role].cachedCalls += 1;
  }

  recordRetry(role: Role): void {
    this.byRole[role].retries += 1;
  }

  /** An answer cut off at a length limit that is returned unread (answer.ts). */
  recordTruncated(role: Role): void {
    const r = this.byRole[role];
    r.truncated = (r.truncated ?? 0) + 1;
  }

  /** A wait the provider asked for (429, or 503 with Retry-After): not a failure, so not a retry. */
  recordRateLimit(role: Role): void {
    const r = this.byRole[role];
    r.rateLimited = (r.rateLimited ?? 0) + 1;
  }

  /** A copy: callers (events, the journal) keep snapshots that later calls must not change. */
  report(): CostReport {
    const copy = {} as CostReport;
    for (const role of ROLES) copy[role] = { ...this.byRole[role] };
    return copy;
  }

  /** Paid calls over all roles. */
  totalCalls(): number {
    return ROLES.reduce((n, role) => n + this.byRole[role].calls, 0);
  }

  /** Dollars over all roles; undefined when any role's are unknown. */
  totalDollars(): number | undefined {
    let sum = 0;
    for (const role of ROLES) {
      const d = this.byRole[role].dollars;
      if (d === undefined) return undefined;
      sum += d;
    }
    return sum;
  }
}
