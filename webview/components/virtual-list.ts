/**
 * <ratchet-virtual-list>: a keyboard-navigable list that creates DOM rows only for what is on
 * screen, so a feed of 20,000 decisions costs the same to paint and scroll as one of 20. Rows
 * have a fixed height and are recycled; the list owns focus and points at the active row with
 * aria-activedescendant (the pattern screen readers expect from a listbox or tree).
 */
import { el } from '../dom';
import { oncePerFrame } from '../frame';

export interface VirtualListOptions<T> {
  role: 'listbox' | 'tree';
  label: string;
  rowHeight: number;
  /** Fill `row` (a recycled element) for `item`; called only for visible rows. */
  renderRow(item: T, row: HTMLElement, index: number): void;
  /** Enter, Space, click. */
  onActivate?(item: T, index: number, event: KeyboardEvent | MouseEvent): void;
  /** Keys the list does not handle itself (ArrowLeft/Right in a tree). Return true if handled. */
  onKey?(item: T, index: number, event: KeyboardEvent): boolean;
  /** Row ARIA attributes beyond role/selected (aria-level, aria-expanded…). */
  rowAria?(item: T, index: number): Record<string, string | undefined>;
}

/** Rows drawn above and below the viewport so fast scrolling does not show blanks. */
const OVERSCAN = 8;
/** Viewport height assumed before layout (hidden tab, or a DOM without layout such as tests). */
const FALLBACK_VIEWPORT = 600;

let nextListId = 0;

export class VirtualList<T> extends HTMLElement {
  private opts: VirtualListOptions<T> | undefined;
  private items: readonly T[] = [];
  private readonly spacer = el('div', { className: 'vlist-spacer' });
  private readonly rows: HTMLElement[] = [];
  private readonly listId = `vlist-${nextListId++}`;
  private activeIndex = -1;
  private readonly scheduleRender = oncePerFrame(() => this.render());
  private version = 0;
  private readonly rowIndex = new WeakMap<HTMLElement, number>();
  private readonly rowVersion = new WeakMap<HTMLElement, number>();

  configure(opts: VirtualListOptions<T>): void {
    const first = this.opts === undefined;
    this.opts = opts;
    this.classList.add('vlist');
    this.setAttribute('role', opts.role);
    this.setAttribute('aria-label', opts.label);
    this.tabIndex = 0;
    if (!first) return;
    this.append(this.spacer);
    this.addEventListener('scroll', () => this.scheduleRender(), { passive: true });
    this.addEventListener('keydown', (e) => this.onKeyDown(e));
    this.addEventListener('click', (e) => this.onClick(e));
    this.addEventListener('focus', () => {
      if (this.activeIndex < 0 && this.items.length > 0) this.setActive(0);
    });
  }

  /** Replaces the items; keeps the active row on the same key when `keyOf` is given. */
  setItems(items: readonly T[], keyOf?: (item: T) => string): void {
    const activeKey = keyOf && this.activeIndex >= 0 && this.activeIndex < this.items.length ? keyOf(this.items[this.activeIndex]!) : undefined;
    this.items = items;
    if (activeKey !== undefined && keyOf) this.activeIndex = items.findIndex((i) => keyOf(i) === activeKey);
    if (this.activeIndex >= items.length) this.activeIndex = items.length - 1;
    this.spacer.style.height = `${items.length * this.rowHeight}px`;
    this.version += 1;
    this.render();
  }

  get itemCount(): number {
    return this.items.length;
  }

  get active(): T | undefined {
    return this.activeIndex >= 0 ? this.items[this.activeIndex] : undefined;
  }

  setActive(index: number, scroll = true): void {
    if (this.items.length === 0) return;
    this.activeIndex = Math.max(0, Math.min(this.items.length - 1, index));
    if (scroll) this.scrollIntoRange(this.activeIndex);
    this.version += 1;
    this.render();
  }

  /** The rendered row elements (visible ones), for tests and the bench. */
  renderedRows(): HTMLElement[] {
    return this.rows.filter((r) => !r.hidden).sort((a, b) => (this.rowIndex.get(a) ?? 0) - (this.rowIndex.get(b) ?? 0));
  }

  private get rowHeight(): number {
    return this.opts?.rowHeight ?? 22;
  }

