/**
 * <ratchet-results-view>: the run's results item by item — one row per dev/test item, one column
 * per version shown, pass/fail or the score in each cell. The columns start as the baseline, the
 * committed version and the best other candidate (`defaultResultsColumns`: what fits beside an
 * editor); the Columns picker shows any others. Filters (only failures, only rows where two
 * versions differ, a search over the item text) pick the rows; each column's header carries the
 * version's mean score with its 95 % interval and how many items it was scored on, since versions
 * a gate stopped early were scored on fewer. Clicking a cell (or Enter on a row, ←/→ to move between
 * its cells) shows that version's output on the item, scrolled into sight. Rows are virtualised, so
 * 2,000 items × 20 versions cost what the screen shows.
 */
import type { ResultCell, ResultsFilter, ResultsTable } from '../../src/panelState/results';
import { cellText, defaultResultsColumns, emptyResultsFilter, filterRows, intervalMethodText, isFailure, scoredCount, shownColumns, versionAccuracy, versionLabel } from '../../src/panelState/results';
import { custom, el, setChildren, setText } from '../dom';
import type { VirtualList } from './virtual-list';
import './virtual-list';

export interface ResultsViewActions {
  /** The user opened a cell: the host answers with its output (`showCell`). */
  openCell(itemId: string, versionId: string): void;
  export(format: 'csv' | 'json', filter: ResultsFilter): void;
}

export const RESULTS_ROW_HEIGHT = 24;
/** Widths in px: the item id, its text, each version's cell (three versions fit the ~490 px panel beside an editor at 1400 px; the text's tooltip has it whole). */
const ID_WIDTH = 70;
const TEXT_WIDTH = 100;
const CELL_WIDTH = 92;

export class ResultsView extends HTMLElement {
  actions: ResultsViewActions | undefined;
  private table: ResultsTable | undefined;
  private filter: ResultsFilter = emptyResultsFilter();
  private rows: number[] = [];
  /** The column Enter opens, moved with ←/→: an index into the shown columns. */
  private column = 0;
  /** The table's indexes of the versions shown (`filter.versions`, resolved). */
  private columns: number[] = [];
  /** The user chose the columns: a new version in a running search does not change them. */
  private picked = false;
  private openKey: string | undefined;

