// The genealogy's geometry over a real in-process search (the search tests' world) and over a
// 5,000-program synthetic one: every program in its island's lane and its generation's row,
// below its parent; failed proposals beside the step they were an attempt at; migrations ending
// in the lane they moved to; and the keyboard and pointer finding the marks a user means.
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src/core/journal/events';
import { emptyPrograms, foldProgramEvent } from '../../../src/panelState/programs';
import { layoutGenealogy, markAt, markKey, moveFrom, visibleLines, type GenealogyLayout, type ProgramMark } from '../../../webview/model/genealogyLayout';
import { migratingSearchEvents } from '../code/searchWorld';
import { syntheticSearch } from './syntheticSearch';
import type { ProgramsState } from '../../../src/panelState/types';

async function realSearch(seed: number, proposals: number, broken: boolean): Promise<ProgramsState> {
  return fold(await migratingSearchEvents(seed, proposals, broken));
}

function fold(events: EngineEvent[]): ProgramsState {
  const s = emptyPrograms();
  for (const e of events) foldProgramEvent(s, e);
  return s;
}

const laneOf = (layout: GenealogyLayout, x: number) => layout.lanes.find((l) => x >= l.x && x < l.x + l.width)?.island;

describe('genealogy layout', () => {
  it('puts every program in its island’s lane and generation’s row, below its parent, with migrations into the target lane', async () => {
    const s = await realSearch(3, 40, false);
    const layout = layoutGenealogy(s);
    const programs = layout.marks.filter((m): m is ProgramMark => m.kind === 'program');
    expect(programs.map((m) => m.programId).sort()).toEqual([...s.order].sort());
    for (const m of programs) {
      const node = s.nodes[m.programId]!;
      expect(laneOf(layout, m.x)).toBe(node.island);
      expect(m.generation).toBe(node.generation);
      expect(m.committed).toBe(node.committed);
      // Another island's copy of the seed is never proposed: its children start the lane.
      if (node.parentId === undefined || !s.nodes[node.parentId]) {
        expect(m.parent).toBeUndefined();
        continue;
      }
      const parent = layout.marks[m.parent!]!;
      expect(parent.kind === 'program' && parent.programId).toBe(node.parentId);
      expect(parent.y).toBeLessThan(m.y);
      // A child in its parent's lane hangs off the parent's trunk, which reaches down to it.
      if (parent.island === m.island) {
        expect(parent.trunk!.bottom).toBeGreaterThanOrEqual(m.y);
        expect(laneOf(layout, parent.trunk!.x)).toBe(m.island);
        expect(parent.trunk!.x).toBeLessThan(m.x - layout.geometry.pitch / 2);
      }
    }
    expect(layout.migrations.length).toBe(s.migrations.length);
    for (const [i, m] of layout.migrations.entries()) {
      expect(laneOf(layout, m.fromX)).toBe(s.migrations[i]!.from);
      expect(laneOf(layout, m.x)).toBe(s.migrations[i]!.to);
      expect(layout.marks[m.from]!.kind === 'program' && (layout.marks[m.from] as ProgramMark).programId).toBe(s.migrations[i]!.programId);
    }
    expect(layout.lanes).toHaveLength(2);
  });

  it('draws a failed proposal faint in the row of the step it was an attempt at, joined to its parent', async () => {
    const s = await realSearch(5, 12, true);
    expect(s.failed.length).toBeGreaterThan(0);
    const layout = layoutGenealogy(s);
    const failed = layout.marks.filter((m) => m.kind === 'failed');
    expect(failed.map((m) => m.kind === 'failed' && m.n)).toEqual(s.failed.map((f) => f.n));
    for (const m of failed) {
      const f = s.failed.find((x) => m.kind === 'failed' && x.n === m.n)!;
      expect(laneOf(layout, m.x)).toBe(f.island);
      if (s.nodes[f.parentId]) expect((layout.marks[m.parent!] as ProgramMark).programId).toBe(f.parentId);
      else expect(m.parent).toBeUndefined();
      // The next program proposed on its island after it shares its row.
      const next = s.order.map((id) => s.nodes[id]!).find((n) => n.island === f.island && n.proposedAt >= f.at);
      if (next) expect(m.generation).toBe(next.generation);
    }
  });

  it('keyboard moves and pointer hits find the mark a user means, and a 5,000-program run paints a few rows at a time', () => {
    const s = fold(syntheticSearch({ programs: 5_000, islands: 4, seed: 11 }));
    const layout = layoutGenealogy(s);
    expect(layout.marks.filter((m) => m.kind === 'program')).toHaveLength(5_000);
    expect(layout.marks.filter((m) => m.kind === 'failed')).toHaveLength(s.failed.length);
    const first = moveFrom(layout, -1, 'first');
    expect(markKey(layout.marks[first]!)).toBe('p0');
    // The seed is alone in its row; down goes to generation 1, where right walks island by island.
    expect(moveFrom(layout, first, 'left')).toBe(first);
    expect(moveFrom(layout, first, 'up')).toBe(first);
    const down = moveFrom(layout, first, 'down');
    expect(layout.marks[down]!.y).toBeGreaterThan(layout.marks[first]!.y);
    expect(layout.marks[down]!.generation).toBe(1);
    const right = moveFrom(layout, down, 'right');
    expect(layout.marks[right]!.y).toBe(layout.marks[down]!.y);
    expect(layout.marks[right]!.x).toBeGreaterThan(layout.marks[down]!.x);
    expect(moveFrom(layout, right, 'up')).toBe(first);
    const deep = layout.lines[layout.lines.length - 5]!.marks[0]!;
    const parent = moveFrom(layout, deep, 'parent');
    expect(parent).toBe(layout.marks[deep]!.parent);
    for (const i of [first, down, deep, moveFrom(layout, -1, 'last')]) {
      const m = layout.marks[i]!;
      expect(markAt(layout, m.x + 2, m.y - 2)).toBe(i);
    }
    expect(markAt(layout, 2, 2)).toBeUndefined();
    // A 400 px view holds about 25 rows of the 1,250 generations.
    const { first: a, end: b } = visibleLines(layout, 10_000, 10_400);
    const inView = layout.lines.slice(a, b).reduce((n, l) => n + l.marks.length, 0);
    expect(b - a).toBeLessThanOrEqual(30);
    expect(inView).toBeLessThan(200);
    expect(layout.height).toBeGreaterThan(1_250 * layout.geometry.rowHeight);
  });
});
