/**
 * Which accepted edit each line of the file came from, like a blame. A line belongs to an edit when
 * the edit added it (it is in the edit's after-text and not where the diff from its before-text
 * kept it) and it survived to the current text unchanged; a line edited by hand since is the
 * user's and has no provenance. Line identity comes from a line diff (the `diff` library), so lines
 * that moved because others were inserted or deleted above them keep their origin. No VS Code
 * import: unit-tested.
 */
import { diffArrays } from 'diff';
import type { ProvenanceRecord } from '../../core/journal/provenance';

export function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/**
 * For each line of `current`, the newest record (of `records`, oldest first) that added it and
 * whose line is still there; undefined for the user's own lines, untouched lines and blank lines.
 */
export function lineOrigins(records: readonly ProvenanceRecord[], current: string): (ProvenanceRecord | undefined)[] {
  const lines = splitLines(current);
  const origins: (ProvenanceRecord | undefined)[] = lines.map(() => undefined);
  // Newest first: a line a later edit rewrote is that edit's, even if an older one had added it too.
  for (const record of [...records].reverse()) {
    const after = splitLines(record.after);
    const added = addedLines(splitLines(record.before), after);
    for (const [afterLine, currentLine] of keptLines(after, lines)) {
      if (added.has(afterLine) && origins[currentLine] === undefined && lines[currentLine]!.trim() !== '') origins[currentLine] = record;
    }
  }
  return origins;
}

/** Indexes (in `after`) of the lines the edit from `before` to `after` added. */
function addedLines(before: string[], after: string[]): Set<number> {
  const added = new Set<number>();
  let i = 0;
  for (const part of diffArrays(before, after)) {
    if (part.removed) continue;
    if (part.added) for (let k = 0; k < part.count; k++) added.add(i + k);
    i += part.count;
  }
  return added;
}

/** Pairs `[line in a, line in b]` of the lines the diff from `a` to `b` keeps. */
function keptLines(a: string[], b: string[]): [number, number][] {
  const kept: [number, number][] = [];
  let i = 0;
  let j = 0;
  for (const part of diffArrays(a, b)) {
    if (part.removed) i += part.count;
    else if (part.added) j += part.count;
    else for (let k = 0; k < part.count; k++) kept.push([i++, j++]);
  }
  return kept;
}
