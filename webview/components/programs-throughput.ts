/**
 * <ratchet-programs-throughput>: how a code search spends its time and money: the evaluator's
 * slots over time (busy of total, as this window saw them live), on Slurm its tasks queued and
 * running over time with the cluster time they used (from the journal), evaluations per minute,
 * proposal failures by kind, and the bandit's picks per proposer model.
 */
import uPlot from 'uplot';
import { el, setChildren, setText } from '../dom';
import type { PlotOptions } from '../charts/plot';
import { PlotController } from '../charts/plot';
import { evaluatorLoads } from '../model/evaluatorLoad';
import { islandColorName } from '../model/islandColors';
import { clusterLines, clusterSeries, evaluationsPerMinute, failureRows, modelRows, slotSeries, slotUse } from '../model/throughputSeries';
import { themeColor } from '../theme';
import type { RunState } from '../../src/panelState/types';
import type { ProgramsState } from '../../src/panelState/types';
import { oncePerFrame } from '../frame';

const HEIGHT = 160;

export class ProgramsThroughput extends HTMLElement {
  private programsState: ProgramsState | undefined;
  private run: RunState | undefined;
  private readonly schedule = oncePerFrame(() => this.render());
  private readonly slotsNote = el('p', { className: 'note throughput-slots-note' });
  private readonly slotsChart = el('div', { className: 'chart', attrs: { role: 'img' } });
  private readonly clusterHeading = el('h3', { className: 'section-heading', text: 'Slurm tasks' });
  private readonly clusterNote = el('div', { className: 'note throughput-cluster-note' });
  private readonly clusterChart = el('div', { className: 'chart', attrs: { role: 'img' } });
  private readonly rateNote = el('p', { className: 'note' });
  private readonly rateChart = el('div', { className: 'chart', attrs: { role: 'img' } });
  private readonly failuresBody = el('tbody');
  private readonly failures = el('table', { className: 'data-table', attrs: { 'aria-label': 'Proposal failures by kind' } }, [
    el('thead', {}, [
      el(
        'tr',
        {},
        ['kind', 'what it means', 'count', 'of proposals'].map((h) => el('th', { text: h, attrs: { scope: 'col' } })),
      ),
    ]),
    this.failuresBody,
  ]);
  private readonly failuresNote = el('p', { className: 'empty', text: 'No proposal failed.' });
  private readonly modelsBody = el('tbody');
  private readonly models = el('table', { className: 'data-table', attrs: { 'aria-label': 'Proposer models: the bandit’s picks' } }, [
    el('thead', {}, [
      el(
        'tr',
        {},
        ['model', 'programs', 'failed', 'commits', 'commit rate', 'dollars'].map((h) => el('th', { text: h, attrs: { scope: 'col' } })),
      ),
    ]),
    this.modelsBody,
  ]);
  private readonly modelsNote = el('p', { className: 'note' });
  private slotsPlot: PlotController | undefined;
  private clusterPlot: PlotController | undefined;
  private ratePlot: PlotController | undefined;
  private unwatch: (() => void) | undefined;

  set programs(value: ProgramsState | undefined) {
    this.programsState = value;
    this.schedule();
  }

  get programs(): ProgramsState | undefined {
    return this.programsState ?? this.run?.programs;
  }

  /** The run: its id picks the load samples, its cost the dollars (its `programs` stand in when `.programs` is not set). */
  set runState(value: RunState | undefined) {
    this.run = value;
    this.schedule();
  }

  get runState(): RunState | undefined {
    return this.run;
  }

  connectedCallback(): void {
    if (this.childElementCount === 0) {
      const heading = (text: string) => el('h3', { className: 'section-heading', text });
      this.append(
        heading('Evaluator slots'),
        this.slotsNote,
        this.slotsChart,
        this.clusterHeading,
        this.clusterNote,
        this.clusterChart,
        heading('Evaluations per minute'),
        this.rateNote,
        this.rateChart,
        heading('Proposal failures by kind'),
        this.failuresNote,
        this.failures,
        heading('Proposer models (the bandit’s picks)'),
        this.models,
        this.modelsNote,
      );
      this.slotsPlot = new PlotController(this.slotsChart, () => this.slotOptions(), HEIGHT);
      this.clusterPlot = new PlotController(this.clusterChart, () => this.clusterOptions(), HEIGHT);
      this.ratePlot = new PlotController(this.rateChart, () => this.rateOptions(), HEIGHT);
    }
    this.unwatch = evaluatorLoads.onChange((runId) => {
      if (runId === this.run?.runId) this.schedule();
    });
    this.schedule();
  }

  disconnectedCallback(): void {
    this.unwatch?.();
    this.unwatch = undefined;
  }

