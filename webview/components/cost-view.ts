/**
 * <ratchet-cost-view>: calls, tokens or dollars per role over the run, and the per-role totals.
 */
import type uPlot from 'uplot';
import type { Role } from '../../src/core/llm/types';
import type { CostMetric } from '../../src/protocol/webview';
import { custom, el, setChildren, setText } from '../dom';
import type { CostChartData, CostTableRow } from '../model/costSeries';
import { DOLLAR_STEPS, WHOLE_STEPS, tickLabels } from '../model/costSeries';
import type { PlotOptions } from '../charts/plot';
import { PlotController } from '../charts/plot';
import { themeColor } from '../theme';

const HEIGHT = 200;
const METRICS: { value: CostMetric; label: string }[] = [
  { value: 'calls', label: 'Calls' },
  { value: 'tokens', label: 'Tokens' },
  { value: 'dollars', label: 'Dollars' },
];
const ROLE_COLOURS: Record<Role, string> = {
  agent: 'charts-blue',
  proposer: 'charts-purple',
  validator: 'charts-orange',
  meta: 'charts-yellow',
  challenger: 'charts-green',
};

export interface CostActions {
  metric(metric: CostMetric): void;
}

export class CostView extends HTMLElement {
  actions: CostActions | undefined;
  private readonly group = custom('vscode-radio-group', { attrs: { 'aria-label': 'Cost measure', role: 'radiogroup' } });
  private readonly radios = new Map<CostMetric, HTMLElement & { checked: boolean }>();
  private readonly chartHost = el('div', { className: 'chart', attrs: { role: 'img' } });
  private readonly empty = el('p', { className: 'empty', text: 'No LLM calls yet.' });
  private readonly body = el('tbody');
  private readonly table = el('table', { className: 'data-table', attrs: { 'aria-label': 'Cost per role' } }, [
    el('thead', {}, [
      el(
        'tr',
        {},
        ['role', 'calls', 'cached', 'retries', 'rate limited', 'tokens', 'dollars'].map((h) => el('th', { text: h, attrs: { scope: 'col' } })),
      ),
    ]),
    this.body,
  ]);
  private controller: PlotController | undefined;
  private data: CostChartData | undefined;
  private metric: CostMetric = 'calls';

  connectedCallback(): void {
    if (this.childElementCount > 0) return;
    for (const m of METRICS) {
      const radio = custom<HTMLElement & { checked: boolean }>('vscode-radio', { text: m.label, attrs: { name: 'cost-metric', value: m.value, 'aria-label': m.label, 'data-metric': m.value } });
      radio.addEventListener('change', () => {
        if (radio.checked) this.actions?.metric(m.value);
      });
      this.radios.set(m.value, radio);
      this.group.append(radio);
    }
    this.append(el('div', { className: 'toolbar' }, [this.group]), this.chartHost, this.empty, this.table);
    this.controller = new PlotController(this.chartHost, () => this.options(), HEIGHT);
  }

  update(metric: CostMetric, data: CostChartData, rows: readonly CostTableRow[]): void {
    this.connectedCallback();
    const rolesChanged = this.data?.roles.join() !== data.roles.join() || this.metric !== metric;
    this.metric = metric;
    this.data = data;
    for (const [value, radio] of this.radios) radio.checked = value === metric;
    const has = rows.length > 0;
    this.empty.hidden = has;
    this.table.hidden = !has;
    this.chartHost.hidden = !has;
    setText(this.empty, 'No LLM calls yet.');
    this.chartHost.setAttribute('aria-label', `${metric} per role over time: ${rows.map((r) => `${r.role} ${metric === 'calls' ? r.calls : metric === 'tokens' ? r.tokens : r.dollars}`).join(', ')}`);
    setChildren(
      this.body,
      rows.map((r) =>
        el(
          'tr',
          {},
          [r.role, r.calls, r.cached, r.retries, r.rateLimited, r.tokens, r.dollars].map((text) => el('td', { text })),
        ),
      ),
    );
    if (!has) return;
    if (rolesChanged) this.controller?.rebuild();
    this.controller?.update([data.x, ...data.series]);
  }

  private options(): PlotOptions {
    const fg = themeColor('foreground');
    const grid = themeColor('editorWidget-border', 'widget-border');
    const metric = this.metric;
    return {
      scales: { x: { time: false } },
      axes: [
        {
          stroke: fg,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid },
          label: 'run time',
          incrs: [...WHOLE_STEPS],
          values: (_u: uPlot, s: number[]) => tickLabels(s, 'seconds'),
        },
        {
          stroke: fg,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid },
          label: metric,
          incrs: [...(metric === 'dollars' ? DOLLAR_STEPS : WHOLE_STEPS)],
          values: (_u: uPlot, s: number[]) => tickLabels(s, metric),
        },
      ],
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      series: [{ label: 'time' }, ...(this.data?.roles ?? []).map((role) => ({ label: role, stroke: themeColor(ROLE_COLOURS[role]), width: 2 }))],
    };
  }
}

customElements.define('ratchet-cost-view', CostView);
