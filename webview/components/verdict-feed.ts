/**
 * <ratchet-verdict-feed>: one row per gate decision, newest first, filterable by decision.
 * Activating a row (click, Enter) opens that decision's evidence. As the panel narrows, columns
 * give way by priority (model/feed.ts FEED_COLUMNS); the row's hover then says what they held.
 */
import type { DecisionFilter } from '../../src/protocol/webview';
import { codicon, custom, el, setChildren, setText } from '../dom';
import type { FeedCell, FeedColumn, FeedColumnSpec, FeedRow } from '../model/feed';
import { FEED_COLUMNS, feedColumnsFor, toFeedRow } from '../model/feed';
import type { VirtualList } from './virtual-list';
import './virtual-list';
import type { CandidateNode, DecisionRow } from '../../src/panelState/types';

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
const FEED_COLUMN_COUNT = FEED_COLUMNS.length;

export class VerdictFeed extends HTMLElement {
  actions: VerdictFeedActions | undefined;
  private readonly filterGroup = custom('vscode-radio-group', { attrs: { 'aria-label': 'Show decisions', role: 'radiogroup' } });
  private readonly radios = new Map<DecisionFilter, HTMLElement & { checked: boolean }>();
  private readonly list = custom<VirtualList<DecisionRow>>('ratchet-virtual-list', { className: 'feed-list' });
  private readonly empty = el('p', { className: 'empty', text: 'No decisions yet: each gate decision appears here as it is made.' });
  private readonly dropped = el('p', { className: 'note' });
  private readonly head = el('div', { className: 'feed-head', attrs: { 'aria-hidden': 'true' } });
  private selectedId: string | undefined;
  private rows: readonly DecisionRow[] = [];
  private candidates: Readonly<Record<string, CandidateNode>> = {};
  private columns: FeedColumnSpec[] = feedColumnsFor(0);
  private readonly resize: ResizeObserver | undefined = typeof ResizeObserver === 'function' ? new ResizeObserver(() => this.layout(this.clientWidth)) : undefined;

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
    this.append(el('div', { className: 'toolbar' }, [this.filterGroup]), this.head, this.list, this.empty, this.dropped);
    this.applyColumns();
    this.resize?.observe(this);
  }

  disconnectedCallback(): void {
    // Kept observing: a tab switch detaches nothing, and a hidden tab reports width 0, which layout ignores.
  }

  /** Shows the columns that fit `width` px (the feed's own width); 0 (hidden, not laid out) changes nothing. */
  layout(width: number): void {
    if (width <= 0) return;
    const next = feedColumnsFor(width);
    if (next.map((c) => c.id).join() === this.columns.map((c) => c.id).join()) return;
    this.columns = next;
    this.applyColumns();
    this.list.setItems(this.rows, (r) => String(r.seq));
  }

  /** The columns on screen, in order. */
  get visibleColumns(): FeedColumn[] {
    return this.columns.map((c) => c.id);
  }

  private applyColumns(): void {
    this.style.setProperty('--feed-columns', this.columns.map((c) => c.track).join(' '));
    setChildren(
      this.head,
      this.columns.map((c) => el('span', { text: c.heading })),
    );
  }

  /** `candidates`: the run's lineage, which says what the user did with a committed suggestion. */
  update(rows: readonly DecisionRow[], filter: DecisionFilter, counts: Record<DecisionFilter, number>, selectedId: string | undefined, dropped: number, candidates: Readonly<Record<string, CandidateNode>> = {}): void {
    this.connectedCallback();
    this.selectedId = selectedId;
    this.rows = rows;
    this.candidates = candidates;
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

  /** Rows are recycled while scrolling: the cells are rebuilt only when the columns change, then re-filled. */
  private renderRow(row: DecisionRow, node: HTMLElement): void {
    const f = toFeedRow(row, this.candidates[row.candidateId]);
    const ids = this.columns.map((c) => c.id).join();
    if (node.dataset.columns !== ids) {
      setChildren(
        node,
        this.columns.map((c) =>
          c.id === 'decision' ? el('span', { className: 'cell decision' }, [codicon('pass-filled'), el('span')]) : el('span', { className: `cell ${c.id}${c.id === 'candidate' || c.id === 'parent' ? ' mono' : ''}` }),
        ),
      );
      node.dataset.columns = ids;
    }
    node.className = `vlist-row feed-row decision-${f.decision}${f.userAnswer === 'rejected' ? ' user-rejected' : ''}`;
    node.classList.toggle('selected', row.candidateId === this.selectedId);
    node.setAttribute('aria-label', f.label);
    // What a narrow feed leaves out is one hover away: the decision's hover is the row's whole sentence.
    const decisionTitle = this.columns.length < FEED_COLUMN_COUNT ? f.label : '';
    const cells = Array.from(node.children as HTMLCollectionOf<HTMLElement>);
    this.columns.forEach((c, i) => fillColumn(c.id, cells[i]!, f, decisionTitle));
  }
}

function fillColumn(column: FeedColumn, cell: HTMLElement, f: FeedRow, decisionTitle: string): void {
  switch (column) {
    case 'decision':
      cell.firstElementChild!.className = `codicon codicon-${f.userAnswer === 'rejected' ? 'thumbsdown' : f.decision === 'commit' ? 'pass-filled' : 'circle-slash'}`;
      setText(cell.lastElementChild!, ` ${f.decisionText}`);
      if (cell.title !== decisionTitle) cell.title = decisionTitle;
      return;
    case 'statistic':
      // Each term its own hover: "evidence ×3.1" and "(needs ×20)" say what they mean for this candidate.
      // Rebuilt only when the pieces change: a repaint (the list repaints when it takes focus, on a
      // row's mousedown) must not replace the span under the pointer, or the browser drops the click.
      {
        const key = JSON.stringify(f.statistic.pieces);
        if (cell.dataset.pieces !== key) {
          cell.dataset.pieces = key;
          setChildren(
            cell,
            f.statistic.pieces.map((p) => (p.title === undefined ? p.text : el('span', { className: 'term', text: p.text, title: p.title }))),
          );
        }
      }
      // A cell whose terms have hovers has none of its own: the browser would draw it over theirs.
      {
        const title = f.statistic.pieces.some((p) => p.title !== undefined) ? '' : f.statistic.title;
        if (cell.title !== title) cell.title = title;
      }
      return;
    case 'candidate':
    case 'parent':
    case 'items':
    case 'reason':
      fill(cell, f[column]);
      return;
  }
}

function fill(cell: HTMLElement, c: FeedCell): void {
  setText(cell, c.text);
  if (cell.title !== c.title) cell.title = c.title;
}

customElements.define('ratchet-verdict-feed', VerdictFeed);
