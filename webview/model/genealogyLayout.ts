import type { FailureReason, ProgramsState } from '../../src/panelState/types';
/**
 * Where the genealogy draws each program: islands are vertical lanes, generations are rows going
 * down, a program sits in its (island, generation) cell beside the failed proposals of the same
 * step, and a line joins each mark to its parent. Pure geometry over `ProgramsState` (no DOM), so
 * the component only paints what lies in its viewport, and hit testing and keyboard moves are
 * binary searches over lines of marks, whatever the run's size.
 */

export interface GenealogyGeometry {
  /** Horizontal distance between two marks of one cell. */
  pitch: number;
  rowHeight: number;
  /** Room left of the first lane for the generation numbers. */
  gutter: number;
  /** Room above the first row for the island names. */
  header: number;
  laneGap: number;
  /** Marks one cell holds on a line before it wraps onto the next (a cell with many failed attempts). */
  cellSlots: number;
  /** A lane is at least this many marks wide, so edges and migrations have room beside the marks. */
  minLaneSlots: number;
}

export const GENEALOGY_GEOMETRY: GenealogyGeometry = { pitch: 14, rowHeight: 16, gutter: 48, header: 22, laneGap: 24, cellSlots: 8, minLaneSlots: 3 };

interface MarkBase {
  island: number;
  generation: number;
  /** Centre, in layout pixels (the scroll area's coordinates). */
  x: number;
  y: number;
  /** Index of the parent's mark; undefined for a root or a parent the panel never saw. */
  parent: number | undefined;
  /**
   * A mark with children in its own lane draws one vertical trunk in the lane's gap, from its row
   * down to its last such child's, and each of those children hangs off it by a short tick: a
   * parent picked hundreds of times (an island's incumbent) is one line to follow, not hundreds.
   */
  trunk?: { x: number; bottom: number };
}

export interface ProgramMark extends MarkBase {
  kind: 'program';
  programId: string;
  evaluated: boolean;
  incorrect: boolean;
  committed: boolean;
  newBest: boolean;
}

export interface FailedMark extends MarkBase {
  kind: 'failed';
  /** The proposal's parent: the program a failed proposal opens. */
  programId: string;
  n: number;
  reason: FailureReason;
}

export type GenealogyMark = ProgramMark | FailedMark;

export interface Lane {
  island: number;
  /** Left edge and width, in layout pixels. */
  x: number;
  width: number;
}

/**
 * A ring migration, drawn where it happened: a short arrow at the row after generation
 * `generation`, from the source lane into the target lane (not from the program's own mark, which
 * may be hundreds of rows above).
 */
export interface GenealogyMigration {
  /** The migrated program's mark. */
  from: number;
  to: number;
  fromX: number;
  x: number;
  y: number;
}

export interface GenealogyLayout {
  marks: GenealogyMark[];
  lanes: Lane[];
  migrations: GenealogyMigration[];
  /** Marks grouped by their y, top to bottom; each line's marks left to right (indices into `marks`). */
  lines: { y: number; generation: number; marks: number[] }[];
  width: number;
  height: number;
  geometry: GenealogyGeometry;
}

/** A mark's stable key across re-layouts: a program's id, or `failed:<n>`. */
export function markKey(mark: GenealogyMark): string {
  return mark.kind === 'program' ? mark.programId : `failed:${mark.n}`;
}

/** What one (island, generation) cell holds: a program by id, a failed proposal by its index in `failed`. */
type CellEntry = { kind: 'program'; id: string } | { kind: 'failed'; index: number };

