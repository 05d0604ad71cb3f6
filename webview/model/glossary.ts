/**
 * The panel's words for the gate's statistics, in one table: what each term means in general (the
 * glossary, docs/how-ratchet-decides.md says the same in prose) and what it means for the candidate
 * on screen, in one sentence, for its hover. Every view that shows one of these terms takes its
 * tooltip from here, so a term reads the same wherever it appears.
 *
 * One name for one number: the PACE wealth (GATES.md 3–4) is "evidence" everywhere in the UI;
 * "wealth" appears only in the glossary entry that says so.
 */
import { count, formatFactor, shortId } from './format';

/** What a hover knows about one candidate's test (any field may be unknown while it runs). */
export interface CandidateFacts {
  candidateId: string;
  /** The version it is tested against. */
  incumbentId?: string | undefined;
  /** Its evidence as a factor (×1 at the start); NaN before the first discordant pair. */
  evidence: number;
  /** The factor its evidence must reach to be committed: 1/α (0 when the gate has none). */
  threshold: number;
  alpha?: number | undefined;
  /** Discordant pairs it won / lost, and the items that were ties. */
  wins: number;
  losses: number;
  ties: number;
  /** Its test stopped because even winning every remaining item could not reach the threshold. */
  futile?: boolean;
}

export type Term = 'evidence' | 'needs' | 'threshold' | 'discordant' | 'tie' | 'futility' | 'incumbent' | 'alpha';

export interface GlossaryEntry {
  /** The words the panel shows. */
  name: string;
  /** What it means, for any candidate (the glossary). */
  means: string;
  /** What it means for this candidate, in one sentence (the hover). */
  forCandidate(f: CandidateFacts): string;
}

const factor = (x: number): string => `×${formatFactor(x)}`;
const needs = (f: CandidateFacts): string => (f.threshold > 0 ? factor(f.threshold) : 'the gate’s bar');
/** Whether the candidate's line is 1/α (per-candidate) rather than a share of a run-level α. */
const perCandidate = (f: CandidateFacts): boolean => f.alpha !== undefined && Math.abs(f.threshold * f.alpha - 1) < 1e-9;
const alphaNote = (f: CandidateFacts): string => (f.alpha === undefined || !(f.threshold > 0) ? '' : perCandidate(f) ? ` (= 1/α with α = ${f.alpha})` : ` (its share of the run’s α = ${f.alpha})`);
const standing = (f: CandidateFacts): string => (Number.isNaN(f.evidence) ? 'it has no discordant pair yet' : `it is at ${factor(f.evidence)}`);

export const GLOSSARY: Readonly<Record<Term, GlossaryEntry>> = {
  evidence: {
    name: 'evidence',
    means:
      'How strongly the paired tests so far say the candidate is better than the version in force, as a factor that starts at ×1, grows with each item the candidate wins and shrinks with each it loses. (GATES.md calls it the PACE wealth.)',
    forCandidate: (f) =>
      Number.isNaN(f.evidence)
        ? `evidence: ${shortId(f.candidateId)} has no discordant pair yet, so its evidence is still ×1; it is committed at ${needs(f)}.`
        : `evidence ${factor(f.evidence)}: the tests so far favour ${shortId(f.candidateId)} by ${factor(f.evidence)} (×1 = no lead either way); it is committed at ${needs(f)}.`,
  },
  needs: {
    name: 'needs ×…',
    means: 'The evidence a candidate must reach to be committed. Under the default schedule α is shared by the whole run: the candidates that reach the dev set need ×40, ×120, ×240, … in turn at α = 0.05; per candidate it is 1/α, ×20.',
    forCandidate: (f) => `needs ${needs(f)}: ${shortId(f.candidateId)}’s evidence must reach ${needs(f)}${alphaNote(f)} to be committed; ${standing(f)}.`,
  },
  threshold: {
    name: '1/α line',
    means: 'The line a candidate’s evidence must cross to be committed: 1/α per candidate, higher when α is shared by the whole run. A candidate that is not better crosses it with probability at most its share of α.',
    forCandidate: (f) => `1/α line at ${needs(f)}: ${shortId(f.candidateId)} is committed the moment its evidence crosses it; ${standing(f)}.`,
  },
  discordant: {
    name: 'discordant pair',
    means: 'A dev item on which the candidate and the version in force disagree: one gets it right, the other wrong. Only these move the evidence.',
    forCandidate: (f) => `${count(f.wins + f.losses, 'discordant pair')}: dev items where only one of ${shortId(f.candidateId)} and ${shortId(f.incumbentId)} was right: ${shortId(f.candidateId)} won ${f.wins}, lost ${f.losses}.`,
  },
  tie: {
    name: 'tie',
    means: 'A dev item on which the candidate and the version in force did equally well (both right or both wrong). It leaves the evidence where it is.',
    forCandidate: (f) => `${count(f.ties, 'tie')}: dev items where ${shortId(f.candidateId)} and ${shortId(f.incumbentId)} did equally well; they move the evidence neither way.`,
  },
  futility: {
    name: 'futility bound',
    means: 'The best evidence a candidate could still reach if it won every remaining dev item. Once it falls below the 1/α line the test stops: the candidate can no longer be committed.',
    forCandidate: (f) =>
      f.futile
        ? `futility bound: even winning every remaining dev item, ${shortId(f.candidateId)} could not reach ${needs(f)}, so its test stopped early and it was not committed.`
        : `futility bound: the best evidence ${shortId(f.candidateId)} could still reach by winning every remaining dev item; while it stays above ${needs(f)} the test goes on.`,
  },
  incumbent: {
    name: 'incumbent',
    means: 'The version in force: the baseline, or the last committed candidate. Every candidate is tested against it.',
    forCandidate: (f) => `incumbent ${shortId(f.incumbentId)}: the version in force when ${shortId(f.candidateId)} was tested; ${shortId(f.candidateId)} had to beat it on the dev items.`,
  },
  alpha: {
    name: 'α',
    means:
      'The chance the gate allows of committing an edit that is not better: for the whole run under the default schedule (each candidate that reaches the dev set gets a share of it), or for each candidate (per-candidate: the line at 1/α, ×20 at α = 0.05).',
    forCandidate: (f) =>
      perCandidate(f) || f.alpha === undefined
        ? `α = ${f.alpha ?? '?'}: the chance of committing ${shortId(f.candidateId)} if it is not better is at most ${f.alpha ?? 'α'}; hence the line at ${needs(f)}.`
        : `α = ${f.alpha} for the whole run: the chance that it commits any edit that is not better is at most ${f.alpha}; ${shortId(f.candidateId)}’s share of it puts its line at ${needs(f)}.`,
  },
};

/** The hover of `term` for this candidate. */
export function hover(term: Term, facts: CandidateFacts): string {
  return GLOSSARY[term].forCandidate(facts);
}

/** The glossary, one line a term, for a run-independent tooltip (the header's α, the docs link). */
export function glossaryText(terms: readonly Term[] = Object.keys(GLOSSARY) as Term[]): string {
  return terms.map((t) => `${GLOSSARY[t].name}: ${GLOSSARY[t].means}`).join('\n');
}
