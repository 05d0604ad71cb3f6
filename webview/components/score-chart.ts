/**
 * <ratchet-score-chart>: a code search's Score over time. Every evaluated program is a point
 * coloured by its island; incorrect ones are crosses on a band below every score; committed ones
 * are ringed; the best committed score so far is a step line. A click (or ←/→/Home/End with the
 * chart focused) selects a program. uPlot draws 5,000 points without help: points-only series, no
 * per-point DOM, and the step line is decimated by its path builder.
 */
import uPlot from 'uplot';
import { el, setText } from '../dom';
import type { PlotOptions } from '../charts/plot';
import { PlotController } from '../charts/plot';
import type { ScoreChartData } from '../model/programsView';
import { formatScore, programLine } from '../model/programsView';
import { themeColor } from '../theme';
import { islandColorName } from '../model/islandColors';
import type { ProgramsState } from '../../src/panelState/types';

const HEIGHT = 240;
/** Past this many programs the markers shrink, or the rings of the committed ones hide the islands' colours. */
const DENSE = 1_000;
/** A press that moved further than this (px) was a zoom drag, not a click on a point. */
const CLICK_SLOP = 4;

export class ScoreChart extends HTMLElement {
  /** A point was clicked, or the keyboard moved the selection. */
  onSelect: ((programId: string) => void) | undefined;
  private readonly canvasHost = el('div', { className: 'chart score-chart', attrs: { role: 'img', tabindex: '0' } });
  private readonly readout = el('p', { className: 'chart-readout note', attrs: { 'aria-hidden': 'true' } });
  private readonly summary = el('p', { className: 'chart-summary', attrs: { 'aria-live': 'polite' } });
  private controller: PlotController | undefined;
  private model: ScoreChartData | undefined;
  private programs: ProgramsState | undefined;
  private selectedId: string | undefined;
  private pressedAt: { x: number; y: number } | undefined;

  connectedCallback(): void {
    if (this.childElementCount > 0) return;
    this.append(this.canvasHost, this.readout, this.summary);
    this.controller = new PlotController(this.canvasHost, () => this.options(), HEIGHT);
    this.canvasHost.addEventListener('keydown', (e) => this.onKey(e));
  }

  update(model: ScoreChartData, programs: ProgramsState, selectedId: string | undefined): void {
    this.connectedCallback();
    const rebuild = this.model !== undefined && (this.model.islands.length !== model.islands.length || this.model.axis !== model.axis || this.model.x.length > DENSE !== model.x.length > DENSE);
    this.model = model;
    this.programs = programs;
    this.selectedId = selectedId;
    setText(this.summary, model.summary);
    this.canvasHost.setAttribute('aria-label', `Score over time. ${model.summary} Arrow keys move the selected program.`);
    if (rebuild) this.controller?.rebuild();
    this.showReadout(this.plot?.cursor.idx);
    this.controller?.update([model.x, ...model.islands, model.incorrect, model.committed, model.best, model.selected]);
  }

  /** The uPlot drawing the chart, once it has a width (the e2e spec reads where a point lies from it). */
  get plot(): uPlot | undefined {
    return this.controller?.instance;
  }

  /** On each uPlot the controller makes (a theme change or a new axis makes a new one). */
  private wireClicks(u: uPlot): void {
    const over = u.over;
    over.addEventListener('mousedown', (e) => (this.pressedAt = { x: e.clientX, y: e.clientY }));
    over.addEventListener('click', (e) => {
      const from = this.pressedAt;
      if (from && Math.hypot(e.clientX - from.x, e.clientY - from.y) > CLICK_SLOP) return;
      // The point under the click itself, not uPlot's cursor: a chart rebuilt while the search runs
      // (an island's first program, a theme change) has no cursor until the pointer moves again,
      // and a click then opened nothing.
      const idx = u.cursor.idx ?? u.posToIdx(e.clientX - over.getBoundingClientRect().left);
      const id = idx === null || idx === undefined ? undefined : this.model?.ids[idx];
      if (id !== undefined) this.onSelect?.(id);
    });
  }

  private onKey(e: KeyboardEvent): void {
    const ids = this.model?.ids ?? [];
    if (ids.length === 0) return;
    const at = this.selectedId === undefined ? -1 : ids.indexOf(this.selectedId);
    const next = e.key === 'ArrowRight' ? at + 1 : e.key === 'ArrowLeft' ? (at < 0 ? ids.length - 1 : at - 1) : e.key === 'Home' ? 0 : e.key === 'End' ? ids.length - 1 : undefined;
    if (next === undefined) return;
    e.preventDefault();
    const id = ids[Math.max(0, Math.min(ids.length - 1, next))];
    if (id !== undefined) this.onSelect?.(id);
  }

