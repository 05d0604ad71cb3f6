/**
 * <ratchet-programs-view>: the Programs tab of a code search. Sections, top to bottom: Score over
 * time, the selected program (next to the chart it was picked from), islands and the archive (a
 * virtual list sorted by score or by recency), then the genealogy and throughput sections, which are their own elements
 * (<ratchet-programs-genealogy>, <ratchet-programs-throughput>) mounted by tag name: each takes
 * `.programs` and `.runState` and says which program the user picked with a bubbling
 * `program-select` event, which opens it here like a click in the chart.
 */
import type { ProgramsAxis } from '../../src/protocol/webview';
import { custom, el, setChildren, setText } from '../dom';
import { count } from '../model/format';
import type { ArchiveSort } from '../model/programsView';
import { archiveRows, formatScore, islandRows, scoreChartData } from '../model/programsView';
import type { ProgramDetailView } from './program-detail';
import type { ScoreChart } from './score-chart';
import type { VirtualList } from './virtual-list';
import './program-detail';
import './score-chart';
import './virtual-list';
import type { RunState } from '../../src/panelState/types';
import type { ProgramDetail, ProgramNode, ProgramsState } from '../../src/panelState/types';

export interface ProgramsViewActions {
  /** Open a program (asks the host for its detail). */
  select(programId: string): void;
  axis(axis: ProgramsAxis): void;
  openCandidate(programId: string, as: 'text' | 'diff'): void;
}

/** Sections other helpers build, each a custom element taking `.programs` and `.runState`. */
const MOUNTED_SECTIONS = [
  { tag: 'ratchet-programs-genealogy', title: 'Genealogy' },
  { tag: 'ratchet-programs-throughput', title: 'Throughput' },
] as const;

type MountedSection = HTMLElement & { programs?: ProgramsState; runState?: RunState };

const ARCHIVE_ROW_HEIGHT = 22;
const AXES: { value: ProgramsAxis; label: string }[] = [
  { value: 'index', label: 'Evaluation' },
  { value: 'time', label: 'Wall time' },
];
const SORTS: { value: ArchiveSort; label: string }[] = [
  { value: 'score', label: 'Best first' },
  { value: 'recent', label: 'Newest first' },
];

export class ProgramsView extends HTMLElement {
  actions: ProgramsViewActions | undefined;
  private readonly chart = custom<ScoreChart>('ratchet-score-chart');
  private readonly axisRadios = new Map<ProgramsAxis, HTMLElement & { checked: boolean }>();
  private readonly islandsBody = el('tbody');
  private readonly islandsTable = el('table', { className: 'data-table islands-table', attrs: { 'aria-label': 'Islands' } }, [
    el('thead', {}, [
      el(
        'tr',
        {},
        ['island', 'best', 'score', 'programs', 'evaluated', 'stagnation'].map((h) => el('th', { text: h, attrs: { scope: 'col' } })),
      ),
    ]),
    this.islandsBody,
  ]);
  private readonly archiveCount = el('span', { className: 'note' });
  private readonly archive = custom<VirtualList<ProgramNode>>('ratchet-virtual-list', { className: 'archive-list' });
  private readonly detail = custom<ProgramDetailView>('ratchet-program-detail');
  private readonly mounted: MountedSection[] = MOUNTED_SECTIONS.map((s) => custom<MountedSection>(s.tag));
  private sort: ArchiveSort = 'score';
  private programs: ProgramsState | undefined;
  private runState: RunState | undefined;
  private selectedId: string | undefined;
  private axis: ProgramsAxis = 'index';

