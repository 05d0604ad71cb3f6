/**
 * What a pending suggestion offers where it is drawn (Accept, Reject, Diff, Evidence), one fact for
 * both ends that show it: the language server puts them over each hunk as code lenses
 * (server/codeLens.ts), for any LSP editor; the VS Code extension draws them as links inside the
 * change it draws (extension/review/inlineReview.ts). Shaped as LSP commands; each end turns them
 * into its own.
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
 * Every command a suggestion offers (`suggestionCommands`): those the VS Code client lets the links
 * in its drawing run, and the server's lenses it leaves out since it draws them as links.
 */
export const SUGGESTION_COMMANDS: readonly string[] = [
  RatchetCommands.acceptSuggestion,
  RatchetCommands.rejectSuggestion,
  RatchetCommands.acceptAllSuggestions,
  RatchetCommands.rejectAllSuggestions,
  RatchetCommands.showDiff,
  RatchetCommands.showEvidence,
];

/** What a suggestion offers at one of its hunks: a command with its title (an LSP Command). */
export type WireCommand = WireLens['command'];

/** Where one hunk's commands go, and what they are. */
export interface HunkCommands {
  /** The hunk's first line (hunks.ts hunkLines), or where the suggestion edits when no line changes as a whole. */
  line: number;
  commands: WireCommand[];
}

/**
 * Accept / Reject at every hunk of each pending suggestion, so the answer is at hand wherever the
 * change is drawn. The gate measured the edit as a whole, so a hunk's Accept and Reject answer for
 * the whole suggestion, and with several hunks the titles say so ("part 2 of 3"). The first hunk
 * also carries Diff and Evidence, and Accept All / Reject All when the run waits on more than one
 * hunk in this file. Titles name no keys: each client adds its own. The language server puts these
 * over each hunk as lenses (`suggestionLenses`, for any LSP editor); the VS Code client draws them
 * as links in the change itself instead (review/inlineReview.ts).
 */
export function suggestionCommands(pending: readonly SuggestionState[]): { suggestion: SuggestionState; hunks: HunkCommands[] }[] {
  const hunksOf = new Map(pending.map((s) => [s, inlineHunks(s.baseText, s.newText)]));
  const hunksInRun = (runId: string): number => pending.filter((s) => s.runId === runId).reduce((n, s) => n + (hunksOf.get(s)?.length ?? 0), 0);
  return pending.map((s) => {
    const args: SuggestionCommandArgs = [s.uri, s.runId, s.candidateId];
    const runArgs: RunSuggestionsCommandArgs = [s.uri, s.runId];
    const hunks = hunksOf.get(s) ?? [];
    const command = (title: string, id: string, a: readonly string[]): WireCommand => ({ title, command: id, arguments: [...a] });
    // A suggestion that changes no line as a whole (line breaks only): its commands go where it edits.
    const tops = hunks.length > 0 ? hunks.map((h) => hunkLines(h).first) : [s.range.start.line];
    const perHunk = tops.map((line, i) => {
      const part = tops.length === 1 ? '' : i === 0 ? ` (${tops.length} parts)` : ` (part ${i + 1} of ${tops.length})`;
      const commands = [command(`$(check) Accept ${s.candidateId}${part}`, RatchetCommands.acceptSuggestion, args), command(`$(close) Reject${part}`, RatchetCommands.rejectSuggestion, args)];
      if (i === 0) {
        if (hunksInRun(s.runId) > 1 && pending.find((p) => p.runId === s.runId) === s) {
          commands.push(command('Accept All', RatchetCommands.acceptAllSuggestions, runArgs), command('Reject All', RatchetCommands.rejectAllSuggestions, runArgs));
        }
        commands.push(command('Diff', RatchetCommands.showDiff, args), command('Evidence', RatchetCommands.showEvidence, args));
      }
      return { line, commands };
    });
    return { suggestion: s, hunks: perHunk };
  });
}

/** The commands of `suggestionCommands` as lenses over each hunk's first line (server/codeLens.ts). */
export function suggestionLenses(pending: readonly SuggestionState[]): WireLens[] {
  return suggestionCommands(pending).flatMap(({ suggestion, hunks }) =>
    hunks.flatMap(({ line, commands }) => {
      const at = lensRange(suggestion, line);
      return commands.map((c) => ({ range: at, command: c }));
    }),
  );
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