  private options(): PlotOptions {
    const fg = themeColor('foreground');
    const grid = themeColor('editorWidget-border', 'widget-border');
    const bestColour = themeColor('charts-green');
    const ring = themeColor('foreground');
    const selectedColour = themeColor('focusBorder');
    const wrong = themeColor('errorForeground', 'charts-red');
    const m = this.model;
    const none = 'rgba(0,0,0,0)';
    const dense = (m?.x.length ?? 0) > DENSE;
    const dot = dense ? 3 : 6;
    const ringSize = dense ? 6 : 12;
    const islandSeries = (m?.islands ?? [[]]).map((_, i): uPlot.Series => {
      const c = themeColor(islandColorName(i), 'charts-blue');
      return { label: `island ${i}`, stroke: c, fill: c, width: 0, paths: () => null, points: { show: true, size: dot, width: 1, stroke: c, fill: c } };
    });
    return {
      scales: {
        // Half a step of room each side, so the first and the latest point are not cut by the frame.
        x: { time: false, range: (_u: uPlot, min: number, max: number): uPlot.Range.MinMax => (this.model?.axis === 'time' ? [min - Math.max(1, (max - min) * 0.02), max + Math.max(1, (max - min) * 0.02)] : [min - 0.5, max + 0.5]) },
        y: { range: (): uPlot.Range.MinMax => this.model?.yRange ?? [0, 1] },
      },
      axes: [
        {
          stroke: fg,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid },
          label: m?.axis === 'time' ? 'seconds since the start' : 'evaluation',
          // Evaluations are whole numbers: integer tick steps only.
          ...(m?.axis === 'time' ? {} : { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000] }),
        },
        {
          stroke: fg,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid },
          label: 'combined score',
          size: 56,
          // The incorrect band is not a score: its tick says what it holds.
          values: (_u: uPlot, splits: number[]) => splits.map((v) => (this.model && v < this.model.scoreFloor ? '' : formatScore(v))),
        },
      ],
      legend: { show: true, live: false },
      cursor: { drag: { x: true, y: false }, points: { show: false } },
      series: [
        { label: m?.axis === 'time' ? 'seconds' : 'evaluation' },
        ...islandSeries,
        // Drawn as crosses by the draw hook; the series itself only names them in the legend.
        { label: 'incorrect', stroke: wrong, fill: wrong, width: 0, paths: () => null, points: { show: false } },
        { label: 'committed', stroke: ring, width: 0, paths: () => null, points: { show: true, size: ringSize, width: dense ? 1 : 1.5, stroke: ring, fill: none } },
        { label: 'best so far', stroke: bestColour, width: 2, paths: uPlot.paths.stepped!({ align: 1 }), points: { show: false }, spanGaps: true },
        { label: 'selected', stroke: selectedColour, width: 0, paths: () => null, points: { show: true, size: 18, width: 2.5, stroke: selectedColour, fill: none } },
      ],
      hooks: {
        ready: [(u) => this.wireClicks(u)],
        draw: [(u) => this.drawCrosses(u, wrong)],
        setCursor: [(u) => this.showReadout(u.cursor.idx)],
      },
    };
  }

  private drawCrosses(u: uPlot, colour: string): void {
    const m = this.model;
    if (!m) return;
    const ctx = u.ctx;
    const r = 3.5 * devicePixelRatio;
    const xMin = u.scales.x!.min ?? Number.NEGATIVE_INFINITY;
    const xMax = u.scales.x!.max ?? Number.POSITIVE_INFINITY;
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5 * devicePixelRatio;
    ctx.beginPath();
    m.incorrect.forEach((y, i) => {
      const x = m.x[i]!;
      if (y === null || x < xMin || x > xMax) return;
      const cx = u.valToPos(x, 'x', true);
      const cy = u.valToPos(y, 'y', true);
      ctx.moveTo(cx - r, cy - r);
      ctx.lineTo(cx + r, cy + r);
      ctx.moveTo(cx - r, cy + r);
      ctx.lineTo(cx + r, cy - r);
    });
    ctx.stroke();
    ctx.restore();
  }

  /** The program under the pointer; else the one open below. */
  private showReadout(idx: number | null | undefined): void {
    const id = idx === null || idx === undefined ? undefined : this.model?.ids[idx];
    const hovered = id === undefined ? undefined : this.programs?.nodes[id];
    const open = this.selectedId === undefined ? undefined : this.programs?.nodes[this.selectedId];
    setText(this.readout, hovered ? `${programLine(hovered)} — click to open` : open ? `Open: ${programLine(open)}` : 'Point at a program to see what it is; click it to open it.');
  }
}

customElements.define('ratchet-score-chart', ScoreChart);