  connectedCallback(): void {
    if (this.childElementCount > 0) return;
    this.chart.onSelect = (id) => this.actions?.select(id);
    this.detail.actions = {
      select: (id) => this.actions?.select(id),
      openCandidate: (id, as) => this.actions?.openCandidate(id, as),
    };
    this.archive.configure({
      role: 'listbox',
      label: 'Archive: every correct program',
      rowHeight: ARCHIVE_ROW_HEIGHT,
      renderRow: (node, row) => fillArchiveRow(node, row, node.id === this.selectedId),
      onActivate: (node) => this.actions?.select(node.id),
    });
    // The genealogy and throughput sections say what the user picked the same way.
    this.addEventListener('program-select', (e) => {
      const id = (e as CustomEvent<{ programId?: unknown }>).detail?.programId;
      if (typeof id === 'string') this.actions?.select(id);
    });
    const axisGroup = custom('vscode-radio-group', { attrs: { 'aria-label': 'Score over time: x axis', role: 'radiogroup' } });
    for (const a of AXES) {
      const radio = custom<HTMLElement & { checked: boolean }>('vscode-radio', { text: a.label, attrs: { name: 'programs-axis', value: a.value, 'data-axis': a.value, ...(a.value === this.axis ? { checked: '' } : {}) } });
      radio.addEventListener('change', () => {
        if (radio.checked) this.actions?.axis(a.value);
      });
      this.axisRadios.set(a.value, radio);
      axisGroup.append(radio);
    }
    const sortGroup = custom('vscode-radio-group', { attrs: { 'aria-label': 'Archive order', role: 'radiogroup' } });
    for (const s of SORTS) {
      const radio = custom<HTMLElement & { checked: boolean }>('vscode-radio', { text: s.label, attrs: { name: 'archive-sort', value: s.value, 'data-sort': s.value, ...(s.value === this.sort ? { checked: '' } : {}) } });
      radio.addEventListener('change', () => {
        if (!radio.checked || this.sort === s.value) return;
        this.sort = s.value;
        this.paintArchive();
      });
      sortGroup.append(radio);
    }
    this.append(
      section('programs-score', 'Score over time', [el('div', { className: 'toolbar' }, [axisGroup]), this.chart]),
      section('programs-detail', 'Program', [this.detail]),
      el('div', { className: 'programs-columns' }, [section('programs-islands', 'Islands', [this.islandsTable]), section('programs-archive', 'Archive', [el('div', { className: 'toolbar' }, [sortGroup, this.archiveCount]), this.archive])]),
      ...this.mounted.map((m, i) => section(`programs-${MOUNTED_SECTIONS[i]!.tag.replace('ratchet-programs-', '')}`, MOUNTED_SECTIONS[i]!.title, [m])),
    );
  }

  /** Repaints from the run's programs; `selectedId` is the program open below. */
  update(state: RunState, axis: ProgramsAxis, selectedId: string | undefined): void {
    this.connectedCallback();
    const p = state.programs;
    this.programs = p;
    this.runState = state;
    this.selectedId = selectedId;
    if (axis !== this.axis) {
      this.axis = axis;
      const radio = this.axisRadios.get(axis);
      if (radio) radio.checked = true;
    }
    this.chart.update(scoreChartData(p, axis, selectedId), p, selectedId);
    this.paintIslands(p);
    this.paintArchive();
    for (const m of this.mounted) {
      m.programs = p;
      m.runState = state;
    }
  }

  showLoading(programId: string): void {
    this.detail.showLoading(programId);
  }

  showDetail(detail: ProgramDetail): void {
    this.detail.show(detail, this.programs?.nodes[detail.programId]);
  }

  showMissing(programId: string, why: string): void {
    this.detail.showMissing(programId, why);
  }

  /** Brings the program's detail into view (after a click in the chart or the list). */
  revealDetail(): void {
    this.detail.scrollIntoView?.({ block: 'nearest' });
  }

  get detailElement(): ProgramDetailView {
    return this.detail;
  }
  get archiveElement(): VirtualList<ProgramNode> {
    return this.archive;
  }
  get chartElement(): ScoreChart {
    return this.chart;
  }

  private paintIslands(p: ProgramsState): void {
    setChildren(
      this.islandsBody,
      islandRows(p).map((r) =>
        el('tr', {}, [
          el('td', { text: String(r.island) }),
          el('td', { className: 'mono', text: r.bestId ?? '—' }),
          el('td', { text: formatScore(r.bestScore) }),
          el('td', { text: String(r.size) }),
          el('td', { text: String(r.evaluated) }),
          el('td', { text: r.evaluated === 0 ? '—' : count(r.stagnation, 'evaluation'), title: 'Evaluations of its programs since its best improved' }),
        ]),
      ),
    );
  }

  private paintArchive(): void {
    if (!this.programs) return;
    const rows = archiveRows(this.programs, this.sort);
    setText(this.archiveCount, count(rows.length, 'correct program'));
    this.archive.setItems(rows, (n) => n.id);
  }
}

function fillArchiveRow(node: ProgramNode, row: HTMLElement, selected: boolean): void {
  row.className = `archive-row island-${node.island % 7}${node.committed ? ' committed' : ''}${selected ? ' selected' : ''}`;
  row.setAttribute('aria-label', `${node.id}, score ${formatScore(node.score)}, island ${node.island}${node.committed ? ', committed' : ''}${node.name ? `, ${node.name}` : ''}`);
  setChildren(row, [
    el('span', { className: 'archive-score', text: formatScore(node.score) }),
    el('span', { className: 'archive-id mono', text: node.id }),
    el('span', { className: 'archive-island', text: `island ${node.island}` }),
    el('span', { className: 'archive-mark', text: node.committed ? 'committed' : '' }),
    el('span', { className: 'archive-name', text: node.name ?? '' }),
  ]);
}

function section(className: string, title: string, body: HTMLElement[]): HTMLElement {
  return el('section', { className: `programs-section ${className}` }, [el('h3', { text: title }), ...body]);
}

customElements.define('ratchet-programs-view', ProgramsView);
