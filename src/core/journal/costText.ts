/**
 * How every face words a cost and a run's estimate — the CLI's lines, the editor's progress
 * notification — so "≈ 412 calls, ≈ 1.2M tok, ≈ $0.38" reads the same wherever a run says it.
 * Model ids are used as given: a face that prints to a terminal strips control characters first.
 */
import type { RunSummaryInfo } from './payloadTypes';

/** `$0.0421` when every call had a price, otherwise the token count (`18.2k tok`). */
export function formatCost(cost: { dollars: number | undefined; tokens: number } | undefined): string {
  if (cost === undefined) return '—';
  if (cost.dollars !== undefined) return cost.dollars < 1 ? `$${cost.dollars.toFixed(4)}` : `$${cost.dollars.toFixed(2)}`;
  if (cost.tokens < 1000) return `${cost.tokens} tok`;
  return cost.tokens < 1e6 ? `${(cost.tokens / 1000).toFixed(1)}k tok` : `${(cost.tokens / 1e6).toFixed(2)}M tok`;
}

/** `≈ 412 calls, ≈ 1.2M tokens, ≈ $0.38`, or `…, cost unknown (model llama3 unpriced)`: the run's own upper-ish estimate. */
export function describeEstimate(e: NonNullable<RunSummaryInfo['estimate']>): string {
  const unpriced = e.unpriced ?? [];
  const cost = e.dollars !== undefined ? `≈ ${formatCost({ dollars: e.dollars, tokens: e.tokens })}` : `cost unknown (${unpriced.length === 1 ? 'model' : 'models'} ${unpriced.join(', ')} unpriced)`;
  return `≈ ${e.calls} call${e.calls === 1 ? '' : 's'}, ≈ ${formatCost({ dollars: undefined, tokens: e.tokens })}, ${cost}`;
}
