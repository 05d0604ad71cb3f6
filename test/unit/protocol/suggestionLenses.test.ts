import { describe, expect, it } from 'vitest';
import type { SuggestionState, WirePosition, WireRange } from '../../../src/protocol/lsp';
import { RatchetCommands } from '../../../src/protocol/lsp';
import { SUGGESTION_COMMANDS, suggestionCommands, suggestionLenses } from '../../../src/protocol/suggestionLenses';
import { changedSpan } from '../../../src/server/textChange';

const suggestion = (baseText: string, newText: string): SuggestionState => ({ runId: 'r1', candidateId: 'c1', uri: 'file:///w/a.prompt.md', status: 'pending', version: 1, baseText, newText, ...changedSpan(baseText, newText) });

const acceptRanges = (s: SuggestionState): WireRange[] => suggestionLenses([s]).flatMap((l) => (l.command.command === RatchetCommands.acceptSuggestion ? [l.range] : []));
const notAfter = (a: WirePosition, b: WirePosition) => a.line < b.line || (a.line === b.line && a.character <= b.character);
const isEmpty = (r: WireRange) => r.start.line === r.end.line && r.start.character === r.end.character;

// VS Code drops a lens at once when an edit replaces its whole (non-empty) range; otherwise the
// lens stays drawn until VS Code asks for lenses again, at least 250 ms later.
const goesWithTheEdit = (lens: WireRange, s: SuggestionState) => !isEmpty(lens) && notAfter(s.range.start, lens.start) && notAfter(lens.end, s.range.end);

describe('where the lenses over a suggestion sit', () => {
  it('over a line the suggestion extends, inside the span the Accept edit replaces: the lenses go with the edit', () => {
    const s = suggestion('# Task\nSolve it.\nAnswer with a number.\n', '# Task\nSolve it step by step.\nCheck the arithmetic.\nAnswer with a number.\n');
    const [range] = acceptRanges(s);
    expect(range?.start.line).toBe(1);
    expect(goesWithTheEdit(range!, s)).toBe(true);
  });

  it('for every hunk that removes lines, each on its own first line', () => {
    const s = suggestion('a\nb\nc\nd\ne\nf\n', 'a\nB\nc\nd\nE\nf\n');
    const ranges = acceptRanges(s);
    expect(ranges.map((r) => r.start.line)).toEqual([1, 4]);
    for (const r of ranges) expect(goesWithTheEdit(r, s)).toBe(true);
    // The first hunk's lens lies on its own line only, not over the unchanged lines after it.
    expect(ranges[0]!.end).toEqual({ line: 2, character: 0 });
  });

  it('over a deleted last line with no line break after it', () => {
    const s = suggestion('keep\ndrop this', 'keep\n');
    const [range] = acceptRanges(s);
    expect(range?.start.line).toBe(1);
    expect(goesWithTheEdit(range!, s)).toBe(true);
  });

  it('over a CRLF file', () => {
    const s = suggestion('one\r\ntwo\r\nthree\r\n', 'one\r\nTWO\r\nthree\r\n');
    const [range] = acceptRanges(s);
    expect(range?.start.line).toBe(1);
    expect(goesWithTheEdit(range!, s)).toBe(true);
  });

  it('a hunk that only adds lines keeps its lenses at its line start (they go when VS Code asks again)', () => {
    const s = suggestion('a\nb\n', 'a\nnew\nb\n');
    const [range] = acceptRanges(s);
    expect(range).toEqual({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  });

  it('all lenses of a hunk share one range, so VS Code draws them on one line and drops them together', () => {
    const s = suggestion('x\ny\n', 'x\nz\n');
    const ranges = suggestionLenses([s]).map((l) => JSON.stringify(l.range));
    expect(new Set(ranges).size).toBe(1);
  });
});

describe('what a pending suggestion offers at its hunks', () => {
  it('Accept and Reject at every hunk, naming the part; Diff and Evidence at the first; nothing outside SUGGESTION_COMMANDS', () => {
    const s = suggestion('a\nb\nc\nd\ne\nf\n', 'a\nB\nc\nd\nE\nf\n');
    const [offer] = suggestionCommands([s]);
    expect(offer?.hunks.map((h) => ({ line: h.line, titles: h.commands.map((c) => c.title) }))).toEqual([
      { line: 1, titles: ['$(check) Accept c1 (2 parts)', '$(close) Reject (2 parts)', 'Accept All', 'Reject All', 'Diff', 'Evidence'] },
      { line: 4, titles: ['$(check) Accept c1 (part 2 of 2)', '$(close) Reject (part 2 of 2)'] },
    ]);
    for (const h of offer!.hunks) for (const c of h.commands) expect(SUGGESTION_COMMANDS).toContain(c.command);
    expect(offer!.hunks[0]!.commands[0]!.arguments).toEqual([s.uri, 'r1', 'c1']);
    expect(offer!.hunks[0]!.commands[2]!.arguments).toEqual([s.uri, 'r1']);
  });

  it('one hunk alone: no parts, and no Accept All while the run waits on nothing else in the file', () => {
    const [offer] = suggestionCommands([suggestion('x\ny\n', 'x\nz\n')]);
    expect(offer?.hunks.map((h) => h.commands.map((c) => c.title))).toEqual([['$(check) Accept c1', '$(close) Reject', 'Diff', 'Evidence']]);
  });

  it('the lenses are the same commands, over each hunk', () => {
    const s = suggestion('a\nb\nc\nd\ne\nf\n', 'a\nB\nc\nd\nE\nf\n');
    const fromCommands = suggestionCommands([s]).flatMap((o) => o.hunks.flatMap((h) => h.commands));
    expect(suggestionLenses([s]).map((l) => l.command)).toEqual(fromCommands);
  });
});
