/**
 * What became of a candidate the gate committed, once for every label that says it (the header's
 * counts, the Results columns, the lineage rows, the feed): folded from the run's own events, so
 * no label counts a commit the run never offered as awaiting an answer, or calls a commit the user
 * rejected "committed".
 *
 * An applied edit the editor saw taken back (Ctrl+Z to the very text it replaced) is "applied,
 * then undone", whoever applied it: a label that still said "accepted" would describe a file the
 * user no longer has.
 */
import type { CandidateNode, RunState } from './types';

export type CommitAnswer = 'accepted' | 'autopilot' | 'undone' | 'rejected' | 'awaiting' | 'withdrawn' | 'unoffered';

/** Each answer in the words every label uses. */
export const ANSWER_WORDS: Record<CommitAnswer, string> = {
  accepted: 'accepted by you',
  autopilot: 'applied by autopilot',
  undone: 'applied, then undone',
  rejected: 'rejected by you',
  awaiting: 'awaiting your answer',
  withdrawn: 'withdrawn unanswered',
  unoffered: 'not offered',
};

/** A committed candidate's answer; undefined for one the gate did not commit. */
export function commitAnswer(node: CandidateNode | undefined): CommitAnswer | undefined {
  if (node === undefined) return undefined;
  if (node.userRejected) return 'rejected';
  if (node.applied !== undefined && node.undone === true) return 'undone';
  if (node.applied !== undefined) return node.applied === 'user' ? 'accepted' : 'autopilot';
  if (node.decision !== 'commit') return undefined;
  if (node.withdrawn !== undefined) return 'withdrawn';
  return node.suggested ? 'awaiting' : 'unoffered';
}

/** How many of the run's commits stand at each answer. */
export function answerCounts(s: RunState): Record<CommitAnswer, number> {
  const counts: Record<CommitAnswer, number> = { accepted: 0, autopilot: 0, undone: 0, rejected: 0, awaiting: 0, withdrawn: 0, unoffered: 0 };
  for (const node of Object.values(s.candidates)) {
    const answer = commitAnswer(node);
    if (answer !== undefined) counts[answer] += 1;
  }
  return counts;
}

/** The suggestion waiting in the editor for the user's answer, if one does. */
export function awaitingAnswer(s: RunState): string | undefined {
  return Object.values(s.candidates).find((n) => commitAnswer(n) === 'awaiting')?.id;
}
