/**
 * The lenses over a pending suggestion, one fact for both ends that draw them: the language server
 * (server/codeLens.ts, over what it knows now) and the extension, which draws a suggestion it kept
 * from the last session before the server is back (extension/review/lenses.ts). Shaped as
 * an LSP CodeLens; each end turns them into its own.
 */
import { hunkLines, inlineHunks } from '../core/edit/hunks';
import { RatchetCommands } from './lsp';
import type { RunSuggestionsCommandArgs, SuggestionCommandArgs, SuggestionState, WirePosition, WireRange } from './lsp';

export interface WireLens {
  range: WireRange;
  command: { title: string; command: string; arguments: string[]; tooltip?: string };
}

export function wireLens(range: WireRange, title: string, command: string, args: readonly string[], tooltip?: string): WireLens {
  return { range, command: { title, command, arguments: [...args], ...(tooltip === undefined ? {} : { tooltip }) } };
}

/**
 * Accept / Reject over every hunk of each pending suggestion, so the answer is at hand wherever the
 * change is drawn. The gate measured the edit as a whole, so a hunk's Accept and Reject answer for
 * the whole suggestion, and with several hunks the titles say so ("part 2 of 3"). The first hunk
 * also carries Diff and Evidence, and Accept All / Reject All when the run waits on more than one
 * hunk in this file. Titles name no keys: each client adds its own (the VS Code client does).
 */
export function suggestionLenses(pending: readonly SuggestionState[]): WireLens[] {
  const hunksOf = new Map(pending.map((s) => [s, inlineHunks(s.baseText, s.newText)]));
  const hunksInRun = (runId: string): number => pending.filter((s) => s.runId === runId).reduce((n, s) => n + (hunksOf.get(s)?.length ?? 0), 0);
  const lenses: WireLens[] = [];
  for (const s of pending) {
    const args: SuggestionCommandArgs = [s.uri, s.runId, s.candidateId];
    const runArgs: RunSuggestionsCommandArgs = [s.uri, s.runId];
    const hunks = hunksOf.get(s) ?? [];
    // A suggestion with no line change left (whitespace inside a line): its lenses go where it edits.
    const tops = hunks.length > 0 ? hunks.map((h) => hunkLines(h).first) : [s.range.start.line];
    tops.forEach((line, i) => {
      const at = lensRange(s, line);
      const part = tops.length === 1 ? '' : i === 0 ? ` (${tops.length} parts)` : ` (part ${i + 1} of ${tops.length})`;
      lenses.push(wireLens(at, `$(check) Accept ${s.candidateId}${part}`, RatchetCommands.acceptSuggestion, args), wireLens(at, `$(close) Reject${part}`, RatchetCommands.rejectSuggestion, args));
      if (i > 0) return;
      if (hunksInRun(s.runId) > 1 && pending.find((p) => p.runId === s.runId) === s) {
        lenses.push(wireLens(at, 'Accept All', RatchetCommands.acceptAllSuggestions, runArgs), wireLens(at, 'Reject All', RatchetCommands.rejectAllSuggestions, runArgs));
      }
      lenses.push(wireLens(at, 'Diff', RatchetCommands.showDiff, args), wireLens(at, 'Evidence', RatchetCommands.showEvidence, args));
    });
  }
  return lenses;
}

const before = (a: WirePosition, b: WirePosition): boolean => a.line < b.line || (a.line === b.line && a.character < b.character);

/**
 * Where the lenses over a hunk whose first line is `line` sit: drawn above that line, over the part
 * of it that the Accept edit (the suggestion's `range`) replaces, when there is one. VS Code drops a
 * lens the moment an edit replaces its whole range (the range collapses, and the editor takes a
 * collapsed lens for one whose text is gone), so an Accept's lenses go with the edit itself instead
 * of after VS Code asks for lenses again (250 ms at the least). A hunk that only adds lines replaces
 * nothing of its line: its lenses sit at the line's start and go when VS Code asks again.
 */
function lensRange(s: SuggestionState, line: number): WireRange {
  const lineStart = { line, character: 0 };
  const lineCount = s.baseText.split('\n').length;
  // The line with its line break, or to the end of the text for the last line.
  const lineEnd = line + 1 < lineCount ? { line: line + 1, character: 0 } : { line, character: s.baseText.length - s.baseText.lastIndexOf('\n') - 1 };
  const start = before(lineStart, s.range.start) ? s.range.start : lineStart;
  const end = before(s.range.end, lineEnd) ? s.range.end : lineEnd;
  return before(start, end) ? { start, end } : { start: lineStart, end: lineStart };
}
