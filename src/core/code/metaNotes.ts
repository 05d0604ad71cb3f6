/**
 * Meta notes (ShinkaEvolve's meta-recommendations): every K tested children the meta role reads a
 * summary of each — what it tried, what the gate decided, its score or why it was incorrect — and
 * answers with a few recommendations. Each later proposal gets one of them, in turn, as a hint.
 * The notes are journaled (`meta/notes`), so a resume replays them from the LLM cache.
 *
 * The meta role sees names, descriptions, decisions and public scores only: never an instance's
 * data, which is the evaluator's.
 */
import type { ChatMessage } from '../llm/types';
import { untrustedFrame } from '../llm/untrusted';

export interface ProgramSummary {
  id: string;
  name: string;
  decision: 'commit' | 'reject';
  score?: number;
  /** Why it was incorrect, when it was. */
  error?: string;
}

/** At most this many recommendations are kept from one answer. */
export const MAX_RECOMMENDATIONS = 5;

export function metaMessages(summaries: readonly ProgramSummary[], previous: readonly string[]): ChatMessage[] {
  // Names come from the proposer and errors from the evaluator's output: data, in delimiters they
  // cannot close (#14); ids, decisions and scores are the engine's own.
  const lines = summaries.map(
    (s) => `- ${s.id} "${s.name}": ${s.decision === 'commit' ? 'accepted' : 'rejected'}${s.error ? `, incorrect: ${s.error}` : s.score === undefined ? '' : `, score ${s.score.toPrecision(6)}`}`,
  );
  const attempts = lines.join('\n');
  const earlier = previous.map((r) => `- ${r}`).join('\n');
  const frame = untrustedFrame([attempts, earlier]);
  return [
    {
      role: 'system',
      content: `You advise a program search. From the attempts below, say what seems to work and what does not, then give up to five short, concrete recommendations for the next changes, one per line, each starting with "- ".\n${frame.rules}`,
    },
    {
      role: 'user',
      content: [frame.block('recent attempts', attempts), ...(previous.length > 0 ? [frame.block('earlier recommendations', earlier)] : [])].join('\n\n'),
    },
  ];
}

/** The answer's "- " or "1." lines, else its first non-empty line: never nothing from a non-empty answer. */
export function parseRecommendations(answer: string): string[] {
  const lines = answer.split(/\r?\n/).map((l) => l.trim());
  const listed = lines.flatMap((l) => {
    const m = /^(?:[-*•]|\d+[.)])\s+(.+)$/.exec(l);
    return m ? [m[1]!.trim()] : [];
  });
  const picked = listed.length > 0 ? listed : lines.filter((l) => l !== '').slice(0, 1);
  return picked.slice(0, MAX_RECOMMENDATIONS).map((r) => (r.length > 300 ? `${r.slice(0, 297)}…` : r));
}
