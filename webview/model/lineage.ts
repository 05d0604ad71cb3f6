/**
 * The candidate tree (parent → children) flattened into the rows a virtualised tree list shows:
 * depth-first, children in proposal order, collapsed subtrees left out.
 */
import { ANSWER_WORDS, commitAnswer } from '../../src/panelState/answers';
import { shortId } from './format';
import type { CandidateNode, RunState } from '../../src/panelState/types';

export type LineageStatus = 'commit' | 'reject' | 'pending';

export interface LineageRow {
  id: string;
  depth: number;
  /** 1-based position among its siblings and their count, for aria-posinset / aria-setsize. */
  pos: number;
  siblings: number;
  childCount: number;
  expanded: boolean;
  status: LineageStatus;
  incumbent: boolean;
  applied: boolean;
  label: string;
}

export interface LineageTree {
  roots: string[];
  children: Map<string, string[]>;
}

/**
 * A candidate whose parent the panel never saw (e.g. the parent's proposal predates a resumed
 * journal) becomes a root, so no candidate is ever hidden.
 */
export function buildLineage(state: RunState | undefined): LineageTree {
  const roots: string[] = [];
  const children = new Map<string, string[]>();
  if (!state) return { roots, children };
  for (const id of state.candidateOrder) {
    const node = state.candidates[id];
    if (!node) continue;
    const parent = node.parentId;
    if (parent !== undefined && parent !== id && Object.hasOwn(state.candidates, parent)) {
      let list = children.get(parent);
      if (!list) children.set(parent, (list = []));
      list.push(id);
    } else {
      roots.push(id);
    }
  }
  return { roots, children };
}

export function lineageRows(state: RunState | undefined, tree: LineageTree, collapsed: ReadonlySet<string>): LineageRow[] {
  const rows: LineageRow[] = [];
  if (!state) return rows;
  const seen = new Set<string>();
  // Iterative DFS: lineages can be thousands deep (every commit extends the chain).
  const stack: { id: string; depth: number; pos: number; siblings: number }[] = [];
  const pushLevel = (ids: string[], depth: number) => {
    for (let i = ids.length - 1; i >= 0; i--) stack.push({ id: ids[i]!, depth, pos: i + 1, siblings: ids.length });
  };
  pushLevel(tree.roots, 1);
  while (stack.length > 0) {
    const { id, depth, pos, siblings } = stack.pop()!;
    if (seen.has(id)) continue; // a parent cycle in bad data must not loop forever
    seen.add(id);
    const node = state.candidates[id]!;
    const kids = tree.children.get(id) ?? [];
    const expanded = kids.length > 0 && !collapsed.has(id);
    rows.push({
      id,
      depth,
      pos,
      siblings,
      childCount: kids.length,
      expanded,
      status: statusOf(node),
      incumbent: state.incumbentId === id,
      applied: node.applied !== undefined,
      label: rowLabel(node, state.incumbentId === id, kids.length),
    });
    if (expanded) pushLevel(kids, depth + 1);
  }
  return rows;
}

function statusOf(node: CandidateNode): LineageStatus {
  return node.decision ?? 'pending';
}

function rowLabel(node: CandidateNode, incumbent: boolean, kids: number): string {
  const status = node.decision === 'commit' ? 'committed' : node.decision === 'reject' ? `rejected (${node.reason ?? ''})` : 'pending';
  const answer = commitAnswer(node);
  const extras = [incumbent ? 'incumbent' : '', answer === undefined || answer === 'unoffered' ? '' : ANSWER_WORDS[answer]].filter(Boolean).join(', ');
  return `${shortId(node.id)} ${status}${extras ? `, ${extras}` : ''}${kids > 0 ? `, ${kids} children` : ''}`;
}

/** The parent of `id` in the current tree, for ArrowLeft on an already collapsed row. */
export function parentOf(state: RunState | undefined, id: string): string | undefined {
  const parent = state?.candidates[id]?.parentId;
  return parent !== undefined && state && Object.hasOwn(state.candidates, parent) ? parent : undefined;
}
