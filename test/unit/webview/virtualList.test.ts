// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { VirtualList } from '../../../webview/components/virtual-list';
import '../../../webview/components/virtual-list';

function list(count: number) {
  const fills: number[] = [];
  const l = document.createElement('ratchet-virtual-list') as VirtualList<number>;
  document.body.replaceChildren(l);
  l.configure({
    role: 'listbox',
    label: 'numbers',
    rowHeight: 20,
    renderRow: (item, row) => {
      fills.push(item);
      row.textContent = `item ${item}`;
    },
  });
  l.setItems(Array.from({ length: count }, (_, i) => i));
  return { l, fills };
}

const scrollTo = (l: VirtualList<number>, top: number) => {
  l.scrollTop = top;
  l.dispatchEvent(new Event('scroll'));
  return new Promise((r) => requestAnimationFrame(r));
};

describe('virtual list', () => {
  it('creates rows for the viewport only, however long the list', () => {
    const { l } = list(100_000);
    expect(l.itemCount).toBe(100_000);
    // 600 px assumed viewport / 20 px rows + 8 rows of overscan below.
    expect(l.renderedRows()).toHaveLength(38);
    expect(l.querySelector('.vlist-spacer')?.getAttribute('style')).toContain('height: 2000000px');
  });

  it('re-fills only the rows that scroll into view, keeping the others as they are', async () => {
    const { l, fills } = list(1000);
    const kept = l.renderedRows().find((r) => r.textContent === 'item 20')!;
    fills.length = 0;
    await scrollTo(l, 200); // ten rows down
    expect(kept.textContent).toBe('item 20');
    expect(l.renderedRows().includes(kept)).toBe(true);
    expect(fills).toEqual([38, 39, 40, 41, 42, 43, 44, 45, 46, 47]);
    expect(l.renderedRows()[0]?.textContent).toBe('item 2');
  });

  it('names its rows for assistive technology', () => {
    const { l } = list(3);
    const rows = l.renderedRows();
    expect(l.getAttribute('role')).toBe('listbox');
    expect(l.getAttribute('aria-label')).toBe('numbers');
    expect(rows.map((r) => [r.getAttribute('role'), r.getAttribute('aria-posinset'), r.getAttribute('aria-setsize')])).toEqual([
      ['option', '1', '3'],
      ['option', '2', '3'],
      ['option', '3', '3'],
    ]);
  });
});
