/** Cost per role over time (calls, tokens or dollars), and the per-role totals table. Pure. */
import type { Role } from '../../src/core/llm/types';
import { ROLES } from '../../src/core/llm/types';
import type { CostMetric } from '../../src/protocol/webview';
import { formatCount, formatDollars, formatDuration } from './format';
import type { RunState } from '../../src/panelState/types';

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

/**
 * Tick steps the cost chart's axes may use. Calls, tokens and seconds are whole numbers: a step of
 * 0.5 would label 0.5 and 1 both "1". Dollars step by 1, 2, 5 × 10^k down to a hundredth of a cent.
 */
export const WHOLE_STEPS: readonly number[] = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600].concat(Array.from({ length: 10 }, (_, i) => [1, 2, 5].map((m) => m * 10 ** (i + 4))).flat());
export const DOLLAR_STEPS: readonly number[] = Array.from({ length: 10 }, (_, i) => [1, 2, 5].map((m) => Number((m * 10 ** (i - 4)).toPrecision(1)))).flat();

/**
 * Labels for the ticks of a cost axis: with exactly as many decimals as the step between ticks
 * needs, so neighbouring ticks never read the same ("$0.01 $0.01 $0.02").
 */
export function tickLabels(splits: readonly number[], unit: CostMetric | 'seconds'): string[] {
  const step = smallestStep(splits);
  switch (unit) {
    case 'dollars': {
      const decimals = decimalsFor(step);
      return splits.map((v) => `$${v.toFixed(decimals)}`);
    }
    case 'seconds':
      return splits.map((v) => formatDuration(Math.round(v) * 1000));
    case 'calls':
    case 'tokens': {
      const max = Math.max(...splits.map(Math.abs), 0);
      const [scale, suffix] = max >= 1e6 ? [1e6, 'M'] : max >= 1e3 ? [1e3, 'k'] : [1, ''];
      const decimals = decimalsFor(step / scale);
      return splits.map((v) => `${(v / scale).toFixed(decimals)}${suffix}`);
    }
  }
}

function smallestStep(splits: readonly number[]): number {
  let step = Infinity;
  for (let i = 1; i < splits.length; i++) {
    const d = Math.abs(splits[i]! - splits[i - 1]!);
    if (d > 0 && d < step) step = d;
  }
  return step;
}

/** Decimals that keep values `step` apart distinct: 0.25 → 2, 0.01 → 2, 5 → 0. */
function decimalsFor(step: number): number {
  if (!Number.isFinite(step) || step >= 1) return 0;
  // The step is a float sum (0.30000000000000004); round it to a few significant digits first.
  const clean = Number(step.toPrecision(6));
  for (let d = 0; d <= 10; d++) {
    if (Math.abs(Math.round(clean * 10 ** d) - clean * 10 ** d) < 1e-6) return d;
  }
  return 10;
}
