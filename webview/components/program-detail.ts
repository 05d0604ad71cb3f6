/**
 * <ratchet-program-detail>: one program of a code search: what the proposer called it and said it
 * does, its diff from its parent (or from the seed), what the evaluator said (public metrics, text
 * feedback, the end of an incorrect one's output), and its gate test: per-instance scores against
 * the program it was tested against and the evidence pair by pair to the 1/α line. Every string here
 * came from an LLM, a file or the evaluator, so every one is set as text.
 */
import { codicon, custom, el, setChildren } from '../dom';
import { evidenceText, formatFactor } from '../model/format';
import { formatScore } from '../model/programsView';
import { traceChartData } from '../model/wealthSeries';
import type { DiffView } from './diff-view';
import type { WealthChart } from './wealth-chart';
import './diff-view';
import './wealth-chart';
import type { ProgramDetail, ProgramNode } from '../../src/panelState/types';

export interface ProgramDetailActions {
  select(programId: string): void;
  openCandidate(programId: string, as: 'text' | 'diff'): void;
}

type DiffBase = 'parent' | 'seed';

export class ProgramDetailView extends HTMLElement {
  actions: ProgramDetailActions | undefined;
  private detail: ProgramDetail | undefined;
  private diffBase: DiffBase = 'parent';
  /** One chart for every program shown: a chart owns a uPlot and observers, which a fresh one per click would leak. */
  private readonly wealthChart = custom<WealthChart>('ratchet-wealth-chart');

  connectedCallback(): void {
    this.setAttribute('role', 'region');
    this.setAttribute('aria-label', 'The selected program');
    if (this.childElementCount === 0) this.showPlaceholder('Pick a program (a point in the chart, a row of the archive) to see its diff, its evaluation and its evidence.');
  }

  get programId(): string | undefined {
    return this.detail?.programId;
  }

  showPlaceholder(text: string): void {
    this.detail = undefined;
    setChildren(this, [el('p', { className: 'empty', text })]);
  }

  showLoading(programId: string): void {
    this.detail = undefined;
    setChildren(this, [el('p', { className: 'empty', attrs: { role: 'status' } }, [codicon('loading'), ` Loading ${programId}…`])]);
  }

  showMissing(programId: string, why: string): void {
    this.detail = undefined;
    setChildren(this, [el('p', { className: 'empty', attrs: { role: 'status' }, text: `Nothing to show for ${programId}: ${why}` })]);
  }

  show(d: ProgramDetail, node: ProgramNode | undefined): void {
    this.detail = d;
    const r = d.record;
    const e = d.evaluation;
    const verdict = e === undefined ? 'under test' : !e.correct ? 'incorrect' : r ? `${r.decision} (${r.reason})` : node?.committed ? 'committed' : 'evaluated';
    const facts = [
      node ? `island ${node.island}` : undefined,
      node ? `generation ${node.generation}` : undefined,
      node ? `${node.kind}` : undefined,
      node?.model ? `by ${node.model}` : undefined,
      node?.evalIndex !== undefined ? `evaluation ${node.evalIndex}` : undefined,
      e?.correct ? `score ${formatScore(e.score)} over ${e.instances} instance${e.instances === 1 ? '' : 's'}` : undefined,
    ].filter((f): f is string => f !== undefined);
    const openText = custom('vscode-button', { text: 'Open text', attrs: { icon: 'go-to-file', secondary: '', 'aria-label': `Open ${d.programId}'s text in an editor` } });
    openText.addEventListener('click', () => this.actions?.openCandidate(d.programId, 'text'));
    const openDiff = custom('vscode-button', { text: 'Open diff', attrs: { icon: 'diff', secondary: '', 'aria-label': `Open the diff from ${d.parentId ?? 'nothing'} to ${d.programId} in an editor` } });
    openDiff.addEventListener('click', () => this.actions?.openCandidate(d.programId, 'diff'));
    setChildren(this, [
      el('div', { className: `evidence-summary decision-${r?.decision ?? (e?.correct === false ? 'reject' : 'pending')}` }, [
        el('h2', {}, [`${d.programId}: ${verdict}`, d.name ? el('span', { className: 'program-name', text: ` — ${d.name}` }) : undefined]),
        el('p', { className: 'evidence-facts' }, [
          facts.join(' · '),
          d.parentId !== undefined ? '. Parent ' : '. The seed',
          d.parentId !== undefined ? link(d.parentId, () => this.actions?.select(d.parentId!)) : undefined,
          d.opponentId !== undefined && d.opponentId !== d.parentId ? ', tested against ' : undefined,
          d.opponentId !== undefined && d.opponentId !== d.parentId ? link(d.opponentId, () => this.actions?.select(d.opponentId!)) : undefined,
          '.',
        ]),
        el('div', { className: 'buttons' }, [openText, openDiff]),
      ]),
      d.description ? section('What the proposer says it does', el('pre', { className: 'text-block', text: d.description })) : undefined,
      section('Diff', this.diffBlock(d)),
      section('Evaluation', evaluationBlock(d)),
      d.record !== undefined || d.wealth.steps.length > 0 ? section(`Gate evidence${r ? `: ${r.gate} at α = ${r.alpha}` : ''}`, evidenceBlock(d, this.wealthChart)) : undefined,
    ]);
  }

