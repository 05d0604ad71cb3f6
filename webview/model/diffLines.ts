/**
 * The parent → child diff as display lines, computed with the `diff` package; long unchanged
 * stretches fold to a marker so the edit itself stays on screen.
 */
import { diffLines } from 'diff';

export type DiffLineKind = 'add' | 'del' | 'same' | 'fold';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

export interface DiffModel {
  lines: DiffLine[];
  added: number;
  removed: number;
}

export function diffModel(parentText: string, childText: string, context = 3): DiffModel {
  const raw: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  for (const part of diffLines(parentText, childText)) {
    const kind: DiffLineKind = part.added ? 'add' : part.removed ? 'del' : 'same';
    const lines = part.value.replace(/\n$/, '').split('\n');
    if (kind === 'add') added += lines.length;
    if (kind === 'del') removed += lines.length;
    for (const text of lines) raw.push({ kind, text });
  }
  return { lines: foldUnchanged(raw, context), added, removed };
}

function foldUnchanged(lines: DiffLine[], context: number): DiffLine[] {
  const keep = lines.map((l) => l.kind !== 'same');
  lines.forEach((l, i) => {
    if (l.kind === 'same') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = true;
  });
  const out: DiffLine[] = [];
  let skipped = 0;
  lines.forEach((l, i) => {
    if (keep[i]) {
      if (skipped > 0) out.push({ kind: 'fold', text: `… ${skipped} unchanged line${skipped === 1 ? '' : 's'}` });
      skipped = 0;
      out.push(l);
    } else skipped += 1;
  });
  if (skipped > 0) out.push({ kind: 'fold', text: `… ${skipped} unchanged line${skipped === 1 ? '' : 's'}` });
  return out;
}
