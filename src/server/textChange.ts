/**
 * Edit arithmetic for suggestions: the smallest span an edit changes (so the editor's undo, cursor
 * and inline diff touch only that), and re-basing an edit onto text the user changed since.
 *
 * Re-basing applies the edit's unified diff with no fuzz: every context line must still be there,
 * so an edit lands on the user's text only where the user did not touch it; anything else is a
 * conflict and the suggestion goes stale rather than guessing.
 */
import { applyPatch, structuredPatch } from 'diff';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { WireRange } from '../protocol/lsp';

export interface Span {
  range: WireRange;
  replacement: string;
}

/**
 * The range of `base` that differs from `next` (common prefix and suffix cut), and its new text.
 * Never an empty range where `base` has text: an edit that only inserts takes the character after
 * it along (the one before it at the end), replaced by itself. VS Code drops a suggestion's lenses
 * the moment an edit replaces their range whole (suggestionLenses.ts puts them inside this one),
 * and an empty range leaves them nothing to replace: they would wait for VS Code's next lens
 * request, 250 ms or more after the Accept.
 */
export function changedSpan(base: string, next: string): Span {
  let start = 0;
  const max = Math.min(base.length, next.length);
  while (start < max && base.charCodeAt(start) === next.charCodeAt(start)) start++;
  let endBase = base.length;
  let endNext = next.length;
  while (endBase > start && endNext > start && base.charCodeAt(endBase - 1) === next.charCodeAt(endNext - 1)) {
    endBase--;
    endNext--;
  }
  // Never split a surrogate pair or a CRLF: widen to whole characters.
  if (start > 0 && isLowSurrogateOrLf(base, start)) start--;
  if (endBase < base.length && isLowSurrogateOrLf(base, endBase)) {
    endBase++;
    endNext++;
  }
  if (endBase === start && base !== next) {
    if (start < base.length) {
      const width = start + 1 < base.length && isLowSurrogateOrLf(base, start + 1) ? 2 : 1;
      endBase += width;
      endNext += width;
    } else if (start > 0) {
      start -= start > 1 && isLowSurrogateOrLf(base, start - 1) ? 2 : 1;
    }
  }
  const doc = TextDocument.create('untitled:base', 'plaintext', 0, base);
  return { range: { start: doc.positionAt(start), end: doc.positionAt(endBase) }, replacement: next.slice(start, endNext) };
}

function isLowSurrogateOrLf(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  const prev = text.charCodeAt(i - 1);
  return (c >= 0xdc00 && c <= 0xdfff && prev >= 0xd800 && prev <= 0xdbff) || (c === 10 && prev === 13);
}

/** `current` with the change base → next applied, or undefined when it does not apply cleanly. */
export function rebase(base: string, next: string, current: string): string | undefined {
  if (current === base) return next;
  const patch = structuredPatch('base', 'next', base, next, undefined, undefined, { context: 3 });
  const out = applyPatch(current, patch, { fuzzFactor: 0 });
  return out === false ? undefined : out;
}