  /**
   * A row element keeps the item it shows while that item stays in range, so scrolling re-fills
   * (and the browser re-lays out and repaints) only the rows that come into view. Any change of
   * items or of the active row bumps `version`, which re-fills every visible row once.
   */
  private render(): void {
    const opts = this.opts;
    if (!opts) return;
    const h = this.rowHeight;
    const viewport = this.clientHeight || FALLBACK_VIEWPORT;
    const first = Math.max(0, Math.floor(this.scrollTop / h) - OVERSCAN);
    const last = Math.min(this.items.length, Math.ceil((this.scrollTop + viewport) / h) + OVERSCAN);
    const keep = new Map<number, HTMLElement>();
    const free: HTMLElement[] = [];
    for (const row of this.rows) {
      const index = this.rowIndex.get(row);
      if (index !== undefined && index >= first && index < last && !keep.has(index)) keep.set(index, row);
      else free.push(row);
    }
    for (let index = first; index < last; index++) {
      let row = keep.get(index);
      if (!row) {
        row = free.pop();
        if (!row) {
          row = el('div', { className: 'vlist-row' });
          this.rows.push(row);
          this.append(row);
        }
      }
      if (this.rowIndex.get(row) === index && this.rowVersion.get(row) === this.version && !row.hidden) continue;
      this.fill(opts, row, index);
    }
    for (const row of free) {
      if (row.hidden) continue;
      row.hidden = true;
      row.removeAttribute('id');
      this.rowIndex.delete(row);
    }
    if (this.activeIndex >= first && this.activeIndex < last) this.setAttribute('aria-activedescendant', `${this.listId}-${this.activeIndex}`);
    else this.removeAttribute('aria-activedescendant');
  }

  private fill(opts: VirtualListOptions<T>, row: HTMLElement, index: number): void {
    const h = this.rowHeight;
    const item = this.items[index]!;
    row.hidden = false;
    this.rowIndex.set(row, index);
    this.rowVersion.set(row, this.version);
    // Fill first: renderRow may reset className; the list's own state goes on top.
    opts.renderRow(item, row, index);
    row.classList.add('vlist-row');
    row.id = `${this.listId}-${index}`;
    row.dataset.index = String(index);
    row.style.transform = `translateY(${index * h}px)`;
    row.style.height = `${h}px`;
    row.setAttribute('role', opts.role === 'tree' ? 'treeitem' : 'option');
    row.setAttribute('aria-selected', String(index === this.activeIndex));
    row.setAttribute('aria-posinset', String(index + 1));
    row.setAttribute('aria-setsize', String(this.items.length));
    row.classList.toggle('active', index === this.activeIndex);
    for (const [name, value] of Object.entries(opts.rowAria?.(item, index) ?? {})) {
      if (value === undefined) row.removeAttribute(name);
      else row.setAttribute(name, value);
    }
  }

  private scrollIntoRange(index: number): void {
    const h = this.rowHeight;
    const viewport = this.clientHeight || FALLBACK_VIEWPORT;
    const top = index * h;
    if (top < this.scrollTop) this.scrollTop = top;
    else if (top + h > this.scrollTop + viewport) this.scrollTop = top + h - viewport;
  }

  private onKeyDown(e: KeyboardEvent): void {
    const opts = this.opts;
    if (!opts || this.items.length === 0) return;
    const page = Math.max(1, Math.floor((this.clientHeight || FALLBACK_VIEWPORT) / this.rowHeight) - 1);
    const i = this.activeIndex;
    let next: number | undefined;
    switch (e.key) {
      case 'ArrowDown':
        next = i + 1;
        break;
      case 'ArrowUp':
        next = i - 1;
        break;
      case 'PageDown':
        next = i + page;
        break;
      case 'PageUp':
        next = i - page;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = this.items.length - 1;
        break;
      case 'Enter':
      case ' ': {
        const item = this.active;
        if (item !== undefined) opts.onActivate?.(item, i, e);
        e.preventDefault();
        return;
      }
      default: {
        const item = this.active;
        if (item !== undefined && opts.onKey?.(item, i, e)) e.preventDefault();
        return;
      }
    }
    e.preventDefault();
    this.setActive(next);
  }

  private onClick(e: MouseEvent): void {
    const row = (e.target as Element | null)?.closest<HTMLElement>('.vlist-row');
    if (!row || row.dataset.index === undefined) return;
    const index = Number(row.dataset.index);
    const item = this.items[index];
    if (item === undefined) return;
    this.setActive(index, false);
    this.opts?.onActivate?.(item, index, e);
  }
}

customElements.define('ratchet-virtual-list', VirtualList);
