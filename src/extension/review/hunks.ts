/**
 * A suggestion as inline-diff hunks on the current document: which lines it removes (drawn red,
 * struck through) and which lines it adds after which line (drawn as green ghost text, since
 * decorations cannot insert real lines). The full picture is one click away in the diff editor.
 */
import { diffLines } from 'diff';

export interface Hunk {
  /** 0-based lines of the document the suggestion removes (consecutive, possibly none). */
  removed: { start: number; end: number } | undefined;
  /** Lines the suggestion adds, shown after `anchorLine` (−1: before the first line). */
  added: string[];
  anchorLine: number;
}

function splitLines(value: string): string[] {
  return value.replace(/\n$/, '').split('\n');
}

export function inlineHunks(baseText: string, newText: string): Hunk[] {
  const hunks: Hunk[] = [];
  let line = 0;
  let open: Hunk | undefined;
  const close = () => {
    if (open && (open.removed || open.added.length > 0)) hunks.push(open);
    open = undefined;
  };
  for (const part of diffLines(baseText, newText)) {
    const lines = splitLines(part.value);
    if (!part.added && !part.removed) {
      close();
      line += lines.length;
      continue;
    }
    open ??= { removed: undefined, added: [], anchorLine: line - 1 };
    if (part.removed) {
      open.removed = { start: line, end: line + lines.length - 1 };
      line += lines.length;
      // Added text replacing removed lines reads best right under them.
      open.anchorLine = line - 1;
    } else {
      for (const x of lines) open.added.push(x);
    }
  }
  close();
  return hunks;
}

/** One-line summary for a hover or a status message. */
export function hunkSummary(hunks: readonly Hunk[]): string {
  const added = hunks.reduce((n, h) => n + h.added.length, 0);
  const removed = hunks.reduce((n, h) => n + (h.removed ? h.removed.end - h.removed.start + 1 : 0), 0);
  return `+${added} −${removed} line${added + removed === 1 ? '' : 's'} in ${hunks.length} place${hunks.length === 1 ? '' : 's'}`;
}
