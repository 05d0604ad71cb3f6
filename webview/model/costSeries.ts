/** Cost per role over time (calls, tokens or dollars), and the per-role totals table. Pure. */
import type { Role } from '../../src/core/llm/types';
import { ROLES } from '../../src/core/llm/types';
import type { CostMetric, RunState } from '../../src/protocol/webview';
import { formatCount, formatDollars } from './format';

export interface CostChartData {
  /** Seconds since the run started (uPlot's time axis wants seconds). */
  x: number[];
  /** Only roles that made at least one call, in ROLES order. */
  roles: Role[];
  series: (number | null)[][];
}

export function costChartData(state: RunState | undefined, metric: CostMetric): CostChartData {
  const samples = state?.costSamples ?? [];
  const start = state?.startedAt ?? samples[0]?.at ?? 0;
  const last = samples[samples.length - 1];
  const roles = ROLES.filter((r) => (last?.byRole[r]?.calls ?? 0) > 0);
  return {
    x: samples.map((s) => (s.at - start) / 1000),
    roles,
    series: roles.map((role) =>
      samples.map((s) => {
        const r = s.byRole[role];
        if (!r) return null;
        if (metric === 'dollars') return r.dollars ?? null;
        return metric === 'calls' ? r.calls : r.tokens;
      }),
    ),
  };
}

export interface CostTableRow {
  role: Role;
  calls: string;
  cached: string;
  /** Attempts retried after a real failure. */
  retries: string;
  /** Waits the provider asked for (429s); not failures. */
  rateLimited: string;
  tokens: string;
  dollars: string;
}

export function costTable(state: RunState | undefined): CostTableRow[] {
  const cost = state?.cost;
  if (!cost) return [];
  return ROLES.filter((r) => (cost[r]?.calls ?? 0) > 0).map((role) => {
    const c = cost[role];
    return {
      role,
      calls: formatCount(c.calls),
      cached: formatCount(c.cachedCalls),
      retries: formatCount(c.retries),
      // Journals written before waits were counted apart have no such field.
      rateLimited: formatCount(c.rateLimited ?? 0),
      tokens: formatCount(c.promptTokens + c.completionTokens),
      dollars: formatDollars(c.dollars),
    };
  });
}
