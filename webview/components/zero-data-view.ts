/**
 * <ratchet-zero-data-view>: the Zero-data tab. The judge's two reliability curves over the rounds
 * (and their numbers as a table); what became of the tasks each round's Challenger wrote, one bar per
 * round whose segments add up to what it wrote; and for the round picked (the latest unless one is),
 * its difficulty and dispersion histograms and the judge's exemplars — LLM text asked of the host
 * when shown (`zero/request`) and always set as text.
 *
 * The rounds are buttons: Tab reaches them, ↑/↓ move between them, Enter or Space picks one.
 */
import { el, setChildren, setText } from '../dom';
import type { HistogramModel, TasksRow } from '../model/zeroData';
import { FATE_WORDS, PAIR_WORDS, TASK_FATES, difficultyNote, dispersionNote, exemplarCards, exemplarsNote, heldOutNote, histogramModel, reliabilityChartData, reliabilityRows, shownRound, tasksRows, zeroSummary } from '../model/zeroData';
import type { ReliabilityChart } from './reliability-chart';
import './reliability-chart';
import type { Exemplar } from '../../src/core/journal/payloadTypes';
import type { RunState, ZeroRoundRow } from '../../src/panelState/types';

export interface ZeroDataActions {
  /** A round was picked: the panel remembers it (UiState.zeroRound) and repaints. */
  selectRound(round: number): void;
  /** The round's exemplars with their texts, from the host (answered with `showExemplars`). */
  requestExemplars(round: number): void;
}

/** What the host sent for one round's exemplars. */
interface ExemplarsAnswer {
  exemplars: Exemplar[];
  why?: string;
}

export class ZeroDataView extends HTMLElement {
  actions: ZeroDataActions | undefined;
  private run: RunState | undefined;
  private round: ZeroRoundRow | undefined;
  /** By `${runId}\n${round}`: asked (undefined until answered) or answered. */
  private readonly exemplars = new Map<string, ExemplarsAnswer | undefined>();

  private readonly summary = el('p', { className: 'note zero-summary' });
  private readonly chart = document.createElement('ratchet-reliability-chart') as ReliabilityChart;
  private readonly reliabilityBody = el('tbody');
  private readonly reliabilityTable = el('table', { className: 'data-table zero-reliability', attrs: { 'aria-label': 'The judge’s agreement with the known order, by round' } }, [
    el('thead', {}, [
      el('tr', {}, [
        el('th', { text: 'round', attrs: { scope: 'col' } }),
        el('th', { text: PAIR_WORDS.roleAsymmetry.name.toLowerCase(), title: PAIR_WORDS.roleAsymmetry.means, attrs: { scope: 'col' } }),
        el('th', { text: PAIR_WORDS.amplification.name.toLowerCase(), title: PAIR_WORDS.amplification.means, attrs: { scope: 'col' } }),
      ]),
    ]),
    this.reliabilityBody,
  ]);
  private readonly legend = el('ul', { className: 'fate-legend', attrs: { 'aria-label': 'What became of the tasks' } });
  private readonly rounds = el('div', { className: 'zero-rounds', attrs: { role: 'group', 'aria-label': 'Tasks per round: pick a round' } });
  private readonly roundHeading = el('h3', { className: 'section-heading' });
  private readonly heldOut = el('p', { className: 'note' });
  private readonly difficulty = el('figure', { className: 'histogram' });
  private readonly dispersion = el('figure', { className: 'histogram' });
  private readonly exemplarsHeading = el('h3', { className: 'section-heading' });
  private readonly exemplarsNote = el('p', { className: 'note' });
  private readonly exemplarList = el('div', { className: 'exemplars' });
  private readonly roundPart = el('section', { className: 'zero-round' }, [
    this.roundHeading,
    this.heldOut,
    el('div', { className: 'histograms' }, [this.difficulty, this.dispersion]),
    this.exemplarsHeading,
    this.exemplarsNote,
    this.exemplarList,
  ]);

  connectedCallback(): void {
    if (this.childElementCount > 0) return;
    const heading = (text: string) => el('h3', { className: 'section-heading', text });
    setChildren(
      this.legend,
      TASK_FATES.map((fate) => el('li', { title: FATE_WORDS[fate].means }, [el('span', { className: `fate-swatch fate-${fate}`, attrs: { 'aria-hidden': 'true' } }), ` ${FATE_WORDS[fate].name}`])),
    );
    this.rounds.addEventListener('keydown', (e) => this.onKey(e));
    this.append(this.summary, heading('Judge reliability per round'), this.chart, this.reliabilityTable, heading('Tasks per round'), this.legend, this.rounds, this.roundPart);
  }

  update(run: RunState | undefined, pickedRound: number | undefined): void {
    this.connectedCallback();
    this.run = run;
    setText(this.summary, zeroSummary(run));
    this.chart.update(reliabilityChartData(run));
    const relRows = reliabilityRows(run);
    this.reliabilityTable.hidden = relRows.length === 0;
    setChildren(
      this.reliabilityBody,
      relRows.map((r) =>
        el('tr', {}, [el('td', { text: String(r.round) }), el('td', { text: r.cells.roleAsymmetry.text, title: r.cells.roleAsymmetry.title }), el('td', { text: r.cells.amplification.text, title: r.cells.amplification.title })]),
      ),
    );
    this.round = shownRound(run, pickedRound);
    const focused = this.rounds.contains(document.activeElement) ? (document.activeElement as HTMLElement).dataset.round : undefined;
    setChildren(
      this.rounds,
      tasksRows(run).map((row) => this.roundButton(row, row.round === this.round?.round)),
    );
    if (focused !== undefined) this.rounds.querySelector<HTMLElement>(`[data-round="${focused}"]`)?.focus();
    this.paintRound();
  }