  private diffBlock(d: ProgramDetail): HTMLElement {
    const diff = custom<DiffView>('ratchet-diff-view');
    const paint = (): void => {
      const base = this.diffBase === 'seed' ? d.seedText : d.parentText;
      diff.show(base, d.text);
      diff.setAttribute('aria-label', `Diff from ${this.diffBase === 'seed' ? `the seed ${d.seedId ?? ''}` : `the parent ${d.parentId ?? ''}`} to ${d.programId}`);
    };
    const group = custom('vscode-radio-group', { attrs: { 'aria-label': 'Diff against', role: 'radiogroup' } });
    for (const base of ['parent', 'seed'] as const) {
      const available = base === 'parent' ? d.parentText !== undefined : d.seedText !== undefined;
      const radio = custom<HTMLElement & { checked: boolean }>('vscode-radio', {
        text: base === 'parent' ? `from its parent${d.parentId ? ` ${d.parentId}` : ''}` : `from the seed${d.seedId ? ` ${d.seedId}` : ''}`,
        attrs: { name: `diff-base-${d.programId}`, value: base, 'data-base': base, ...(available ? {} : { disabled: '' }), ...(this.diffBase === base ? { checked: '' } : {}) },
      });
      radio.addEventListener('change', () => {
        if (!radio.checked) return;
        this.diffBase = base;
        paint();
      });
      group.append(radio);
    }
    paint();
    return el('div', {}, [d.parentText === undefined && d.seedText === undefined ? undefined : el('div', { className: 'toolbar' }, [group]), diff]);
  }
}

function evaluationBlock(d: ProgramDetail): HTMLElement {
  const e = d.evaluation;
  if (!e) return el('p', { className: 'note', text: 'Not evaluated yet: its test is running.' });
  const metrics = Object.entries(e.metrics ?? {});
  return el('div', {}, [
    e.correct ? undefined : el('p', { className: 'program-error', text: `Incorrect: ${e.error ?? 'the evaluator said so.'}` }),
    metrics.length > 0
      ? el('table', { className: 'data-table metrics-table', attrs: { 'aria-label': 'Public metrics' } }, [
          el('thead', {}, [el('tr', {}, [el('th', { text: 'metric', attrs: { scope: 'col' } }), el('th', { text: 'value', attrs: { scope: 'col' } })])]),
          el(
            'tbody',
            {},
            metrics.map(([k, v]) => el('tr', {}, [el('td', { className: 'mono', text: k }), el('td', { text: typeof v === 'number' ? formatScore(v) : String(v) })])),
          ),
        ])
      : e.correct
        ? el('p', { className: 'note', text: 'The evaluator reported no public metrics.' })
        : undefined,
    e.feedback ? field('Text feedback', e.feedback) : undefined,
    e.output !== undefined ? field(e.omittedOutput ? `Output (its last ${e.output.length} characters; ${e.omittedOutput} earlier ones are in the journal)` : 'Output', e.output) : undefined,
    e.incidents && e.incidents.length > 0
      ? el('div', { className: 'program-incidents' }, [
          el('h4', { text: 'What the sandbox saw' }),
          el(
            'ul',
            {},
            e.incidents.map((i) => el('li', { text: i })),
          ),
        ])
      : undefined,
    e.isolation ? el('p', { className: 'note program-isolation', text: `Sandbox: ${e.isolation}.` }) : undefined,
  ]);
}

