/**
 * What a code search will roughly cost, said before its first call as a prompt run's estimate is
 * (setup/estimate.ts, same assumed lengths): every proposal the budgets allow asks the proposer once
 * for a whole program (its parent and the inspirations shown, the answer a full rewrite), the meta
 * notes are written every `search.metaEvery` tested children, and gate `pairwise` asks the
 * validator twice per child. Not counted: answers asked again after a bad patch, the novelty
 * judge (called only for near-copies) and embeddings, and the response cache, which makes a rerun
 * or a resume cheaper.
 */
import { estimateTokens } from '../llm/tokens';
import { ASSUMED, roleTally, summarize } from '../setup/estimate';
import type { RolePrices, RunEstimate } from '../setup/estimate';
import { INSPIRATION_DEFAULTS } from './inspirations';
import type { CodeRunSpec } from './spec';

export function estimateSearch(spec: Pick<CodeRunSpec, 'budget' | 'search' | 'gate'>, seedText: string, prices: RolePrices): RunEstimate {
  const { tally, add } = roleTally();
  const program = estimateTokens(seedText);
  const b = spec.budget;
  // The seed takes one evaluation; each proposal's child at least one more.
  const proposals = b.evaluations === undefined ? b.proposals : Math.max(0, Math.min(b.proposals, b.evaluations - 1));
  const shown = 1 + INSPIRATION_DEFAULTS.archive + INSPIRATION_DEFAULTS.topK;
  add('proposer', proposals, ASSUMED.proposerFrame + shown * program, program + ASSUMED.proposerReasoning);
  if (spec.search.metaEvery > 0) add('meta', Math.floor(proposals / spec.search.metaEvery), ASSUMED.metaIn, ASSUMED.metaOut);
  if (spec.gate.name === 'pairwise') add('validator', 2 * proposals, ASSUMED.judgeFrame + 2 * program, ASSUMED.verdict);
  return summarize(spec, tally, prices);
}
