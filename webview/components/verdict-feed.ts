/**
 * <ratchet-verdict-feed>: one row per gate decision, newest first, filterable by decision.
 * Activating a row (click, Enter) opens that decision's evidence.
 */
import type { DecisionFilter, DecisionRow } from '../../src/protocol/webview';
import { codicon, custom, el, setChildren, setText } from '../dom';
import { toFeedRow } from '../model/feed';
import type { VirtualList } from './virtual-list';
import './virtual-list';

export interface VerdictFeedActions {
  open(candidateId: string): void;
  filter(filter: DecisionFilter): void;
}

const FILTERS: { value: DecisionFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'commit', label: 'Commits' },
  { value: 'reject', label: 'Rejections' },
];

export const FEED_ROW_HEIGHT = 24;

export class VerdictFeed extends HTMLElement {
  actions: VerdictFeedActions | undefined;
  private readonly filterGroup = custom('vscode-radio-group', { attrs: { 'aria-label': 'Show decisions', role: 'radiogroup' } });
  private readonly radios = new Map<DecisionFilter, HTMLElement & { checked: boolean }>();
  private readonly list = custom<VirtualList<DecisionRow>>('ratchet-virtual-list', { className: 'feed-list' });
  private readonly empty = el('p', { className: 'empty', text: 'No decisions yet: each gate decision appears here as it is made.' });
  private readonly dropped = el('p', { className: 'note' });
  private selectedId: string | undefined;
  private rows: readonly DecisionRow[] = [];

  connectedCallback(): void {
    if (this.childElementCount > 0) return;
    for (const f of FILTERS) {
      const radio = custom<HTMLElement & { checked: boolean }>('vscode-radio', {
        text: f.label,
        attrs: { name: 'decision-filter', value: f.value, 'aria-label': f.label, 'data-filter': f.value },
      });
      radio.addEventListener('change', () => {
        if (radio.checked) this.actions?.filter(f.value);
      });
      this.radios.set(f.value, radio);
      this.filterGroup.append(radio);
    }
    this.list.configure({
      role: 'listbox',
      label: 'Gate decisions, newest first',
      rowHeight: FEED_ROW_HEIGHT,
      renderRow: (row, node) => this.renderRow(row, node),
      onActivate: (row) => this.actions?.open(row.candidateId),
    });
    this.append(
      el('div', { className: 'toolbar' }, [this.filterGroup]),
      el('div', { className: 'feed-head', attrs: { 'aria-hidden': 'true' } }, [
        el('span', { text: 'decision' }),
        el('span', { text: 'candidate' }),
        el('span', { text: 'parent' }),
        el('span', { text: 'statistic' }),
        el('span', { text: 'items used' }),
        el('span', { text: 'reason' }),
      ]),
      this.list,
      this.empty,
      this.dropped,
    );
  }

  update(rows: readonly DecisionRow[], filter: DecisionFilter, counts: Record<DecisionFilter, number>, selectedId: string | undefined, dropped: number): void {
    this.connectedCallback();
    this.selectedId = selectedId;
    this.rows = rows;
    for (const f of FILTERS) {
      const radio = this.radios.get(f.value)!;
      radio.checked = f.value === filter;
      radio.textContent = `${f.label} (${counts[f.value]})`;
      radio.setAttribute('aria-label', `${f.label} (${counts[f.value]})`);
    }
    this.list.setItems(rows, (r) => String(r.seq));
    this.empty.hidden = rows.length > 0;
    this.dropped.hidden = dropped === 0;
    this.dropped.textContent = dropped === 0 ? '' : `${dropped} older decisions are not kept in the panel; the run's journal has them all.`;
  }

  /** Makes the candidate's latest decision row (rows are newest first) the active one, scrolled into view. */
  reveal(candidateId: string): void {
    const index = this.rows.findIndex((r) => r.candidateId === candidateId);
    if (index >= 0) this.list.setActive(index);
  }

  get listElement(): VirtualList<DecisionRow> {
    return this.list;
  }

  /** Rows are recycled while scrolling: the cells are built once per row element, then re-filled. */
  private renderRow(row: DecisionRow, node: HTMLElement): void {
    const f = toFeedRow(row);
    let cells = node.children as HTMLCollectionOf<HTMLElement>;
    if (cells.length !== 6) {
      setChildren(node, [
        el('span', { className: 'cell decision' }, [codicon('pass-filled'), el('span')]),
        el('span', { className: 'cell mono' }),
        el('span', { className: 'cell mono' }),
        el('span', { className: 'cell' }),
        el('span', { className: 'cell' }),
        el('span', { className: 'cell' }),
      ]);
      cells = node.children as HTMLCollectionOf<HTMLElement>;
    }
    node.className = `vlist-row feed-row decision-${f.decision}`;
    node.classList.toggle('selected', row.candidateId === this.selectedId);
    node.setAttribute('aria-label', f.label);
    const [decision, candidate, parent, statistic, items, reason] = Array.from(cells);
    decision!.firstElementChild!.className = `codicon codicon-${f.decision === 'commit' ? 'pass-filled' : 'circle-slash'}`;
    setText(decision!.lastElementChild!, ` ${f.decision}`);
    fill(candidate!, f.candidate, row.candidateId);
    fill(parent!, f.parent, row.parentId ?? '');
    fill(statistic!, f.statistic, f.statistic);
    fill(items!, f.items, '');
    fill(reason!, f.reason, f.reason);
  }
}

function fill(cell: HTMLElement, text: string, title: string): void {
  setText(cell, text);
  if (cell.title !== title) cell.title = title;
}

customElements.define('ratchet-verdict-feed', VerdictFeed);