function evidenceBlock(d: ProgramDetail, chart: WealthChart): HTMLElement {
  const r = d.record;
  const opponent = d.opponentId ?? 'its parent';
  const statistic = r ? (r.logWealth !== 0 || d.wealth.steps.length > 0 ? evidenceText(r.logWealth, r.threshold) : `W ${r.wins} · L ${r.losses} · T ${r.ties}`) : 'test still running';
  const body = el('tbody');
  for (const p of d.pairs) {
    const won = p.delta === undefined ? (p.opponent === undefined ? undefined : p.child - p.opponent) : p.delta;
    body.append(
      el('tr', { className: won === undefined || won === 0 ? '' : won > 0 ? 'pair-won' : 'pair-lost' }, [
        el('td', { text: p.k === undefined ? '' : String(p.k) }),
        el('td', { className: 'mono', text: p.instanceId }),
        el('td', { text: formatScore(p.child) }),
        el('td', { text: formatScore(p.opponent) }),
        el('td', { text: won === undefined ? '' : won === 0 ? 'tie' : won > 0 ? '▲ child' : `▼ ${opponent}` }),
      ]),
    );
  }
  const out = el('div', { className: 'program-evidence' }, [
    el('p', {
      className: 'evidence-facts',
      text: `${d.programId} against ${opponent}: ${statistic}${r ? `; ${r.itemsConsumed} instances used (${r.wins} won, ${r.losses} lost, ${r.ties} tied)` : ''}${r && r.threshold > 0 ? `; commits at ×${formatFactor(r.threshold)} (1/α)` : ''}.`,
    }),
    d.wealth.steps.length > 0 ? chart : el('p', { className: 'note', text: 'No discordant pair: the gate decided without an e-process wealth curve.' }),
    el('div', { className: 'pairs-scroll' }, [
      el('table', { className: 'data-table pairs-table', attrs: { 'aria-label': `Paired scores, ${d.programId} against ${opponent}` } }, [
        el('thead', {}, [
          el(
            'tr',
            {},
            ['#', 'instance', d.programId, opponent, 'pair'].map((h) => el('th', { text: h, attrs: { scope: 'col' } })),
          ),
        ]),
        body,
      ]),
    ]),
    d.omittedPairs > 0 ? el('p', { className: 'note', text: `${d.omittedPairs} more instances are in the run's journal.` }) : undefined,
  ]);
  // The plot itself is made once the chart has a width (PlotController).
  if (d.wealth.steps.length > 0) chart.update(traceChartData(d.wealth));
  return out;
}

function link(text: string, go: () => void): HTMLElement {
  const a = el('a', { className: 'program-link mono', text, attrs: { href: '#', role: 'button' } });
  a.addEventListener('click', (e) => {
    e.preventDefault();
    go();
  });
  return a;
}

function field(label: string, text: string): HTMLElement {
  return el('div', { className: 'field' }, [el('div', { className: 'field-label', text: label }), el('pre', { className: 'text-block', text })]);
}

function section(title: string, body: HTMLElement): HTMLElement {
  return el('section', { className: 'evidence-section' }, [el('h3', { text: title }), body]);
}

customElements.define('ratchet-program-detail', ProgramDetailView);
