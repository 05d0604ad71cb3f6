/**
 * The program genealogy's canvas painting (the <ratchet-programs-genealogy> element owns the
 * canvas, the scrolling and the keyboard): island lanes, parent edges, migrations, the marks in
 * the rows in view, the focus ring, and the sticky island and generation labels. What each mark's
 * shape says is the element's doc comment and legend.
 */
import type { GenealogyLayout, GenealogyMark } from '../model/genealogyLayout';
import { visibleLines } from '../model/genealogyLayout';
import { islandColorName } from '../model/islandColors';
import { themeColor } from '../theme';

/** The theme's colours, read once and again after a theme change (the element drops its copy). */
export interface Palette {
  fg: string;
  faint: string;
  error: string;
  focus: string;
  background: string;
  islands: (island: number) => string;
}

/** The part of the drawing in view: its scroll offset and size in CSS pixels, and the device pixel ratio. */
export interface GenealogyView {
  left: number;
  top: number;
  width: number;
  height: number;
  dpr: number;
}

/** Paints the rows of `layout` in `view`, with a focus ring round `active`. */
export function drawGenealogy(ctx: CanvasRenderingContext2D, layout: GenealogyLayout, view: GenealogyView, p: Palette, active: GenealogyMark | undefined, fontFamily: string): void {
  const { left, top, width, height, dpr } = view;
  const g = layout.geometry;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.translate(-left, -top);

  // Lanes: a faint band per island.
  for (const lane of layout.lanes) {
    ctx.globalAlpha = lane.island % 2 === 0 ? 0.05 : 0.09;
    ctx.fillStyle = p.islands(lane.island);
    ctx.fillRect(lane.x, top, lane.width, height);
  }
  ctx.globalAlpha = 1;

  // Edges, one path per island and kind (thousands of strokes of their own would cost a frame
  // each): a child in its parent's lane hangs off the parent's trunk by a tick; a child in
  // another lane (its parent migrated, or a crossover) gets a curve from the parent.
  const bottom = top + height;
  const { marks } = layout;
  const paths = new Map<string, { island: number; alpha: number; path: Path2D }>();
  const pathFor = (island: number, alpha: number) => {
    const key = `${island}:${alpha}`;
    let batch = paths.get(key);
    if (!batch) paths.set(key, (batch = { island, alpha, path: new Path2D() }));
    return batch.path;
  };
  for (const m of marks) {
    if (m.trunk && m.trunk.bottom >= top && m.y <= bottom) {
      const path = pathFor(m.island, 0.4);
      path.moveTo(m.x - 4, m.y);
      path.lineTo(m.trunk.x, m.y);
      path.lineTo(m.trunk.x, m.trunk.bottom);
    }
    if (m.parent === undefined) continue;
    const parent = marks[m.parent]!;
    const alpha = m.kind === 'failed' ? 0.3 : 0.6;
    if (parent.trunk && parent.island === m.island && m.y > parent.y) {
      if (m.y < top - g.rowHeight || m.y > bottom + g.rowHeight) continue;
      const path = pathFor(m.island, alpha);
      path.moveTo(parent.trunk.x, m.y);
      path.lineTo(m.x - (m.kind === 'failed' ? 3 : 4), m.y);
      continue;
    }
    if (Math.max(parent.y, m.y) < top || Math.min(parent.y, m.y) > bottom) continue;
    const path = pathFor(m.island, 0.3);
    const mid = (parent.y + m.y) / 2;
    path.moveTo(parent.x, parent.y);
    path.bezierCurveTo(parent.x, mid, m.x, mid, m.x, m.y);
  }
  ctx.lineWidth = 1;
  for (const { island, alpha, path } of paths.values()) {
    ctx.globalAlpha = alpha;
    ctx.strokeStyle = p.islands(island);
    ctx.stroke(path);
  }
  // Migrations: a dashed arrow between the lanes, at the generation after which it moved.
  ctx.setLineDash([3, 2]);
  ctx.globalAlpha = 0.9;
  for (const m of layout.migrations) {
    if (m.y < top - g.rowHeight || m.y > bottom + g.rowHeight) continue;
    ctx.strokeStyle = p.islands(m.to);
    ctx.fillStyle = p.islands(m.to);
    ctx.beginPath();
    ctx.moveTo(m.fromX, m.y);
    ctx.lineTo(m.x, m.y);
    ctx.stroke();
    arrowHead(ctx, m.fromX, m.y, m.x, m.y);
  }
  ctx.setLineDash([]);

  // Marks in the rows in view.
  const { first, end } = visibleLines(layout, top, bottom, g.rowHeight);
  for (let l = first; l < end; l++) {
    for (const i of layout.lines[l]!.marks) {
      const m = marks[i]!;
      if (m.x < left - g.pitch || m.x > left + width + g.pitch) continue;
      drawMark(ctx, m, p);
    }
  }
  if (active) {
    ctx.globalAlpha = 1;
    ctx.strokeStyle = p.focus;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(active.x, active.y, 7, 0, Math.PI * 2);
    ctx.stroke();
  }

  // Sticky labels: island names above the lanes, generation numbers left of the rows.
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.globalAlpha = 1;
  ctx.font = `11px ${fontFamily}`;
  ctx.textBaseline = 'middle';
  ctx.fillStyle = p.background;
  ctx.fillRect(0, 0, g.gutter, height);
  ctx.fillStyle = p.faint;
  ctx.textAlign = 'right';
  let lastGeneration = -1;
  for (let l = first; l < end; l++) {
    const line = layout.lines[l]!;
    if (line.generation === lastGeneration) continue;
    lastGeneration = line.generation;
    ctx.fillText(String(line.generation), g.gutter - 8, line.y - top);
  }
  ctx.fillStyle = p.background;
  ctx.fillRect(0, 0, width, g.header);
  ctx.textAlign = 'left';
  ctx.fillStyle = p.faint;
  ctx.fillText('gen', 6, g.header / 2);
  for (const lane of layout.lanes) {
    const x = lane.x - left + g.laneGap / 2;
    if (x + lane.width < g.gutter || x > width) continue;
    ctx.fillStyle = p.islands(lane.island);
    ctx.fillText(`island ${lane.island}`, Math.max(x, g.gutter), g.header / 2);
  }
}

