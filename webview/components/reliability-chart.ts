/**
 * <ratchet-reliability-chart>: the judge's reliability per zero-data round, as two curves — its
 * agreement with the known order on role-asymmetry pairs and on subtask-amplification pairs, each
 * with its 95 % interval as a band — against the ½ a judge that ignores the answers gets. The
 * legend is the page's own (uPlot's would list the bands' edges as series); the text summary is the
 * chart's accessible name and its stand-in where canvas is unavailable.
 */
import type uPlot from 'uplot';
import { el, setChildren, setText } from '../dom';
import type { PlotOptions } from '../charts/plot';
import { PlotController } from '../charts/plot';
import type { ReliabilityChartData } from '../model/zeroData';
import { PAIR_WORDS } from '../model/zeroData';
import { themeColor, themeColorAlpha } from '../theme';

const HEIGHT = 200;

/** Each curve's colour, by the VS Code chart palette's name. */
const COLORS = { roleAsymmetry: 'charts-blue', amplification: 'charts-orange' } as const;

export class ReliabilityChart extends HTMLElement {
  private readonly canvasHost = el('div', { className: 'chart', attrs: { role: 'img' } });
  private readonly legend = el('ul', { className: 'chart-legend', attrs: { 'aria-hidden': 'true' } });
  private readonly summary = el('p', { className: 'chart-summary', attrs: { 'aria-live': 'polite' } });
  private controller: PlotController | undefined;
  private model: ReliabilityChartData | undefined;

  connectedCallback(): void {
    if (this.childElementCount > 0) return;
    this.append(this.canvasHost, this.legend, this.summary);
    this.controller = new PlotController(this.canvasHost, () => this.options(), HEIGHT);
    setChildren(this.legend, [
      ...(['roleAsymmetry', 'amplification'] as const).map((type) => swatch(`var(--vscode-${COLORS[type]})`, PAIR_WORDS[type].name, PAIR_WORDS[type].means, 'line')),
      swatch('var(--vscode-foreground)', 'chance (½)', 'A judge that ignores the answers agrees with the known order half the time.', 'dash'),
      swatch('var(--vscode-foreground)', '95% interval', 'Wilson interval over the round’s pairs.', 'band'),
    ]);
  }

  update(model: ReliabilityChartData): void {
    this.connectedCallback();
    this.model = model;
    setText(this.summary, model.summary);
    this.canvasHost.setAttribute('aria-label', `Judge reliability chart. ${model.summary}`);
    const s = model.series;
    this.controller?.update([model.x, s.roleAsymmetry.mean, s.roleAsymmetry.lo, s.roleAsymmetry.hi, s.amplification.mean, s.amplification.lo, s.amplification.hi, model.chance]);
  }

  /** The uPlot drawing the chart, once it has a width. */
  get plot(): uPlot | undefined {
    return this.controller?.instance;
  }

  private options(): PlotOptions {
    const fg = themeColor('foreground');
    const grid = themeColor('editorWidget-border', 'widget-border');
    const curve = (type: keyof typeof COLORS): uPlot.Series[] => {
      const color = themeColor(COLORS[type]);
      const edge: uPlot.Series = { label: `${PAIR_WORDS[type].name} 95%`, stroke: color, width: 0, points: { show: false } };
      return [{ label: PAIR_WORDS[type].name, stroke: color, width: 2, points: { show: true, size: 8, stroke: color, fill: color } }, edge, { ...edge }];
    };
    return {
      scales: {
        x: { time: false, range: (): uPlot.Range.MinMax => [0.5, Math.max(1, ...(this.model?.x ?? [1])) + 0.5] },
        y: { range: (): uPlot.Range.MinMax => [0, 1] },
      },
      axes: [
        { stroke: fg, grid: { show: false }, ticks: { stroke: grid }, label: 'round', incrs: [1], values: (_u: uPlot, splits: number[]) => splits.map((v) => (Number.isInteger(v) ? String(v) : '')) },
        { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, label: 'agreement', splits: () => [0, 0.25, 0.5, 0.75, 1] },
      ],
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      series: [{ label: 'round' }, ...curve('roleAsymmetry'), ...curve('amplification'), { label: 'chance', stroke: fg, width: 1, dash: [6, 4], points: { show: false } }],
      bands: [
        { series: [3, 2] as [number, number], fill: themeColorAlpha(themeColor(COLORS.roleAsymmetry)) },
        { series: [6, 5] as [number, number], fill: themeColorAlpha(themeColor(COLORS.amplification)) },
      ],
    };
  }
}

function swatch(color: string, name: string, means: string, kind: 'line' | 'dash' | 'band'): HTMLElement {
  const mark = el('span', { className: `legend-mark legend-${kind}` });
  mark.style.setProperty('--legend-color', color);
  return el('li', { title: means }, [mark, ` ${name}`]);
}

customElements.define('ratchet-reliability-chart', ReliabilityChart);
