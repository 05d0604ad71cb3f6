/**
 * <ratchet-programs-genealogy>: a code search's programs as a tree by parent, one lane per island,
 * one row per generation, migrations as dashed arrows into the target lane, failed proposals as
 * faint squares beside the step they were an attempt at. Drawn on a canvas that paints only the
 * rows in view, so 5,000 programs scroll like 50. Shapes carry the state as well as colour: a
 * filled dot is committed, a ring around it a new best, a hollow dot rejected, a cross incorrect.
 *
 * Keyboard: the drawing is focusable; arrows move between marks, Backspace goes to the parent,
 * Home/End to the first and last, Enter (or a click) opens the program — or, for a failed
 * proposal, its parent with the failure — by dispatching `program-select`.
 */
import { emptyPrograms } from '../../src/panelState/programs';
import { el, setText } from '../dom';
import { canvasSupported } from '../charts/plot';
import type { GenealogyLayout, GenealogyMark, Move } from '../model/genealogyLayout';
import { layoutGenealogy, markAt, markKey, moveFrom, visibleLines } from '../model/genealogyLayout';
import { islandColorName } from '../model/islandColors';
import { FAILURE_KINDS } from '../model/throughputSeries';
import { onThemeChange, themeColor } from '../theme';
import type { RunState } from '../../src/panelState/types';
import type { ProgramsState } from '../../src/panelState/types';

export interface ProgramSelectDetail {
  programId: string;
  /** Set when a failed proposal was opened: its number (`FailedProposal.n`); `programId` is its parent. */
  failed?: number;
}

const KEY_MOVES: Record<string, Move> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
  Backspace: 'parent',
  Home: 'first',
  End: 'last',
};

interface Palette {
  fg: string;
  faint: string;
  error: string;
  focus: string;
  background: string;
  islands: (island: number) => string;
}

export class ProgramsGenealogy extends HTMLElement {
  private programsState: ProgramsState | undefined;
  private run: RunState | undefined;
  private cached: GenealogyLayout | undefined;
  private activeKey: string | undefined;
  private framePending = false;
  private palette: Palette | undefined;
  private readonly canvas = el('canvas', { className: 'genealogy-canvas', attrs: { 'aria-hidden': 'true' } });
  private readonly spacer = el('div', { className: 'genealogy-spacer' });
  private readonly scroller = el(
    'div',
    {
      className: 'genealogy-scroll',
      attrs: { tabindex: '0', role: 'application', 'aria-roledescription': 'program genealogy', 'aria-label': 'Program genealogy: arrows move between programs, Backspace goes to the parent, Enter opens' },
    },
    [this.spacer],
  );
  private readonly status = el('p', { className: 'genealogy-status', attrs: { 'aria-live': 'polite' } });
  private readonly count = el('span', { className: 'note' });
  private readonly empty = el('p', { className: 'empty', text: 'No programs yet.' });
  private readonly stage = el('div', { className: 'genealogy-stage' }, [this.scroller, this.canvas]);
  private unwatch: (() => void)[] = [];

  set programs(value: ProgramsState | undefined) {
    this.programsState = value;
    this.cached = undefined;
    this.schedule();
  }

  get programs(): ProgramsState | undefined {
    return this.programsState ?? this.run?.programs;
  }

  /** The run (its `programs` stand in when `.programs` is not set). */
  set runState(value: RunState | undefined) {
    this.run = value;
    this.cached = undefined;
    this.schedule();
  }

  get runState(): RunState | undefined {
    return this.run;
  }

  /** The laid-out marks (computed when first needed after a change). */
  get layout(): GenealogyLayout {
    this.cached ??= layoutGenealogy(this.programs ?? emptyPrograms());
    return this.cached;
  }

  /** The mark the keyboard is on, by its key (a program id, or `failed:<n>`). */
  get activeMark(): GenealogyMark | undefined {
    return this.activeKey === undefined ? undefined : this.layout.marks.find((m) => markKey(m) === this.activeKey);
  }

  connectedCallback(): void {
    if (this.childElementCount === 0) {
      this.append(el('div', { className: 'toolbar genealogy-legend' }, [...legend(), this.count]), this.stage, this.status, this.empty);
      this.scroller.addEventListener('scroll', () => this.schedule(), { passive: true });
      this.scroller.addEventListener('keydown', (e) => this.onKey(e));
      this.scroller.addEventListener('click', (e) => this.onClick(e));
      this.scroller.addEventListener('mousemove', (e) => this.onHover(e));
      this.scroller.addEventListener('focus', () => {
        if (this.activeKey === undefined) this.moveTo(moveFrom(this.layout, -1, 'first'), false);
      });
    }
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(() => this.schedule()) : undefined;
    resize?.observe(this.scroller);
    const unwatchTheme = onThemeChange(() => {
      this.palette = undefined;
      this.schedule();
    });
    this.unwatch = [() => resize?.disconnect(), unwatchTheme];
    this.schedule();
  }

  disconnectedCallback(): void {
    for (const off of this.unwatch) off();
    this.unwatch = [];
  }

  private schedule(): void {
    if (this.framePending) return;
    this.framePending = true;
    requestAnimationFrame(() => {
      this.framePending = false;
      this.paint();
    });
  }

  private paint(): void {
    const layout = this.layout;
    const programs = this.programs;
    const count = programs?.order.length ?? 0;
    this.empty.hidden = count > 0;
    this.stage.hidden = count === 0;
    setText(this.count, programs ? `${count} programs · ${programs.failed.length + programs.failedDropped} failed proposals · ${programs.migrations.length} migrations` : '');
    this.spacer.style.width = `${layout.width}px`;
    this.spacer.style.height = `${layout.height}px`;
    this.describeActive();
    this.draw(layout);
    // How many marks are laid out, for whoever waits on the drawing (the e2e specs, bench:panel).
    this.dataset.marks = String(layout.marks.length);
  }

