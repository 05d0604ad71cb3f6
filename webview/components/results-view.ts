/**
 * <ratchet-results-view>: the run's results item by item — one row per dev/test item, one column
 * per version scored on it (the baseline first), pass/fail or the score in each cell. Filters (only
 * failures, only rows where two versions differ, a search over the item text) pick the rows; each
 * column's header carries the version's mean score with its 95 % interval. Clicking a cell (or
 * Enter on a row, ←/→ to move between its cells) shows that version's output on the item. Rows are
 * virtualised, so 2,000 items × 20 versions cost what the screen shows.
 */
import type { ResultCell, ResultsFilter, ResultsTable } from '../../src/panelState/results';
import { cellText, emptyResultsFilter, filterRows, intervalMethodText, isFailure, versionAccuracy, versionLabel } from '../../src/panelState/results';
import { custom, el, setChildren, setText } from '../dom';
import type { VirtualList } from './virtual-list';
import './virtual-list';

export interface ResultsViewActions {
  /** The user opened a cell: the host answers with its output (`showCell`). */
  openCell(itemId: string, versionId: string): void;
  export(format: 'csv' | 'json', filter: ResultsFilter): void;
}

export const RESULTS_ROW_HEIGHT = 24;
/** Widths in px: the item id, its text, each version's cell. */
const ID_WIDTH = 110;
const TEXT_WIDTH = 260;
const CELL_WIDTH = 96;

export class ResultsView extends HTMLElement {
  actions: ResultsViewActions | undefined;
  private table: ResultsTable | undefined;
  private filter: ResultsFilter = emptyResultsFilter();
  private rows: number[] = [];
  /** The column Enter opens, moved with ←/→. */
  private column = 0;
  private openKey: string | undefined;

  private readonly onlyFailures = el('input', { attrs: { type: 'checkbox', id: 'results-only-failures' } });
  private readonly differA = el('select', { attrs: { 'aria-label': 'First version to compare' } });
  private readonly differB = el('select', { attrs: { 'aria-label': 'Second version to compare' } });
  private readonly search = el('input', { className: 'results-search', attrs: { type: 'search', placeholder: 'Search items', 'aria-label': 'Search item text' } });
  private readonly shown = el('span', { className: 'results-count', attrs: { role: 'status' } });
  private readonly head = el('div', { className: 'results-head', attrs: { role: 'row' } });
  private readonly list = custom<VirtualList<number>>('ratchet-virtual-list', { className: 'results-list' });
  private readonly empty = el('p', { className: 'empty' });
  private readonly detail = el('section', { className: 'results-detail', attrs: { 'aria-live': 'polite' } });

  connectedCallback(): void {
    if (this.childElementCount > 0) return;
    this.onlyFailures.addEventListener('change', () => this.setFilter({ ...this.filter, onlyFailures: this.onlyFailures.checked }));
    const onDiffer = () => {
      const a = this.differA.value;
      const b = this.differB.value;
      const { differ: _d, ...rest } = this.filter;
      this.setFilter(a && b ? { ...rest, differ: [a, b] } : rest);
    };
    this.differA.addEventListener('change', onDiffer);
    this.differB.addEventListener('change', onDiffer);
    this.search.addEventListener('input', () => this.setFilter({ ...this.filter, search: this.search.value }));
    const exportButton = (format: 'csv' | 'json') => {
      const b = custom('vscode-button', {
        text: `Export ${format.toUpperCase()}`,
        title: `Save the rows shown, with every version's score and output, as ${format.toUpperCase()}`,
        attrs: { secondary: '', icon: 'export', 'data-export': format },
      });
      b.addEventListener('click', () => this.actions?.export(format, this.filter));
      return b;
    };
    this.list.configure({
      role: 'listbox',
      label: 'Results by item',
      rowHeight: RESULTS_ROW_HEIGHT,
      renderRow: (row, node) => this.renderRow(row, node),
      onActivate: (row, _i, event) => this.activate(row, event),
      onKey: (_row, _i, event) => this.moveColumn(event),
    });
    // The header scrolls sideways with the rows.
    this.list.addEventListener('scroll', () => {
      if (this.head.scrollLeft !== this.list.scrollLeft) this.head.scrollLeft = this.list.scrollLeft;
    });
    this.append(
      el('div', { className: 'toolbar results-toolbar' }, [
        el('label', { className: 'results-check' }, [this.onlyFailures, ' Only failures']),
        el('span', { className: 'results-differ' }, ['Differ: ', this.differA, ' vs ', this.differB]),
        this.search,
        exportButton('csv'),
        exportButton('json'),
        this.shown,
      ]),
      this.head,
      this.list,
      this.empty,
      this.detail,
    );
    this.showPlaceholder('Loading the results…');
  }