/** Each island's colour is read on first use. */
export function readPalette(): Palette {
  const islands = new Map<number, string>();
  return {
    fg: themeColor('foreground'),
    faint: themeColor('descriptionForeground'),
    error: themeColor('errorForeground'),
    focus: themeColor('focusBorder'),
    background: themeColor('editor-background', 'panel-background'),
    islands: (island) => {
      let c = islands.get(island);
      if (c === undefined) islands.set(island, (c = themeColor(islandColorName(island), 'charts-blue')));
      return c;
    },
  };
}

function drawMark(ctx: CanvasRenderingContext2D, m: GenealogyMark, p: Palette): void {
  const colour = p.islands(m.island);
  ctx.lineWidth = 1.5;
  if (m.kind === 'failed') {
    ctx.globalAlpha = 0.45;
    ctx.strokeStyle = colour;
    ctx.strokeRect(m.x - 3, m.y - 3, 6, 6);
    return;
  }
  ctx.globalAlpha = 1;
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.arc(m.x, m.y, m.newBest ? 5 : 4, 0, Math.PI * 2);
  if (m.committed) ctx.fill();
  else if (!m.evaluated) ctx.setLineDash([2, 2]);
  ctx.stroke();
  ctx.setLineDash([]);
  if (m.newBest) {
    ctx.strokeStyle = p.fg;
    ctx.beginPath();
    ctx.arc(m.x, m.y, 7.5, 0, Math.PI * 2);
    ctx.stroke();
  }
  if (m.incorrect) {
    ctx.strokeStyle = p.error;
    ctx.beginPath();
    ctx.moveTo(m.x - 4, m.y - 4);
    ctx.lineTo(m.x + 4, m.y + 4);
    ctx.moveTo(m.x + 4, m.y - 4);
    ctx.lineTo(m.x - 4, m.y + 4);
    ctx.stroke();
  }
}

function arrowHead(ctx: CanvasRenderingContext2D, x1: number, y1: number, x2: number, y2: number): void {
  const angle = Math.atan2(y2 - y1, x2 - x1);
  ctx.beginPath();
  ctx.moveTo(x2, y2);
  ctx.lineTo(x2 - 6 * Math.cos(angle - 0.45), y2 - 6 * Math.sin(angle - 0.45));
  ctx.lineTo(x2 - 6 * Math.cos(angle + 0.45), y2 - 6 * Math.sin(angle + 0.45));
  ctx.closePath();
  ctx.fill();
}
