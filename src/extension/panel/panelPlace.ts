/**
 * Where the panel goes when a command shows it (#29 item 1). The panel has one place: once it is
 * open it stays in its own editor group, and a file the command was started from in that very
 * group moves out of it (to the group before, or a new one after when there is none before)
 * instead of the panel opening yet another group beside itself, which shrank it over five groups
 * until it was unreadable. A new panel opens beside the active editor, or in the first group.
 *
 * Pure: columns are VS Code's ViewColumn numbers (1 is the first group; -2 is ViewColumn.Beside).
 */
export const BESIDE = -2;
export const FIRST = 1;

export type PanelPlace =
  /** No panel yet: create it in this column. */
  | { create: number }
  /** Reveal the panel where it is (undefined: VS Code did not say its column, so it stays put); first move the active editor out of its group when asked. */
  | { reveal: number | undefined; moveEditor?: 'previous' | 'next' };

/**
 * Where a file the panel opens (a candidate, its diff) goes: the first group, unless the panel is
 * there, then beside it, so the file never covers the panel.
 */
export function fileColumn(panel: number | undefined): number {
  return panel === FIRST ? BESIDE : FIRST;
}

/**
 * Where a command opens a file it made or found for the one it was started from (Configure Code
 * Search's run spec, Generate Dev Set's existing dev set): in that file's group, unless the panel
 * is in it; then where the panel's own files go, so the new tab never covers the panel.
 * undefined: the active group, as VS Code would.
 */
export function besidePanel(panel: number | undefined, from: number | undefined): number | undefined {
  return from !== undefined && from === panel ? fileColumn(panel) : from;
}

/** `panel`: the open panel's column (undefined for no panel, null when it is open in a column VS Code does not say). */
export function panelPlace(panel: number | null | undefined, editorColumn: number | undefined): PanelPlace {
  if (panel === undefined) return { create: editorColumn === undefined ? FIRST : BESIDE };
  if (panel === null || editorColumn !== panel) return { reveal: panel ?? undefined };
  return { reveal: panel, moveEditor: panel > FIRST ? 'previous' : 'next' };
}