  /** The host's answer to `zero/request`. */
  showExemplars(runId: string, round: number, exemplars: Exemplar[], why?: string): void {
    this.exemplars.set(key(runId, round), why === undefined ? { exemplars } : { exemplars, why });
    if (this.run?.runId === runId && this.round?.round === round) this.paintRound();
  }

  private roundButton(row: TasksRow, selected: boolean): HTMLElement {
    const bar = el(
      'span',
      { className: 'fate-bar', attrs: { 'aria-hidden': 'true' } },
      row.segments.map((s) => {
        const part = el('span', { className: `fate-segment fate-${s.fate}`, title: `${s.count} ${FATE_WORDS[s.fate].name}` });
        part.style.flexGrow = String(s.count);
        return part;
      }),
    );
    const counts = el('span', { className: 'zero-round-counts', attrs: { 'aria-hidden': 'true' }, text: row.segments.map((s) => `${s.count} ${FATE_WORDS[s.fate].name}`).join(' · ') });
    const button = el('button', { className: 'zero-round-row', attrs: { type: 'button', 'data-round': String(row.round), 'aria-pressed': String(selected), 'aria-label': row.label } }, [
      el('span', { className: 'zero-round-name', text: `Round ${row.round}` }),
      bar,
      el('span', { className: 'zero-round-written', text: row.written }),
      counts,
    ]);
    button.addEventListener('click', () => this.actions?.selectRound(row.round));
    return button;
  }

  private paintRound(): void {
    const r = this.round;
    this.roundPart.hidden = r === undefined;
    if (!r || !this.run) return;
    setText(this.roundHeading, `Round ${r.round}: difficulty and dispersion`);
    const held = heldOutNote(r);
    this.heldOut.hidden = held === undefined;
    setText(this.heldOut, held ?? '');
    paintHistogram(this.difficulty, 'Difficulty', histogramModel(r.difficultyHistogram), difficultyNote(r));
    paintHistogram(this.dispersion, 'Dispersion', histogramModel(r.dispersionHistogram), dispersionNote(r));
    setText(this.exemplarsHeading, `Round ${r.round}: the judge’s exemplars`);
    setText(this.exemplarsNote, exemplarsNote(r));
    const k = key(this.run.runId, r.round);
    if (r.exemplars === 0) {
      setChildren(this.exemplarList, []);
      return;
    }
    if (!this.exemplars.has(k)) {
      this.exemplars.set(k, undefined);
      this.actions?.requestExemplars(r.round);
    }
    const answer = this.exemplars.get(k);
    if (answer === undefined) {
      setChildren(this.exemplarList, [el('p', { className: 'empty', text: 'Loading the exemplars…' })]);
      return;
    }
    if (answer.why !== undefined) {
      setChildren(this.exemplarList, [el('p', { className: 'empty', text: `The exemplars are not available: ${answer.why}` })]);
      return;
    }
    setChildren(
      this.exemplarList,
      exemplarCards(answer.exemplars).map((card) =>
        el('article', { className: 'exemplar', attrs: { 'aria-label': card.heading, tabindex: '0' } }, [
          el('h4', { className: 'exemplar-heading', text: card.heading }),
          el('p', { className: 'note', text: card.note }),
          text('The task, as the judge saw it (the prompt filled in)', card.task),
          text(card.better.label, card.better.text),
          text(card.worse.label, card.worse.text),
        ]),
      ),
    );
  }

  /** ↑/↓ between the round buttons (Tab leaves the group). */
  private onKey(e: KeyboardEvent): void {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const buttons = [...this.rounds.querySelectorAll<HTMLElement>('.zero-round-row')];
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    const next = buttons[Math.max(0, Math.min(buttons.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (!next) return;
    e.preventDefault();
    next.focus();
  }
}

function key(runId: string, round: number): string {
  return `${runId}\n${round}`;
}

/** A labelled block of untrusted text. */
function text(label: string, body: string): HTMLElement {
  return el('div', { className: 'exemplar-part' }, [el('div', { className: 'exemplar-label', text: label }), el('pre', { className: 'text-block exemplar-text', text: body })]);
}

function paintHistogram(figure: HTMLElement, name: string, model: HistogramModel, note: string): void {
  figure.setAttribute(
    'aria-label',
    `${name}: ${
      model.bars
        .filter((b) => b.count > 0)
        .map((b) => b.label)
        .join('; ') || 'no task judged'
    }`,
  );
  const bars = el(
    'div',
    { className: 'histogram-bars', attrs: { 'aria-hidden': 'true' } },
    model.bars.map((b) => {
      // The count sits just above its bar's top, outside its height, so heights stay proportional.
      const fill = el('span', { className: 'histogram-fill' }, [el('span', { className: 'histogram-count', text: b.count > 0 ? String(b.count) : '' })]);
      fill.style.height = `${Math.round(b.height * 100)}%`;
      return el('span', { className: 'histogram-bar', title: b.label }, [fill]);
    }),
  );
  setChildren(figure, [
    el('figcaption', { className: 'histogram-name', text: name }),
    bars,
    el('div', { className: 'histogram-axis', attrs: { 'aria-hidden': 'true' } }, [el('span', { text: model.from }), el('span', { text: model.to })]),
    el('p', { className: 'note', text: note }),
  ]);
}

customElements.define('ratchet-zero-data-view', ZeroDataView);
