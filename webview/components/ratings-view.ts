/**
 * <ratchet-ratings-view>: Elo and the Bradley–Terry refit with 95 % intervals as a table and a
 * small interval chart, and each candidate's probability of being picked as the next parent.
 * Ratings choose parents; they never accept edits (GATES.md 7.4), and the note says so.
 */
import type uPlot from 'uplot';
import { codicon, el, setChildren, setText } from '../dom';
import type { RatingRow, RatingsChartData } from '../model/ratings';
import type { PlotOptions } from '../charts/plot';
import { PlotController } from '../charts/plot';
import { themeColor, themeColorAlpha } from '../theme';

const HEIGHT = 180;

export class RatingsView extends HTMLElement {
  private readonly note = el('p', { className: 'note' });
  private readonly chartHost = el('div', { className: 'chart', attrs: { role: 'img', 'aria-label': 'Bradley–Terry ratings with 95% intervals' } });
  private readonly body = el('tbody');
  private readonly table = el('table', { className: 'data-table', attrs: { 'aria-label': 'Ratings' } }, [
    el('thead', {}, [
      el(
        'tr',
        {},
        ['candidate', 'Elo', 'Bradley–Terry', '95% interval', 'P(next parent)'].map((h) => el('th', { text: h, attrs: { scope: 'col' } })),
      ),
    ]),
    this.body,
  ]);
  private controller: PlotController | undefined;
  private chart: RatingsChartData | undefined;

  connectedCallback(): void {
    if (this.childElementCount > 0) return;
    this.append(this.note, this.chartHost, this.table);
    this.controller = new PlotController(this.chartHost, () => this.options(), HEIGHT);
  }

  update(rows: readonly RatingRow[], chart: RatingsChartData): void {
    this.connectedCallback();
    this.chart = chart;
    setText(this.note, rows.length === 0 ? 'No ratings yet: pairwise and Elo runs publish them after each match.' : 'Ratings only choose parents; an edit is accepted by the gate, never by a rating.');
    this.table.hidden = rows.length === 0;
    this.chartHost.hidden = rows.length === 0;
    setChildren(
      this.body,
      rows.map((r) =>
        el('tr', { className: `status-${r.status}` }, [
          el('td', { className: 'mono' }, [r.incumbent ? codicon('star-full') : undefined, r.incumbent ? ' ' : undefined, r.candidate]),
          el('td', { text: r.elo }),
          el('td', { text: r.bt }),
          el('td', { text: r.interval }),
          el('td', {}, [el('span', { className: 'bar', attrs: { 'aria-hidden': 'true' } }, [barFill(r.selectFraction)]), ` ${r.selectP}`]),
        ]),
      ),
    );
    if (rows.length > 0) this.controller?.update([chart.x, chart.bt, chart.lo, chart.hi, chart.elo]);
  }

  private options(): PlotOptions {
    const fg = themeColor('foreground');
    const grid = themeColor('editorWidget-border', 'widget-border');
    const bt = themeColor('charts-blue');
    const elo = themeColor('charts-yellow');
    const band = themeColor('charts-blue');
    const dots = (color: string): uPlot.Series => ({ stroke: color, fill: color, width: 0, paths: () => null, points: { show: true, size: 7, stroke: color, fill: color } });
    return {
      scales: { x: { time: false, range: (_u: uPlot, min: number, max: number): uPlot.Range.MinMax => [min - 0.5, max + 0.5] } },
      axes: [
        {
          stroke: fg,
          grid: { show: false },
          ticks: { stroke: grid },
          incrs: [1],
          values: (_u: uPlot, splits: number[]) => splits.map((v) => (Number.isInteger(v) ? (this.chart?.labels[v - 1] ?? '') : '')),
        },
        { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, label: 'rating' },
      ],
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      series: [
        { label: 'rank' },
        { label: 'Bradley–Terry', ...dots(bt) },
        { label: '95% low', stroke: band, width: 1, dash: [3, 3], points: { show: false } },
        { label: '95% high', stroke: band, width: 1, dash: [3, 3], points: { show: false } },
        { label: 'Elo', ...dots(elo) },
      ],
      bands: [{ series: [3, 2] as [number, number], fill: themeColorAlpha(band) }],
    };
  }
}

function barFill(fraction: number): HTMLElement {
  const fill = el('span', { className: 'bar-fill' });
  fill.style.width = `${Math.round(fraction * 100)}%`;
  return fill;
}

customElements.define('ratchet-ratings-view', RatingsView);
