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
