/**
 * A judge run's answer as numbers and one sentence: the verdict, the evidence (the e-process's
 * wealth against the 1/α line, the discordant pairs won and lost, the ties, the judge's
 * abstentions), nothing about any single dev item. What an agent reads (the MCP tool's structured
 * content and its text), and what `ratchet check` reports per file.
 */
import type { DecisionRecord } from '../gates/record';
import { gateRow } from '../gates/gateTable';
import type { JudgeVerdict } from './judgeEdit';

export interface JudgeEvidence {
  /** The e-process's wealth when the test stopped (×1 at the start); undefined for a gate without one. */
  wealth: number | undefined;
  /** What the wealth had to reach: 1/α for one candidate, more under a run-level schedule. */
  threshold: number;
  alpha: number;
  /** Discordant pairs: dev items where one version did better than the other. */
  pairs: number;
  wins: number;
  losses: number;
  ties: number;
  /** Items the judge did not answer for (reward-free gates), left out of the test. */
  abstentions: number;
  /** Dev items (a program's evaluator instances) the test consumed, of `devItems`. */
  itemsUsed: number;
  devItems: number;
  /** What an item is, in words: a prompt's dev item, a program's evaluator instance. */
  unit: 'dev item' | 'instance';
  /** Why the test stopped: evidence (committed), futile, budget (the dev items ran out), infeasible, stopped (a run budget). */
  reason: string;
}

export function judgeEvidence(record: DecisionRecord | undefined, devItems: number, alpha: number, threshold: number, unit: JudgeEvidence['unit'] = 'dev item'): JudgeEvidence {
  if (!record) return { wealth: 1, threshold, alpha, pairs: 0, wins: 0, losses: 0, ties: 0, abstentions: 0, itemsUsed: 0, devItems, unit, reason: 'stopped' };
  const wealth = gateRow(record.gate).eprocess ? Math.exp(record.logWealth) : undefined;
  return {
    // JSON has no NaN: an e-process before its first discordant pair is still at ×1.
    wealth: wealth === undefined ? undefined : Number.isNaN(wealth) ? 1 : wealth,
    threshold: record.threshold,
    alpha: record.alpha,
    pairs: record.wins + record.losses,
    wins: record.wins,
    losses: record.losses,
    ties: record.ties,
    abstentions: abstentionsOf(record),
    itemsUsed: record.itemsConsumed,
    devItems,
    unit,
    reason: record.reason,
  };
}

/** Items left out because the judge gave no verdict (docs/gates.md, abstentions); absent when there were none. */
function abstentionsOf(record: DecisionRecord): number {
  return record.unjudged ?? 0;
}

/** A multiplier as the panel writes it: ×20, ×3.38, ×0.0123. */
function factor(x: number | undefined): string {
  if (x === undefined) return '—';
  if (!Number.isFinite(x)) return x > 0 ? '×∞' : '×0';
  return `×${Number(x.toPrecision(3))}`;
}

/** The verdict in one sentence an agent (or a person) can act on. */
export function verdictSentence(verdict: JudgeVerdict, e: JudgeEvidence, file: string, stoppedBy?: string): string {
  const tally = `${e.wins} won, ${e.losses} lost, ${e.ties} tied over ${e.itemsUsed} of ${e.devItems} ${e.unit}s${e.abstentions > 0 ? `, ${e.abstentions} unjudged` : ''}`;
  const evidence = `evidence ${factor(e.wealth)} (needs ${factor(e.threshold)})`;
  switch (verdict) {
    case 'commit':
      return `commit: the candidate is better than ${file}'s current text — ${evidence}, ${tally}. A candidate that is not better gets this far with probability at most α = ${e.alpha}.`;
    case 'reject':
      return `reject: no evidence that the candidate is better than ${file}'s current text — ${evidence}, ${tally}; ${rejectWhy(e.reason, e.unit)}`;
    case 'undecided':
      return `undecided: the budget stopped the test before it could decide (${stoppedBy ?? 'a budget ran out'}) — ${evidence}, ${tally}. Raise the budget to finish it.`;
  }
}

function rejectWhy(reason: string, unit: JudgeEvidence['unit']): string {
  switch (reason) {
    case 'futile':
      return `even winning every remaining ${unit} could not have reached the line, so the test stopped.`;
    case 'budget':
      return `the ${unit}s ran out before the evidence reached the line. A small real gain often needs more ${unit}s.`;
    case 'infeasible':
      return `there are too few ${unit}s for any candidate to reach the line.`;
    case 'incorrect':
      return 'its evaluator found the candidate incorrect.';
    default:
      return 'the gate did not find it better.';
  }
}