  /** The table from the host; the filters the user set stay. */
  update(table: ResultsTable): void {
    this.connectedCallback();
    const sameColumns = this.table !== undefined && this.table.runId === table.runId && this.table.versions.map((v) => v.id).join() === table.versions.map((v) => v.id).join();
    if (this.table?.runId !== table.runId) {
      this.filter = emptyResultsFilter();
      this.onlyFailures.checked = false;
      this.search.value = '';
      this.column = 0;
      this.openKey = undefined;
      setChildren(this.detail, []);
    }
    this.table = table;
    const width = ID_WIDTH + TEXT_WIDTH + table.versions.length * CELL_WIDTH + 24;
    this.style.setProperty('--results-width', `${width}px`);
    this.style.setProperty('--results-columns', `${ID_WIDTH}px ${TEXT_WIDTH}px repeat(${table.versions.length}, ${CELL_WIDTH}px)`);
    this.renderHead(table);
    if (!sameColumns) this.renderVersionPickers(table);
    this.refresh();
  }

  /** The output of a cell the user opened (stale answers, for another cell, are dropped). */
  showCell(cell: ResultCell): void {
    if (cell.runId !== this.table?.runId || `${cell.itemId}\n${cell.versionId}` !== this.openKey) return;
    const version = this.table.versions.find((v) => v.id === cell.versionId);
    const result = cell.score === undefined ? 'not run' : `${cellText(cell.score, this.table.passFail)}${this.table.passFail ? '' : ' (score)'}`;
    const vars = Object.entries(cell.vars ?? {});
    setChildren(this.detail, [
      el('h3', { text: `${cell.itemId}${cell.split ? ` (${cell.split})` : ''} · ${version ? versionLabel(version) : cell.versionId} · ${result}` }),
      vars.length > 0
        ? el('dl', { className: 'results-vars' }, vars.flatMap(([name, value]) => [el('dt', { text: name }), el('dd', {}, [el('pre', { className: 'text-block', text: value })])]))
        : el('div', {}, [el('h4', { text: 'Input' }), el('pre', { className: 'text-block', text: cell.input ?? '(not recorded)' })]),
      el('h4', { text: 'Expected' }),
      el('pre', { className: 'text-block results-expected', text: cell.expected ?? '(no expected answer)' }),
      el('h4', { text: 'Output' }),
      el('pre', { className: 'text-block results-output', text: cell.output ?? '(this run did not record the output)' }),
    ]);
  }

  showPlaceholder(text: string): void {
    this.connectedCallback();
    if (this.table) return;
    this.empty.hidden = false;
    setText(this.empty, text);
  }

  get listElement(): VirtualList<number> {
    return this.list;
  }

  get visibleRowCount(): number {
    return this.rows.length;
  }

  private setFilter(filter: ResultsFilter): void {
    this.filter = filter;
    this.refresh();
  }

  private refresh(): void {
    const table = this.table;
    if (!table) return;
    this.rows = filterRows(table, this.filter);
    // A short table takes only its rows' height, so the opened cell's output shows below it.
    this.list.style.height = `min(50vh, ${Math.max(2, this.rows.length) * RESULTS_ROW_HEIGHT + 2}px)`;
    this.list.setItems(this.rows, (i) => table.items[i]!.itemId);
    setText(this.shown, `${this.rows.length} of ${table.items.length} items`);
    this.empty.hidden = this.rows.length > 0;
    setText(
      this.empty,
      table.items.length === 0 ? 'No item has been scored yet: dev items appear as the gate tests candidates, test items when the run scores its test split.' : 'No item matches the filters.',
    );
  }

