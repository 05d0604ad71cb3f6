/**
 * <ratchet-wealth-chart>: evidence (the PACE wealth) on a log scale per discordant pair, for the
 * candidate under test and one selected past candidate, against the 1/α line and the futility
 * bound; commits and rejections are marked where their test stopped. The text summary is the
 * chart's accessible name and its stand-in where canvas is unavailable; its terms carry hovers.
 */
import type uPlot from 'uplot';
import { el, setChildren } from '../dom';
import { formatFactor, shortId } from '../model/format';
import type { WealthChartData } from '../model/wealthSeries';
import { logSplits } from '../model/wealthSeries';
import type { PlotOptions } from '../charts/plot';
import { PlotController } from '../charts/plot';
import { themeColor } from '../theme';

const HEIGHT = 220;

export class WealthChart extends HTMLElement {
  private readonly summary = el('p', { className: 'chart-summary', attrs: { 'aria-live': 'polite' } });
  private readonly canvasHost = el('div', { className: 'chart', attrs: { role: 'img' } });
  private controller: PlotController | undefined;
  private model: WealthChartData | undefined;

  connectedCallback(): void {
    if (this.childElementCount > 0) return;
    this.append(this.canvasHost, this.summary);
    this.controller = new PlotController(this.canvasHost, () => this.options(), HEIGHT);
  }

  disconnectedCallback(): void {
    // Not disposed: a tab switch detaches nothing, and re-attaching must keep the plot.
  }

  update(model: WealthChartData): void {
    this.connectedCallback();
    const seriesChanged = this.model?.liveId !== model.liveId || this.model?.pastId !== model.pastId || this.model?.futilityId !== model.futilityId;
    this.model = model;
    // Rebuilt only when the words change: the summary is a live region, announced on each change.
    if (this.summary.textContent !== model.summary)
      setChildren(
        this.summary,
        model.summaryPieces.map((p) => (p.title === undefined ? p.text : el('span', { className: 'term', text: p.text, title: p.title }))),
      );
    this.canvasHost.setAttribute('aria-label', `Evidence chart. ${model.summary}`);
    if (seriesChanged) this.controller?.rebuild();
    this.controller?.update([model.x, model.live, model.past, model.threshold, model.futility, model.commits, model.rejects]);
  }

  private options(): PlotOptions {
    const fg = themeColor('foreground');
    const grid = themeColor('editorWidget-border', 'widget-border');
    const live = themeColor('charts-blue');
    const past = themeColor('charts-purple');
    const pass = themeColor('charts-green');
    const fail = themeColor('charts-red');
    const futile = themeColor('charts-orange');
    const m = this.model;
    const marker = (color: string): uPlot.Series => ({
      stroke: color,
      fill: color,
      width: 0,
      paths: () => null,
      points: { show: true, size: 10, stroke: color, fill: color },
    });
    return {
      scales: {
        x: { time: false },
        y: { distr: 3, log: 10, range: (): uPlot.Range.MinMax => this.model?.yRange ?? [0.1, 100] },
      },
      axes: [
        // Pairs are whole numbers: integer tick steps only.
        { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, label: 'discordant pair', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] },
        {
          stroke: fg,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid },
          label: 'evidence',
          // uPlot's log splits label every 1..9 × 10^k, which overlap in a short chart; decades
          // and the threshold are what a reader needs.
          splits: (_u: uPlot, _axis: number, min: number, max: number) => logSplits(min, max, this.model?.threshold.find((v) => v !== null) ?? undefined),
          // uPlot's default filter on a log axis blanks every split but 1, 2, 5 × 10^k (a line at ×40
          // or ×120 read "×0"); these splits are already the ones to label.
          filter: (_u: uPlot, splits: number[]) => splits,
          values: (_u: uPlot, splits: number[]) => splits.map((v) => `×${formatFactor(v)}`),
        },
      ],
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      series: [
        { label: 'pair' },
        { label: `under test ${shortId(m?.liveId)}`, stroke: live, width: 2, spanGaps: false, show: m?.liveId !== undefined },
        { label: `selected ${shortId(m?.pastId)}`, stroke: past, width: 2, dash: [5, 3], show: m?.pastId !== undefined },
        { label: '1/α line', stroke: pass, width: 1, dash: [8, 4], points: { show: false } },
        { label: `futility bound ${shortId(m?.futilityId)}`, stroke: futile, width: 1, dash: [2, 3], points: { show: false } },
        { label: 'commit', ...marker(pass) },
        { label: 'reject', ...marker(fail) },
      ],
    };
  }
}

customElements.define('ratchet-wealth-chart', WealthChart);