  private draw(layout: GenealogyLayout): void {
    const width = this.scroller.clientWidth;
    const height = this.scroller.clientHeight;
    if (width === 0 || height === 0 || !canvasSupported()) return;
    const dpr = window.devicePixelRatio || 1;
    if (this.canvas.width !== Math.round(width * dpr) || this.canvas.height !== Math.round(height * dpr)) {
      this.canvas.width = Math.round(width * dpr);
      this.canvas.height = Math.round(height * dpr);
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${height}px`;
    }
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const p = (this.palette ??= readPalette());
    const left = this.scroller.scrollLeft;
    const top = this.scroller.scrollTop;
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
    const active = this.activeMark;
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
    ctx.font = `11px ${getComputedStyle(this).fontFamily || 'sans-serif'}`;
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

  private onKey(e: KeyboardEvent): void {
    const layout = this.layout;
    if (layout.marks.length === 0) return;
    const from = this.activeIndex();
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.open(from ?? moveFrom(layout, -1, 'first'));
      return;
    }
    const move = KEY_MOVES[e.key];
    if (!move) return;
    e.preventDefault();
    this.moveTo(moveFrom(layout, from ?? -1, from === undefined ? 'first' : move), true);
  }

  private onClick(e: MouseEvent): void {
    const i = this.pointed(e);
    if (i === undefined) return;
    this.moveTo(i, false);
    this.open(i);
  }

  private onHover(e: MouseEvent): void {
    const i = this.pointed(e);
    this.scroller.title = i === undefined ? '' : describe(this.layout.marks[i]!, this.programs);
  }

  private pointed(e: MouseEvent): number | undefined {
    const box = this.scroller.getBoundingClientRect();
    return markAt(this.layout, e.clientX - box.left + this.scroller.scrollLeft, e.clientY - box.top + this.scroller.scrollTop);
  }

  private activeIndex(): number | undefined {
    const key = this.activeKey;
    if (key === undefined) return undefined;
    const i = this.layout.marks.findIndex((m) => markKey(m) === key);
    return i >= 0 ? i : undefined;
  }

  private moveTo(index: number, scroll: boolean): void {
    const mark = this.layout.marks[index];
    if (!mark) return;
    this.activeKey = markKey(mark);
    if (scroll) this.scrollToMark(mark);
    this.describeActive();
    this.schedule();
  }

  private scrollToMark(mark: GenealogyMark): void {
    const g = this.layout.geometry;
    const s = this.scroller;
    const margin = g.rowHeight * 2;
    if (mark.y - margin - g.header < s.scrollTop) s.scrollTop = Math.max(0, mark.y - margin - g.header);
    else if (mark.y + margin > s.scrollTop + s.clientHeight) s.scrollTop = mark.y + margin - s.clientHeight;
    if (mark.x - g.pitch - g.gutter < s.scrollLeft) s.scrollLeft = Math.max(0, mark.x - g.pitch - g.gutter);
    else if (mark.x + g.pitch > s.scrollLeft + s.clientWidth) s.scrollLeft = mark.x + g.pitch - s.clientWidth;
  }

  private describeActive(): void {
    const mark = this.activeMark;
    setText(this.status, mark ? `${describe(mark, this.programs)} — Enter opens it.` : 'Focus the drawing and use the arrow keys to walk the programs; Enter opens one.');
  }

  private open(index: number): void {
    const mark = this.layout.marks[index];
    if (!mark) return;
    const detail: ProgramSelectDetail = mark.kind === 'program' ? { programId: mark.programId } : { programId: mark.programId, failed: mark.n };
    this.dispatchEvent(new CustomEvent<ProgramSelectDetail>('program-select', { bubbles: true, composed: true, detail }));
  }
}

/** A mark in words: the status line, the hover title, and what a screen reader hears. */
export function describe(mark: GenealogyMark, s: ProgramsState | undefined): string {
  if (mark.kind === 'failed') {
    const f = s?.failed.find((x) => x.n === mark.n);
    return `Failed proposal #${mark.n} from ${mark.programId} on island ${mark.island} (${mark.reason}: ${FAILURE_KINDS[mark.reason]})${f ? `: ${f.message}` : ''}`;
  }
  const node = s?.nodes[mark.programId];
  const facts = [
    `island ${mark.island}`,
    `generation ${mark.generation}`,
    node ? `${node.kind}${node.model ? ` by ${node.model}` : ''}` : undefined,
    node?.score !== undefined ? `score ${node.score.toFixed(4)}` : mark.evaluated ? undefined : 'not evaluated yet',
    mark.incorrect ? 'incorrect' : undefined,
    mark.newBest ? 'committed, new best' : mark.committed ? 'committed' : node?.decision === 'reject' ? 'rejected' : undefined,
    node?.migratedTo?.length ? `migrated to island ${node.migratedTo.join(', ')}` : undefined,
  ].filter((x): x is string => x !== undefined);
  return `${mark.programId}${node?.name ? ` “${node.name}”` : ''}: ${facts.join(', ')}`;
}

function readPalette(): Palette {
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

/** The legend: each shape named in words (colour is never the only cue). */
function legend(): HTMLElement[] {
  const item = (shape: string, text: string) => el('span', { className: 'genealogy-key' }, [el('span', { className: `genealogy-shape ${shape}`, attrs: { 'aria-hidden': 'true' } }), text]);
  return [item('committed', 'committed'), item('best', 'new best'), item('rejected', 'rejected'), item('pending', 'not evaluated yet'), item('incorrect', 'incorrect'), item('failed', 'failed proposal'), item('migration', 'migration')];
}

customElements.define('ratchet-programs-genealogy', ProgramsGenealogy);
