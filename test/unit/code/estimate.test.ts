// A code search's estimate, said before its first call: the proposer once per proposal the budgets
// allow (an evaluation budget allows at most one fewer than its evaluations), the meta notes every
// metaEvery children, gate pairwise's two verdicts per child; dollars only when every called model is priced.
import { describe, expect, it } from 'vitest';
import { estimateSearch } from '../../../src/core/code/estimate';
import type { RolePrices } from '../../../src/core/setup/estimate';
import { spec } from './searchWorld';

const price = { inputPerMTok: 1, outputPerMTok: 1 };
const priced: RolePrices = { agent: { model: undefined, price: undefined }, proposer: { model: 'p', price }, meta: { model: 'p', price }, validator: { model: 'p', price }, challenger: { model: undefined, price: undefined } };
const program = 'x'.repeat(4000);

describe('estimateSearch', () => {
  it('counts a proposer call per proposal and the meta notes, priced', () => {
    const s = { ...spec('pace+', 20), search: { ...spec('pace+', 20).search, metaEvery: 10 } };
    const e = estimateSearch(s, program, priced);
    expect(e.calls).toBe(20 + 2);
    expect(e.dollars).toBeGreaterThan(0);
    expect(e.unpriced).toBeUndefined();
  });

  it('an evaluation budget caps the proposals; gate pairwise adds two verdicts per child', () => {
    const base = spec('pairwise', 20);
    const e = estimateSearch({ ...base, budget: { proposals: 20, evaluations: 6 }, search: { ...base.search, metaEvery: 0 } }, program, priced);
    expect(e.calls).toBe(5 + 2 * 5);
  });

  it('names the unpriced model and gives no dollars; a dollar budget caps the totals', () => {
    const unpriced = estimateSearch(spec('pace+', 10), program, { ...priced, proposer: { model: 'mystery', price: undefined } });
    expect(unpriced.dollars).toBeUndefined();
    expect(unpriced.unpriced).toEqual(['mystery']);
    const full = estimateSearch(spec('pace+', 10), program, priced);
    const capped = estimateSearch({ ...spec('pace+', 10), budget: { proposals: 10, dollars: full.dollars! / 2 } }, program, priced);
    expect(capped.dollars).toBeCloseTo(full.dollars! / 2, 12);
    expect(capped.calls).toBeLessThan(full.calls);
  });
});