export function layoutGenealogy(s: ProgramsState, g: GenealogyGeometry = GENEALOGY_GEOMETRY): GenealogyLayout {
  const islands = Math.max(1, s.islands);
  // Cells by generation, then island: what each (island, generation) holds in arrival order.
  const cells = new Map<number, CellEntry[][]>();
  const cell = (generation: number, island: number) => {
    let row = cells.get(generation);
    if (!row) cells.set(generation, (row = Array.from({ length: islands }, () => [])));
    return (row[island] ??= []);
  };
  // A program's generation by when it was proposed, per island: a failed proposal belongs to the
  // step whose attempt it was (the next program proposed on its island), or to the step after the
  // island's last one when nothing followed it.
  const byIsland: { at: number; generation: number }[][] = Array.from({ length: islands }, () => []);
  for (const id of s.order) {
    const node = s.nodes[id]!;
    cell(node.generation, node.island).push({ kind: 'program', id });
    byIsland[node.island]?.push({ at: node.proposedAt, generation: node.generation });
  }
  s.failed.forEach((f, index) => {
    const steps = byIsland[f.island] ?? [];
    const next = firstAtOrAfter(steps, f.at);
    const generation = next < steps.length ? steps[next]!.generation : (steps.at(-1)?.generation ?? 0) + 1;
    cell(generation, f.island).push({ kind: 'failed', index });
  });

  // Lane widths from the widest cell; row heights from the most wrapped cell.
  const slotsWide = Array.from({ length: islands }, () => g.minLaneSlots);
  const generations = [...cells.keys()].sort((a, b) => a - b);
  const rowTop = new Map<number, number>();
  let y = g.header;
  for (const gen of generations) {
    const row = cells.get(gen)!;
    let lines = 1;
    row.forEach((entries, island) => {
      slotsWide[island] = Math.max(slotsWide[island]!, Math.min(entries.length, g.cellSlots));
      lines = Math.max(lines, Math.ceil(entries.length / g.cellSlots));
    });
    rowTop.set(gen, y);
    y += lines * g.rowHeight;
  }
  const lanes: Lane[] = [];
  let x = g.gutter;
  for (let island = 0; island < islands; island++) {
    const width = slotsWide[island]! * g.pitch + g.laneGap;
    lanes.push({ island, x, width });
    x += width;
  }

  const marks: GenealogyMark[] = [];
  const programMark = new Map<string, number>();
  const lineOf = new Map<number, { y: number; generation: number; marks: number[] }>();
  for (const gen of generations) {
    cells.get(gen)!.forEach((entries, island) => {
      const lane = lanes[island]!;
      entries.forEach((entry, slot) => {
        const mx = lane.x + g.laneGap / 2 + (slot % g.cellSlots) * g.pitch + g.pitch / 2;
        const my = rowTop.get(gen)! + Math.floor(slot / g.cellSlots) * g.rowHeight + g.rowHeight / 2;
        const index = marks.length;
        if (entry.kind === 'program') {
          const node = s.nodes[entry.id]!;
          marks.push({
            kind: 'program',
            programId: node.id,
            island,
            generation: gen,
            x: mx,
            y: my,
            parent: undefined,
            evaluated: node.evalIndex !== undefined,
            incorrect: node.correct === false,
            committed: node.committed,
            newBest: node.newBest === true,
          });
          programMark.set(node.id, index);
        } else {
          const f = s.failed[entry.index]!;
          marks.push({ kind: 'failed', programId: f.parentId, n: f.n, reason: f.reason, island, generation: gen, x: mx, y: my, parent: undefined });
        }
        let line = lineOf.get(my);
        if (!line) lineOf.set(my, (line = { y: my, generation: gen, marks: [] }));
        line.marks.push(index);
      });
    });
  }
  for (const mark of marks) {
    const parentId = mark.kind === 'program' ? s.nodes[mark.programId]!.parentId : mark.programId;
    const parent = parentId === undefined ? undefined : programMark.get(parentId);
    if (parent === undefined || marks[parent] === mark) continue;
    mark.parent = parent;
    const p = marks[parent]!;
    if (p.island !== mark.island || mark.y <= p.y) continue;
    // Trunks of different parents spread over the gap left of the lane's marks, so they part.
    const lane = lanes[p.island]!;
    p.trunk ??= { x: lane.x + 2 + ((parent * 5) % Math.max(1, g.laneGap / 2 - 4)), bottom: p.y };
    p.trunk.bottom = Math.max(p.trunk.bottom, mark.y);
  }
  const migrations: GenealogyMigration[] = [];
  for (const m of s.migrations) {
    const from = programMark.get(m.programId);
    const source = lanes[m.from];
    const target = lanes[m.to];
    if (from === undefined || !source || !target) continue;
    // It moved after generation m.generation: the arrow sits between that row and the next, in the
    // lanes' gaps, where no mark is.
    const top = rowTop.get(m.generation + 1) ?? rowTop.get(m.generation) ?? marks[from]!.y;
    const rightwards = target.x > source.x;
    const gapLeft = (lane: Lane) => lane.x + g.laneGap / 4;
    const gapRight = (lane: Lane) => lane.x + lane.width - g.laneGap / 4;
    migrations.push({ from, to: m.to, fromX: rightwards ? gapRight(source) : gapLeft(source), x: rightwards ? gapLeft(target) : gapRight(target), y: top });
  }
  const lines = [...lineOf.values()].sort((a, b) => a.y - b.y);
  for (const line of lines) line.marks.sort((a, b) => marks[a]!.x - marks[b]!.x);
  return { marks, lanes, migrations, lines, width: x, height: y + g.rowHeight, geometry: g };
}

