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
import { drawGenealogy, readPalette } from '../charts/genealogyCanvas';
import type { Palette } from '../charts/genealogyCanvas';
import type { GenealogyLayout, GenealogyMark, Move } from '../model/genealogyLayout';
import { layoutGenealogy, markAt, markKey, moveFrom } from '../model/genealogyLayout';
import { FAILURE_KINDS } from '../model/throughputSeries';
import { onThemeChange } from '../theme';
import type { RunState } from '../../src/panelState/types';
import type { ProgramsState } from '../../src/panelState/types';
import { oncePerFrame } from '../frame';

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

export class ProgramsGenealogy extends HTMLElement {
  private programsState: ProgramsState | undefined;
  private run: RunState | undefined;
  private cached: GenealogyLayout | undefined;
  private activeKey: string | undefined;
  private readonly schedule = oncePerFrame(() => this.paint());
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
    this.palette ??= readPalette();
    const view = { left: this.scroller.scrollLeft, top: this.scroller.scrollTop, width, height, dpr };
    drawGenealogy(ctx, layout, view, this.palette, this.activeMark, getComputedStyle(this).fontFamily || 'sans-serif');
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

/** The legend: each shape named in words (colour is never the only cue). */
function legend(): HTMLElement[] {
  const item = (shape: string, text: string) => el('span', { className: 'genealogy-key' }, [el('span', { className: `genealogy-shape ${shape}`, attrs: { 'aria-hidden': 'true' } }), text]);
  return [item('committed', 'committed'), item('best', 'new best'), item('rejected', 'rejected'), item('pending', 'not evaluated yet'), item('incorrect', 'incorrect'), item('failed', 'failed proposal'), item('migration', 'migration')];
}

customElements.define('ratchet-programs-genealogy', ProgramsGenealogy);
