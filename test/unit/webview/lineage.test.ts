import { describe, expect, it } from 'vitest';
import { buildLineage, lineageRows, parentOf } from '../../../webview/model/lineage';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';
import { RUN, decided, proposed, started } from './events';

const state = () =>
  foldEvents(emptyRunState(RUN), [started(), proposed('root', undefined), proposed('a', 'root'), proposed('b', 'root'), proposed('a1', 'a'), proposed('orphan', 'never-seen'), decided('a', 'commit'), decided('b', 'reject')]);

describe('lineage tree', () => {
  it('nests children under parents in proposal order, depth first', () => {
    const s = state();
    const rows = lineageRows(s, buildLineage(s), new Set());
    expect(rows.map((r) => [r.id, r.depth, r.status, r.pos, r.siblings])).toEqual([
      ['root', 1, 'pending', 1, 2],
      ['a', 2, 'commit', 1, 2],
      ['a1', 3, 'pending', 1, 1],
      ['b', 2, 'reject', 2, 2],
      ['orphan', 1, 'pending', 2, 2],
    ]);
    expect(rows.find((r) => r.id === 'a')).toMatchObject({ incumbent: true, childCount: 1, expanded: true, label: 'a committed, incumbent, 1 children' });
    expect(rows.find((r) => r.id === 'b')?.label).toBe('b rejected (futile)');
  });

  it('hides a collapsed subtree', () => {
    const s = state();
    expect(lineageRows(s, buildLineage(s), new Set(['root'])).map((r) => r.id)).toEqual(['root', 'orphan']);
  });

  it('does not loop on a parent cycle in bad data, and handles deep chains', () => {
    const events = [started(), proposed('x', 'y'), proposed('y', 'x')];
    for (let i = 1; i < 5000; i++) events.push(proposed(`d${i}`, i === 1 ? undefined : `d${i - 1}`));
    const s = foldEvents(emptyRunState(RUN), events);
    const rows = lineageRows(s, buildLineage(s), new Set());
    expect(rows.filter((r) => r.id.startsWith('d'))).toHaveLength(4999);
    expect(rows.at(-1)?.depth).toBe(4999);
    expect(parentOf(s, 'd3')).toBe('d2');
    expect(parentOf(s, 'd1')).toBeUndefined();
  });
});
