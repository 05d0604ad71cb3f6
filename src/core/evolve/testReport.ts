/**
 * The run's held-out report: the starting prompt and the final one scored on the test split, item
 * by item, then the means and their difference. The loop asks for it once, after its last decision.
 */
import type { DataItem } from '../data/item';
import { RatchetError } from '../errors';
import { budgetOf } from '../run/budget';
import type { RunBudget } from '../run/budget';
import type { Evaluator } from './evaluator';
import { evaluatedEvent } from './pairedScores';
import type { Emit } from './gateContext';
import { differenceInterval, meanInterval } from './report';
import type { Version } from './versions';

/**
 * The held-out report costs two evaluations per test item (one when nothing was committed). It is
 * made only when the budget can pay for all of it, since half a report says nothing; otherwise, or
 * when a budget runs out midway, it is skipped with a notice.
 */
export async function reportTestWithinBudget(items: readonly DataItem[], evaluator: Evaluator, v0: Version, final: Version, budget: RunBudget, emit: Emit, signal: AbortSignal): Promise<void> {
  const calls = items.length * (final === v0 ? 1 : 2);
  const skip = (why: string) => emit({ type: 'log', level: 'info', message: `The test-split report was skipped: ${why}.` });
  const over = budget.exceeded();
  if (over !== undefined) return skip(`the budget is spent (${over})`);
  const callsLeft = budget.callsLeft();
  if (callsLeft !== undefined && calls > callsLeft) return skip(`it needs up to ${calls} LLM calls and the budget has ${callsLeft} left`);
  const dollarsLeft = budget.dollarsLeft();
  const perCall = budget.dollarsPerCall();
  if (dollarsLeft !== undefined && perCall !== undefined && calls * perCall > dollarsLeft) {
    return skip(`it would cost about $${(calls * perCall).toFixed(2)} and the budget has $${dollarsLeft.toFixed(2)} left`);
  }
  try {
    await reportTest(items, evaluator, v0, final, emit, signal);
  } catch (err) {
    if (!RatchetError.is(err, 'budgetExhausted') || signal.aborted) throw err;
    await skip(`the budget ran out during it (${budgetOf(err)})`);
  }
}

async function reportTest(items: readonly DataItem[], evaluator: Evaluator, v0: Version, final: Version, emit: Emit, signal: AbortSignal) {
  // Each item's score and output is journaled (in item order, after the concurrent calls) so the
  // Results view can show the test split item by item, not only the report's means.
  const scoreAll = async (v: Version) => {
    const evals = await Promise.all(items.map((item) => evaluator.evaluate(v.hash, v.text, item, signal)));
    for (const e of evals) await emit(evaluatedEvent(v.id, e));
    return evals.map((e) => (e.abstained === undefined ? (e.score ?? 0) : undefined));
  };
  const base = await scoreAll(v0);
  const fin = final === v0 ? base : await scoreAll(final);
  // Items the judge gave no grade on, for either version, are left out of the report (#25): n says how many remain.
  const both = base.flatMap((b, i) => (b === undefined || fin[i] === undefined ? [] : [[b, fin[i]!] as const]));
  const baseScores = both.map(([b]) => b);
  const finScores = both.map(([, f]) => f);
  await emit({
    type: 'report/test',
    n: both.length,
    baseline: { candidateId: v0.id, ...meanInterval(baseScores) },
    final: { candidateId: final.id, ...meanInterval(finScores) },
    difference: differenceInterval(finScores, baseScores),
  });
}
