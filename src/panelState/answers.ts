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

/** The answers the labels count, in this order (a commit withdrawn or never offered asked nobody). */
const COUNTED_ANSWERS = ['accepted', 'autopilot', 'undone', 'rejected', 'awaiting'] as const;

/**
 * What became of the run's commits, "1 accepted by you, 1 rejected by you": the panel header's and
 * the Runs view's run line's count. Undefined while nobody was asked about a commit (their own
 * count of commits says it then).
 */
export function answersText(s: RunState): string | undefined {
  const n = answerCounts(s);
  const shown = COUNTED_ANSWERS.filter((a) => n[a] > 0);
  return shown.length === 0 ? undefined : shown.map((a) => `${n[a]} ${ANSWER_WORDS[a]}`).join(', ');
}

/**
 * An edit the provenance log says reached the file (the Prompt History's rows): the run's fold when
 * the editor holds the run (it knows an undo: Ctrl+Z, Ctrl+Y), else who applied it, as the log says.
 */
export function landedAnswer(by: 'user' | 'autopilot', node: CandidateNode | undefined): 'accepted' | 'autopilot' | 'undone' {
  const folded = commitAnswer(node);
  if (folded === 'accepted' || folded === 'autopilot' || folded === 'undone') return folded;
  return by === 'user' ? 'accepted' : 'autopilot';
}

/** The suggestion waiting in the editor for the user's answer, if one does. */
export function awaitingAnswer(s: RunState): string | undefined {
  return Object.values(s.candidates).find((n) => commitAnswer(n) === 'awaiting')?.id;
}

/**
 * A run going on whose events say it stands still for the user's answer: the waiting suggestion's
 * candidate (a code search goes on meanwhile, so it is not one). What the status bar and the Runs
 * view say of a run no run process reports on, as the panel's header does.
 */
export function standsForAnswer(s: RunState): string | undefined {
  return s.status === 'running' && s.info?.kind !== 'search' ? awaitingAnswer(s) : undefined;
}
