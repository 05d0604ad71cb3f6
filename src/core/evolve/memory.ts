/**
 * What was tried on each parent and why it lost (or that it was accepted), shown to the proposer so it does not propose the
 * same edit again. Human rejections from the editor land here too. Only gate-level facts are kept
 * (decision, reason, wins/losses) — never dev items or outputs, which the proposer must not see (A1).
 */

export interface RejectedEdit {
  parentId: string;
  candidateId: string;
  /** A short summary of the edit: the proposer's own reasoning, or the changed lines. */
  summary: string;
  why: string;
  by: 'gate' | 'user';
  /** Accepted edits are remembered too, so the proposer looks for a different improvement. */
  outcome?: 'rejected' | 'accepted';
}

export class RejectionMemory {
  private readonly byParent = new Map<string, RejectedEdit[]>();

  add(entry: RejectedEdit): void {
    const list = this.byParent.get(entry.parentId) ?? [];
    list.push(entry);
    this.byParent.set(entry.parentId, list);
  }

  /** The most recent rejections on this parent, newest last. */
  forParent(parentId: string, limit = 8): RejectedEdit[] {
    return (this.byParent.get(parentId) ?? []).slice(-limit);
  }

  get size(): number {
    let n = 0;
    for (const list of this.byParent.values()) n += list.length;
    return n;
  }
}

/** The proposer's own reasoning, on one line: how it will recognise the edit in its memory. */
export function summarize(reasoning: string): string {
  const line = reasoning.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line || 'an edit';
}

/** Gate-level words only: the proposer learns that an edit lost, never dev outputs or scores (A1). */
export function rejectionWhy(reason: string): string {
  switch (reason) {
    case 'futile':
    case 'budget':
      return 'no evidence that it is better than the current prompt';
    case 'infeasible':
      return 'the dev set is too small to show it is better';
    case 'floor':
      return 'the evidence went against it early';
    case 'screened':
      return 'it did not beat the current prompt on a first check';
    case 'validator':
      return 'the validator did not prefer it consistently';
    default:
      return 'it was not better than the current prompt';
  }
}