  private renderHead(table: ResultsTable): void {
    const cells: HTMLElement[] = [el('span', { className: 'cell', text: 'item' }), el('span', { className: 'cell', text: 'input' })];
    table.versions.forEach((v, j) => {
      const acc = versionAccuracy(table, j);
      const pct = (x: number) => `${Math.round(x * 100)}%`;
      cells.push(
        el('span', { className: 'cell results-version', attrs: { role: 'columnheader', 'data-version': v.id }, title: acc ? `${versionLabel(v)}: ${acc.mean.toFixed(3)} [${acc.lo.toFixed(3)}, ${acc.hi.toFixed(3)}] over ${acc.n} items. ${intervalMethodText(acc.method)}` : versionLabel(v) }, [
          el('span', { className: 'results-version-id', text: versionLabel(v) }),
          el('span', { className: 'results-accuracy', text: acc ? `${pct(acc.mean)} (${pct(acc.lo)}–${pct(acc.hi)})` : '—' }),
        ]),
      );
    });
    setChildren(this.head, cells);
  }

  private renderVersionPickers(table: ResultsTable): void {
    for (const select of [this.differA, this.differB]) {
      const previous = select.value;
      setChildren(select, [el('option', { text: '—', attrs: { value: '' } }), ...table.versions.map((v) => el('option', { text: versionLabel(v), attrs: { value: v.id } }))]);
      select.value = table.versions.some((v) => v.id === previous) ? previous : '';
    }
  }

  /** Rows are recycled while scrolling: cells are rebuilt only when the column count changes. */
  private renderRow(rowIndex: number, node: HTMLElement): void {
    const table = this.table!;
    const item = table.items[rowIndex]!;
    const scores = table.scores[rowIndex]!;
    const wanted = 2 + table.versions.length;
    if (node.childElementCount !== wanted) {
      const cells: HTMLElement[] = [el('span', { className: 'cell mono' }), el('span', { className: 'cell' })];
      for (let j = 0; j < table.versions.length; j++) cells.push(el('span', { className: 'cell result', attrs: { 'data-col': String(j) } }));
      setChildren(node, cells);
    }
    node.className = 'vlist-row results-row';
    const cells = node.children;
    const id = cells[0] as HTMLElement;
    setText(id, item.itemId);
    id.title = item.split ? `${item.itemId} (${item.split} split)` : item.itemId;
    const text = cells[1] as HTMLElement;
    setText(text, item.text);
    text.title = item.text;
    for (let j = 0; j < table.versions.length; j++) {
      const cell = cells[j + 2] as HTMLElement;
      const score = scores[j] ?? null;
      setText(cell, cellText(score, table.passFail));
      const state = score === null ? 'none' : isFailure(score) ? 'fail' : 'pass';
      cell.className = `cell result result-${state}${j === this.column ? ' current' : ''}`;
    }
    node.setAttribute('aria-label', `${item.itemId}: ${table.versions.map((v, j) => `${v.id} ${cellText(scores[j] ?? null, table.passFail) || 'not run'}`).join(', ')}`);
  }

  private activate(rowIndex: number, event: KeyboardEvent | MouseEvent): void {
    const table = this.table;
    if (!table) return;
    const target = event instanceof MouseEvent ? (event.target as Element | null)?.closest<HTMLElement>('[data-col]') : null;
    if (target?.dataset.col !== undefined) this.column = Number(target.dataset.col);
    const scores = table.scores[rowIndex]!;
    // A click on the item's id or text opens the current column, or the first version scored on it.
    const column = scores[this.column] !== null ? this.column : scores.findIndex((s) => s !== null);
    const version = table.versions[column];
    if (!version) return;
    const itemId = table.items[rowIndex]!.itemId;
    this.openKey = `${itemId}\n${version.id}`;
    setChildren(this.detail, [el('p', { className: 'note', text: `Loading ${version.id}'s output on ${itemId}…` })]);
    this.actions?.openCell(itemId, version.id);
    this.list.setItems(this.rows, (i) => table.items[i]!.itemId);
  }

  private moveColumn(event: KeyboardEvent): boolean {
    const count = this.table?.versions.length ?? 0;
    if (count === 0 || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return false;
    this.column = Math.max(0, Math.min(count - 1, this.column + (event.key === 'ArrowRight' ? 1 : -1)));
    this.list.setItems(this.rows, (i) => this.table!.items[i]!.itemId);
    return true;
  }
}

customElements.define('ratchet-results-view', ResultsView);