  private readonly onlyFailures = el('input', { attrs: { type: 'checkbox', id: 'results-only-failures' } });
  private readonly differA = el('select', { attrs: { 'aria-label': 'First version to compare' } });
  private readonly differB = el('select', { attrs: { 'aria-label': 'Second version to compare' } });
  private readonly search = el('input', { className: 'results-search', attrs: { type: 'search', placeholder: 'Search items', 'aria-label': 'Search item text' } });
  private readonly shown = el('span', { className: 'results-count', attrs: { role: 'status' } });
  private readonly pickerSummary = el('summary', { className: 'results-columns-summary' });
  private readonly pickerChoices = el('div', { className: 'results-columns-choices', attrs: { role: 'group', 'aria-label': 'Versions shown as columns' } });
  private readonly picker = el('details', { className: 'results-columns' }, [this.pickerSummary, this.pickerChoices]);
  /** Said when the columns shown were scored on different numbers of items. */
  private readonly subsetNote = el('p', { className: 'note results-subsets' });
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
        title: `Save the rows shown, with each shown version's score and output, as ${format.toUpperCase()}`,
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
        this.picker,
        this.search,
        exportButton('csv'),
        exportButton('json'),
        this.shown,
      ]),
      this.subsetNote,
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
      this.picked = false;
      this.openKey = undefined;
      setChildren(this.detail, []);
    }
    this.table = table;
    if (!this.picked) this.filter = { ...this.filter, versions: defaultResultsColumns(table) };
    if (!sameColumns) this.renderVersionPickers(table);
    this.setColumns();
  }

  /** The columns the filter names: the grid, the header and the picker follow them. */
  private setColumns(): void {
    const table = this.table;
    if (!table) return;
    this.columns = shownColumns(table, this.filter.versions);
    this.column = Math.min(this.column, Math.max(0, this.columns.length - 1));
    const width = ID_WIDTH + TEXT_WIDTH + this.columns.length * CELL_WIDTH + 24;
    this.style.setProperty('--results-width', `${width}px`);
    this.style.setProperty('--results-columns', `${ID_WIDTH}px ${TEXT_WIDTH}px repeat(${this.columns.length}, ${CELL_WIDTH}px)`);
    this.renderHead(table);
    this.renderColumnPicker(table);
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
        ? el(
            'dl',
            { className: 'results-vars' },
            vars.flatMap(([name, value]) => [el('dt', { text: name }), el('dd', {}, [el('pre', { className: 'text-block', text: value })])]),
          )
        : el('div', {}, [el('h4', { text: 'Input' }), el('pre', { className: 'text-block', text: cell.input ?? '(not recorded)' })]),
      el('h4', { text: 'Expected' }),
      el('pre', { className: 'text-block results-expected', text: cell.expected ?? '(no expected answer)' }),
      el('h4', { text: 'Output' }),
      el('pre', { className: 'text-block results-output', text: cell.output ?? '(this run did not record the output)' }),
    ]);
    // Under a long table the detail would open below the fold: bring it into sight, scrolling no more than that.
    this.detail.scrollIntoView({ block: 'nearest' });
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
    // A short table takes only its rows' height, and a long one 40 % of the view: the opened cell's output shows below it.
    this.list.style.height = `min(40vh, ${Math.max(2, this.rows.length) * RESULTS_ROW_HEIGHT + 2}px)`;
    this.list.setItems(this.rows, (i) => table.items[i]!.itemId);
    setText(this.shown, `${this.rows.length} of ${table.items.length} items`);
    this.empty.hidden = this.rows.length > 0;
    setText(this.empty, table.items.length === 0 ? 'No item has been scored yet: dev items appear as the gate tests candidates, test items when the run scores its test split.' : 'No item matches the filters.');
  }

  private renderHead(table: ResultsTable): void {
    const cells: HTMLElement[] = [el('span', { className: 'cell', text: 'item' }), el('span', { className: 'cell', text: 'input' })];
    const total = table.items.length;
    for (const j of this.columns) {
      const v = table.versions[j]!;
      const acc = versionAccuracy(table, j);
      const pct = (x: number) => `${Math.round(x * 100)}%`;
      cells.push(
        el(
          'span',
          {
            className: 'cell results-version',
            attrs: { role: 'columnheader', 'data-version': v.id },
            title: acc ? `${versionLabel(v)}: ${acc.mean.toFixed(3)} [${acc.lo.toFixed(3)}, ${acc.hi.toFixed(3)}] over ${acc.n} of the ${total} items. ${intervalMethodText(acc.method)}` : versionLabel(v),
          },
          [
            el('span', { className: 'results-version-id', text: versionLabel(v) }),
            el('span', { className: 'results-accuracy', text: acc ? `${pct(acc.mean)} (${pct(acc.lo)}–${pct(acc.hi)})` : '—' }),
            el('span', { className: 'results-scored', text: itemsText(scoredCount(table, j), total) }),
          ],
        ),
      );
    }
    setChildren(this.head, cells);
    const counts = new Set(this.columns.map((j) => scoredCount(table, j)));
    this.subsetNote.hidden = counts.size <= 1;
    setText(this.subsetNote, counts.size <= 1 ? '' : 'These columns were scored on different items (a gate stops testing a candidate once it has decided): compare two of them on the items both ran on with Differ.');
  }

  /** One checkbox per version, with its score and item count; the summary says how many are shown. */
  private renderColumnPicker(table: ResultsTable): void {
    setText(this.pickerSummary, `Columns: ${this.columns.length} of ${table.versions.length}`);
    const total = table.items.length;
    setChildren(
      this.pickerChoices,
      table.versions.map((v, j) => {
        const box = el('input', { attrs: { type: 'checkbox', 'data-version': v.id } });
        box.checked = this.columns.includes(j);
        box.addEventListener('change', () => this.toggleColumn(v.id, box.checked));
        const acc = versionAccuracy(table, j);
        const score = acc ? `${Math.round(acc.mean * 100)}%, ` : '';
        return el('label', { className: 'results-column-choice' }, [box, ` ${versionLabel(v)} `, el('span', { className: 'results-scored', text: `${score}${itemsText(scoredCount(table, j), total)}` })]);
      }),
    );
  }

  private toggleColumn(versionId: string, shown: boolean): void {
    const table = this.table;
    if (!table) return;
    const now = new Set(this.filter.versions ?? table.versions.map((v) => v.id));
    if (shown) now.add(versionId);
    else now.delete(versionId);
    this.picked = true;
    this.filter = { ...this.filter, versions: table.versions.filter((v) => now.has(v.id)).map((v) => v.id) };
    this.setColumns();
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
    const wanted = 2 + this.columns.length;
    if (node.childElementCount !== wanted) {
      const cells: HTMLElement[] = [el('span', { className: 'cell mono' }), el('span', { className: 'cell' })];
      for (let k = 0; k < this.columns.length; k++) cells.push(el('span', { className: 'cell result', attrs: { 'data-col': String(k) } }));
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
    this.columns.forEach((j, k) => {
      const cell = cells[k + 2] as HTMLElement;
      const score = scores[j] ?? null;
      setText(cell, cellText(score, table.passFail));
      const state = score === null ? 'none' : isFailure(score) ? 'fail' : 'pass';
      cell.className = `cell result result-${state}${k === this.column ? ' current' : ''}`;
    });
    node.setAttribute('aria-label', `${item.itemId}: ${this.columns.map((j) => `${table.versions[j]!.id} ${cellText(scores[j] ?? null, table.passFail) || 'not run'}`).join(', ')}`);
  }

  private activate(rowIndex: number, event: KeyboardEvent | MouseEvent): void {
    const table = this.table;
    if (!table) return;
    const target = event instanceof MouseEvent ? (event.target as Element | null)?.closest<HTMLElement>('[data-col]') : null;
    if (target?.dataset.col !== undefined) this.column = Number(target.dataset.col);
    const scores = table.scores[rowIndex]!;
    // A click on the item's id or text opens the current column, or the first shown version scored on it.
    const scoredAt = (k: number) => scores[this.columns[k]!] !== null && scores[this.columns[k]!] !== undefined;
    const column = scoredAt(this.column) ? this.column : this.columns.findIndex((_, k) => scoredAt(k));
    const version = table.versions[this.columns[column] ?? -1];
    if (!version) return;
    const itemId = table.items[rowIndex]!.itemId;
    this.openKey = `${itemId}\n${version.id}`;
    setChildren(this.detail, [el('p', { className: 'note', text: `Loading ${version.id}'s output on ${itemId}…` })]);
    this.actions?.openCell(itemId, version.id);
    this.list.setItems(this.rows, (i) => table.items[i]!.itemId);
  }

  private moveColumn(event: KeyboardEvent): boolean {
    const count = this.columns.length;
    if (count === 0 || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return false;
    this.column = Math.max(0, Math.min(count - 1, this.column + (event.key === 'ArrowRight' ? 1 : -1)));
    this.list.setItems(this.rows, (i) => this.table!.items[i]!.itemId);
    return true;
  }
}

/** "40 items", or "25 of 40 items" for a version scored on only some of the table's items. */
function itemsText(scored: number, total: number): string {
  return scored === total ? `${total} item${total === 1 ? '' : 's'}` : `${scored} of ${total} items`;
}

customElements.define('ratchet-results-view', ResultsView);