function firstAtOrAfter(steps: readonly { at: number }[], at: number): number {
  let lo = 0;
  let hi = steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (steps[mid]!.at < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first line whose y is at least `y`. */
function lineAtOrBelow(layout: GenealogyLayout, y: number): number {
  let lo = 0;
  let hi = layout.lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (layout.lines[mid]!.y < y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Indices of the lines between `top` and `bottom` (layout pixels), with `margin` more on each side. */
export function visibleLines(layout: GenealogyLayout, top: number, bottom: number, margin = 0): { first: number; end: number } {
  return { first: lineAtOrBelow(layout, top - margin), end: lineAtOrBelow(layout, bottom + margin + 0.001) };
}

/** The mark under a point (layout pixels), within `radius`; undefined when none is that close. */
export function markAt(layout: GenealogyLayout, x: number, y: number, radius = layout.geometry.pitch / 2): number | undefined {
  const { first, end } = visibleLines(layout, y, y, radius);
  let best: number | undefined;
  let bestD = radius * radius;
  for (let l = first; l < end; l++) {
    for (const i of layout.lines[l]!.marks) {
      const m = layout.marks[i]!;
      const d = (m.x - x) ** 2 + (m.y - y) ** 2;
      if (d <= bestD) {
        bestD = d;
        best = i;
      }
    }
  }
  return best;
}

export type Move = 'left' | 'right' | 'up' | 'down' | 'parent' | 'first' | 'last';

/**
 * The mark a key moves to from `from`: left/right along its line, up/down to the nearest mark of
 * the line above or below, parent to its parent's mark. Stays put at an edge.
 */
export function moveFrom(layout: GenealogyLayout, from: number, move: Move): number {
  const { marks, lines } = layout;
  if (marks.length === 0) return from;
  if (move === 'first') return lines[0]!.marks[0]!;
  if (move === 'last') return lines.at(-1)!.marks.at(-1)!;
  const mark = marks[from];
  if (!mark) return lines[0]!.marks[0]!;
  if (move === 'parent') return mark.parent ?? from;
  const l = lineAtOrBelow(layout, mark.y);
  const line = lines[l]!;
  if (move === 'left' || move === 'right') {
    const at = line.marks.indexOf(from);
    return line.marks[at + (move === 'left' ? -1 : 1)] ?? from;
  }
  const other = lines[l + (move === 'up' ? -1 : 1)];
  if (!other) return from;
  let best = other.marks[0]!;
  for (const i of other.marks) if (Math.abs(marks[i]!.x - mark.x) < Math.abs(marks[best]!.x - mark.x)) best = i;
  return best;
}
