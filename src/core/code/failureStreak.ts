/**
 * The stop rule for a proposer that cannot answer (search.stopAfterFailedProposals): a proposal
 * that came to nothing (no answer that could be read and applied, or a repeat) adds to the run of
 * failures; one that gave a program to test ends it. A run of that many stops the search: a
 * proposer that cannot answer in the format would otherwise spend the whole budget on answers
 * nobody can test.
 */
import type { EventOf } from '../journal/events';
import { PROPOSAL_FAILED } from '../journal/runStatus';
import type { Payload, ProposalResult } from './proposal';

export class FailureStreak {
  /** Proposals in a row, in launch order, that came to nothing, and what went wrong with the first of them. */
  private failedInARow = 0;
  private firstFailure: string | undefined;

  /** `limit`: search.stopAfterFailedProposals (0: never stop). */
  constructor(private readonly limit: number) {}

  /** Counts an applied proposal, given its events; says why the search stops when the streak reached the limit. */
  count(result: ProposalResult, events: readonly Payload[]): string | undefined {
    if (result.kind === 'unsent' || result.kind === 'stopped') return undefined;
    if (result.kind !== 'none') {
      this.failedInARow = 0;
      this.firstFailure = undefined;
      return undefined;
    }
    const failed = events.find((e): e is EventOf<'proposal/failed'> => e.type === 'proposal/failed');
    if (!failed) return undefined;
    this.failedInARow++;
    this.firstFailure ??= `the first ${PROPOSAL_FAILED[failed.reason]}: ${firstSentence(failed.message)}`;
    if (this.limit > 0 && this.failedInARow >= this.limit) return `${this.limit} proposals in a row came to nothing (search.stopAfterFailedProposals); ${this.firstFailure}.`;
    return undefined;
  }
}

/** A failure's message as the clause of one sentence: on one line, its first sentence, without its full stop, at most 200 characters. */
function firstSentence(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  const first = /^.*?[.!?](?=\s|$)/.exec(flat)?.[0] ?? flat;
  const clause = first.replace(/[.!?]$/, '');
  return clause.length <= 200 ? clause : `${clause.slice(0, 199)}…`;
}
