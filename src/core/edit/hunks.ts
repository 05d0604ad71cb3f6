/**
 * A suggestion as line hunks on the document it was computed for: which lines each hunk removes
 * and which lines it adds after which line. One fact for everyone who shows a suggestion: the
 * language server puts its Accept / Reject lenses over each hunk (for any LSP editor), the VS Code
 * client draws each hunk in place, its Accept / Reject with it, and knows when the cursor is
 * inside one. Pure; no editor types.
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
  return value.replace(/\r?\n$/, '').split(/\r?\n/);
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

/**
 * The document lines a hunk occupies on screen: its removed lines, or for a pure addition the line
 * it follows (the first line for an addition at the very top). Its lenses sit above `first`; the
 * cursor on any of these lines is "in" the hunk.
 */
export function hunkLines(h: Hunk): { first: number; last: number } {
  if (h.removed) return { first: h.removed.start, last: h.removed.end };
  const line = Math.max(h.anchorLine, 0);
  return { first: line, last: line };
}

/** The index of the hunk whose lines hold `line`, or −1. */
export function hunkAtLine(hunks: readonly Hunk[], line: number): number {
  return hunks.findIndex((h) => {
    const { first, last } = hunkLines(h);
    return line >= first && line <= last;
  });
}

/** One-line summary for a hover or a status message. */
export function hunkSummary(hunks: readonly Hunk[]): string {
  const added = hunks.reduce((n, h) => n + h.added.length, 0);
  const removed = hunks.reduce((n, h) => n + (h.removed ? h.removed.end - h.removed.start + 1 : 0), 0);
  return `+${added} −${removed} line${added + removed === 1 ? '' : 's'} in ${hunks.length} place${hunks.length === 1 ? '' : 's'}`;
}
