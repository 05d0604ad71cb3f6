/**
 * Whether a proposal's program is a new child of the search: not a program the database held at
 * the proposal's launch, nor the child of a proposal launched earlier (waited for, so the answer
 * does not depend on which finished first), nor a near-copy of one on its island (noveltyJudge.ts).
 * A repeat is a failed proposal, held back as its event.
 */
import { textHash } from './novelty';
import type { NoveltyJudge } from './noveltyJudge';
import type { Child, Proposal } from './proposal';

export interface NewChildSetting {
  /** Each program's text by id; a new child's is filed under its id. */
  texts: Map<string, string>;
  novelty: NoveltyJudge;
  signal: AbortSignal;
}

/** The child, unless it repeats a program. */
export async function newChild(s: NewChildSetting, p: Proposal, text: string): Promise<Child | undefined> {
  const hash = textHash(text);
  const earlier = (await Promise.all(p.earlier.map((q) => q.child))).filter((c): c is Child => c !== undefined);
  const duplicate = p.known.find((r) => r.textHash === hash)?.id ?? earlier.find((c) => c.hash === hash)?.id;
  const sameIsland = [...p.known.filter((r) => r.island === p.island).map((r) => ({ id: r.id, text: s.texts.get(r.id)! })), ...earlier.filter((c) => c.island === p.island)];
  const novelty = duplicate ? { novel: false as const, closestId: duplicate, decidedBy: 'duplicate' as const, note: undefined } : await s.novelty.check(text, sameIsland, s.signal);
  if (novelty.note) p.events.push({ type: 'log', level: 'info', message: `p${p.n}: ${novelty.note}` });
  if (!novelty.novel) {
    const reason = novelty.decidedBy === 'duplicate' ? 'duplicate' : 'not-novel';
    p.events.push({ type: 'proposal/failed', parentId: p.parent.id, island: p.island, kind: p.kind, attempt: 1, reason, message: `the child repeats ${novelty.closestId ?? 'a program'} of this run` });
    return undefined;
  }
  const id = `p${p.n}`;
  s.texts.set(id, text);
  return { id, text, hash, island: p.island };
}
