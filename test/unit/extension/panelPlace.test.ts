// Issue #29 item 1: the panel has one place. Whatever group the command's file is in, an open panel
// stays in its own group; a file in the panel's group moves out of it rather than the panel moving beside itself.
import { describe, expect, it } from 'vitest';
import { BESIDE, FIRST, besidePanel, fileColumn, panelPlace } from '../../../src/extension/panel/panelPlace';

describe('panelPlace', () => {
  it('opens a new panel beside the file, or in the first group when no file is open', () => {
    expect(panelPlace(undefined, 1)).toEqual({ create: BESIDE });
    expect(panelPlace(undefined, undefined)).toEqual({ create: FIRST });
  });

  it('keeps an open panel in its group, whichever other group the file is in', () => {
    expect(panelPlace(2, 1)).toEqual({ reveal: 2 });
    expect(panelPlace(2, 3)).toEqual({ reveal: 2 });
    expect(panelPlace(2, undefined)).toEqual({ reveal: 2 });
    // VS Code did not say where it is: it stays where it is.
    expect(panelPlace(null, 1)).toEqual({ reveal: undefined });
  });

  it('moves a file started from the panel’s own group out of it: to the group before, or after when the panel is first', () => {
    expect(panelPlace(2, 2)).toEqual({ reveal: 2, moveEditor: 'previous' });
    expect(panelPlace(1, 1)).toEqual({ reveal: 1, moveEditor: 'next' });
  });

  it('opens the panel’s files in the first group, or beside the panel when the panel is there', () => {
    expect(fileColumn(2)).toBe(FIRST);
    expect(fileColumn(undefined)).toBe(FIRST);
    expect(fileColumn(1)).toBe(BESIDE);
  });

  it('opens a command’s file in the group it was started from, unless the panel is there: never over the panel', () => {
    expect(besidePanel(2, 1)).toBe(1);
    expect(besidePanel(undefined, 1)).toBe(1);
    expect(besidePanel(2, 2)).toBe(FIRST);
    expect(besidePanel(1, 1)).toBe(BESIDE);
    expect(besidePanel(2, undefined)).toBeUndefined();
  });
});