  private render(): void {
    if (!this.slotsPlot) return;
    const s = this.programs;
    const run = this.run;
    const now = run?.status === 'running' ? Date.now() : undefined;

    const samples = run ? evaluatorLoads.samples(run.runId) : [];
    const slots = slotSeries(samples, now);
    const use = slotUse(samples, now);
    const first = samples[0];
    setText(
      this.slotsNote,
      first
        ? `What this window saw since ${clock(first.at)} (the journal keeps no evaluator start or end)${use === undefined ? '' : `: slots busy ${(use * 100).toFixed(0)} % of the time`}. Now ${samples.at(-1)!.busy} of ${samples.at(-1)!.slots} busy.`
        : 'No evaluator load seen in this window: the slot timeline is drawn live while a search runs (the journal does not keep it).',
    );
    this.slotsChart.hidden = slots.x.length < 2;
    this.slotsChart.setAttribute('aria-label', first ? `Evaluator slots busy over time, ${samples.length} changes seen` : 'No evaluator load seen');
    if (slots.x.length >= 2) this.slotsPlot.update([slots.x, slots.busy, slots.slots]);

    // On Slurm: the journal's record of its tasks (a local search has none, and the section hides).
    const cluster = s?.cluster;
    this.clusterHeading.hidden = this.clusterNote.hidden = cluster === undefined;
    const tasks = cluster ? clusterSeries(cluster, now) : { x: [], queued: [], running: [] };
    this.clusterChart.hidden = tasks.x.length < 2;
    if (cluster) {
      setChildren(
        this.clusterNote,
        clusterLines(cluster).map((text) => el('p', { text })),
      );
      this.clusterChart.setAttribute('aria-label', `Slurm tasks over time: ${cluster.queued} queued and ${cluster.running} running now, ${cluster.finished} over`);
      if (tasks.x.length >= 2) this.clusterPlot?.update([tasks.x, tasks.queued, tasks.running]);
    }

    const rate = s ? evaluationsPerMinute(s) : { x: [], perMinute: [] };
    const evaluations = rate.perMinute.reduce((a, b) => a + b, 0);
    const peak = rate.perMinute.reduce((a, b) => Math.max(a, b), 0);
    setText(this.rateNote, evaluations > 0 ? `${evaluations} evaluations over ${rate.x.length} min: ${(evaluations / rate.x.length).toFixed(1)} a minute on average, ${peak} at most.` : 'No program evaluated yet.');
    this.rateChart.hidden = rate.x.length === 0;
    this.rateChart.setAttribute('aria-label', `Evaluations per minute: ${rate.perMinute.slice(-10).join(', ')} in the last minutes`);
    if (rate.x.length > 0) this.ratePlot?.update([rate.x, rate.perMinute]);

    const failures = s ? failureRows(s) : [];
    this.failures.hidden = failures.length === 0;
    this.failuresNote.hidden = failures.length > 0;
    setChildren(
      this.failuresBody,
      failures.map((f) =>
        el(
          'tr',
          {},
          [f.reason, f.meaning, String(f.count), `${(f.share * 100).toFixed(1)} %`].map((text) => el('td', { text })),
        ),
      ),
    );

    const models = s ? modelRows(s, run?.cost) : [];
    this.models.hidden = models.length === 0;
    setChildren(
      this.modelsBody,
      models.map((m) =>
        el(
          'tr',
          {},
          [m.model, String(m.proposals), String(m.failed), String(m.commits), `${(m.commitRate * 100).toFixed(1)} %`, m.dollars === undefined ? '—' : `$${m.dollars.toFixed(2)}`].map((text) => el('td', { text })),
        ),
      ),
    );
    setText(
      this.modelsNote,
      models.length === 0 ? 'No proposer model named yet (a run with one model may name none).' : models.length > 1 ? 'Dollars per model are not journaled (cost is kept per role); the Cost tab has the proposer’s total.' : '',
    );
  }

  private axes(label: string): uPlot.Axis[] {
    const fg = themeColor('foreground');
    const grid = themeColor('editorWidget-border', 'widget-border');
    return [
      { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } },
      { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, label, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500] },
    ];
  }

  private slotOptions(): PlotOptions {
    const busy = themeColor(islandColorName(0));
    return {
      axes: this.axes('slots'),
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      series: [
        { label: 'time' },
        { label: 'busy', stroke: busy, ...translucent(busy), width: 2, paths: uPlot.paths.stepped!({ align: 1 }), points: { show: false } },
        { label: 'slots', stroke: themeColor('descriptionForeground'), width: 1, dash: [4, 4], paths: uPlot.paths.stepped!({ align: 1 }), points: { show: false } },
      ],
    };
  }

  private clusterOptions(): PlotOptions {
    const running = themeColor(islandColorName(0));
    const queued = themeColor(islandColorName(1));
    const stepped = uPlot.paths.stepped!({ align: 1 });
    return {
      axes: this.axes('tasks'),
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      series: [{ label: 'time' }, { label: 'queued', stroke: queued, width: 2, paths: stepped, points: { show: false } }, { label: 'running', stroke: running, ...translucent(running), width: 2, paths: stepped, points: { show: false } }],
    };
  }

  private rateOptions(): PlotOptions {
    const colour = themeColor(islandColorName(0));
    return {
      axes: this.axes('per minute'),
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      series: [{ label: 'minute' }, { label: 'evaluations', stroke: colour, fill: colour, paths: uPlot.paths.bars!({ size: [0.8, 40] }), points: { show: false } }],
    };
  }
}

/** A faint fill under a line, where the theme colour is a plain hex one (a fill is decoration only). */
function translucent(colour: string): { fill?: string } {
  return /^#[0-9a-f]{6}$/i.test(colour) ? { fill: `${colour}33` } : {};
}

function clock(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

customElements.define('ratchet-programs-throughput', ProgramsThroughput);
