/**
 * <ratchet-lineage-tree>: the candidate tree, parent → children, coloured by decision (with the
 * decision also in words and an icon, so colour is never the only cue). Enter opens the
 * parent → child diff, the toolbar opens the text; ArrowRight/Left expand and collapse.
 */
import { codicon, custom, el, setChildren, setText } from '../dom';
import type { LineageRow, LineageTree } from '../model/lineage';
import { buildLineage, lineageRows, parentOf } from '../model/lineage';
import type { VirtualList } from './virtual-list';
import './virtual-list';
import type { RunState } from '../../src/panelState/types';

export interface LineageActions {
  open(candidateId: string, as: 'text' | 'diff'): void;
}

const ROW_HEIGHT = 22;
const STATUS_ICON = { commit: 'pass-filled', reject: 'circle-slash', pending: 'circle-outline' } as const;

export class LineageTreeView extends HTMLElement {
  actions: LineageActions | undefined;
  private readonly list = custom<VirtualList<LineageRow>>('ratchet-virtual-list', { className: 'lineage-list' });
  private readonly empty = el('p', { className: 'empty', text: 'No candidates yet.' });
  private readonly openText = custom<HTMLElement & { disabled: boolean }>('vscode-button', {
    text: 'Open text',
    attrs: { icon: 'go-to-file', secondary: '', 'aria-label': 'Open the selected candidate’s text' },
  });
  private readonly openDiff = custom<HTMLElement & { disabled: boolean }>('vscode-button', {
    text: 'Open diff',
    attrs: { icon: 'diff', secondary: '', 'aria-label': 'Open the selected candidate’s diff from its parent' },
  });
  private readonly count = el('span', { className: 'note' });
  private readonly collapsed = new Set<string>();
  private state: RunState | undefined;
  private tree: LineageTree = { roots: [], children: new Map() };

  connectedCallback(): void {
    if (this.childElementCount > 0) return;
    this.list.configure({
      role: 'tree',
      label: 'Candidate lineage',
      rowHeight: ROW_HEIGHT,
      renderRow: (row, node) => renderRow(row, node),
      rowAria: (row) => ({
        'aria-level': String(row.depth),
        'aria-expanded': row.childCount > 0 ? String(row.expanded) : undefined,
        'aria-label': row.label,
      }),
      onActivate: (row, _i, e) => {
        const target = e.target as Element | null;
        if (target?.closest('.twisty')) this.toggle(row.id);
        else this.actions?.open(row.id, 'diff');
      },
      onKey: (row, _i, e) => this.onKey(row, e),
    });
    this.openText.addEventListener('click', () => this.openSelected('text'));
    this.openDiff.addEventListener('click', () => this.openSelected('diff'));
    this.append(el('div', { className: 'toolbar' }, [this.openText, this.openDiff, this.count]), this.list, this.empty);
  }

  update(state: RunState | undefined): void {
    this.connectedCallback();
    this.state = state;
    this.tree = buildLineage(state);
    this.refresh();
  }

  get listElement(): VirtualList<LineageRow> {
    return this.list;
  }

  private refresh(): void {
    const rows = lineageRows(this.state, this.tree, this.collapsed);
    this.list.setItems(rows, (r) => r.id);
    this.empty.hidden = rows.length > 0;
    setText(this.count, `${this.state?.candidateOrder.length ?? 0} candidates`);
  }

  private toggle(id: string): void {
    if (this.collapsed.has(id)) this.collapsed.delete(id);
    else this.collapsed.add(id);
    this.refresh();
  }

  private onKey(row: LineageRow, e: KeyboardEvent): boolean {
    if (e.key === 'ArrowRight' && row.childCount > 0 && !row.expanded) {
      this.toggle(row.id);
      return true;
    }
    if (e.key === 'ArrowLeft') {
      if (row.expanded) {
        this.toggle(row.id);
        return true;
      }
      const parent = parentOf(this.state, row.id);
      if (parent === undefined) return false;
      const rows = lineageRows(this.state, this.tree, this.collapsed);
      this.list.setActive(rows.findIndex((r) => r.id === parent));
      return true;
    }
    return false;
  }

  private openSelected(as: 'text' | 'diff'): void {
    const row = this.list.active;
    if (row) this.actions?.open(row.id, as);
  }
}

function renderRow(row: LineageRow, node: HTMLElement): void {
  node.className = `vlist-row lineage-row status-${row.status}`;
  node.classList.toggle('incumbent', row.incumbent);
  const twisty = el('span', { className: 'twisty' }, [row.childCount > 0 ? codicon(row.expanded ? 'chevron-down' : 'chevron-right') : undefined]);
  twisty.style.marginLeft = `${(row.depth - 1) * 14}px`;
  setChildren(node, [twisty, codicon(row.incumbent ? 'star-full' : STATUS_ICON[row.status]), el('span', { className: 'mono', text: ` ${row.label}` })]);
}

customElements.define('ratchet-lineage-tree', LineageTreeView);
