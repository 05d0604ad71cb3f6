// What a user reads around a pending suggestion: the lenses over each hunk (the server's, with
// the client's keys in their tooltips), the added lines' widget body, and the keys the manifest binds.
import { describe, expect, it } from 'vitest';
import { addedLinesMarkdown, escapeHtml, linePieces } from '../../../src/extension/review/addedLines';
import { KEYBINDINGS, keyFor, keyLabel, keyTooltip } from '../../../src/extension/keyTable';
import { THEME_COLORS, cssVariable } from '../../../src/extension/themeColors';
import { RatchetCommands } from '../../../src/protocol/lsp';
import type { SuggestionState } from '../../../src/protocol/lsp';
import { suggestionLenses } from '../../../src/protocol/suggestionLenses';

function suggestion(baseText: string, newText: string, over: Partial<SuggestionState> = {}): SuggestionState {
  return {
    runId: 'r1',
    candidateId: 'c1',
    uri: 'file:///w/a.prompt.md',
    status: 'pending',
    version: 1,
    baseText,
    newText,
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    replacement: '',
    ...over,
  };
}

const rows = (s: SuggestionState[]) => suggestionLenses(s).map((l) => `${l.range.start.line}: ${l.command?.title ?? ''}`);

describe('suggestionLenses', () => {
  it('puts Accept / Reject / Diff / Evidence over a one-hunk suggestion, on the line the change starts', () => {
    expect(rows([suggestion('a\nb\n', 'a\nB\n')])).toEqual(['1: $(check) Accept c1', '1: $(close) Reject', '1: Diff', '1: Evidence']);
    const accept = suggestionLenses([suggestion('a\nb\n', 'a\nB\n')])[0]!;
    expect(accept.command).toMatchObject({ command: RatchetCommands.acceptSuggestion, arguments: ['file:///w/a.prompt.md', 'r1', 'c1'] });
  });

  it('puts Accept / Reject over every hunk, saying they answer for the whole suggestion, and Accept All / Reject All on the first', () => {
    expect(rows([suggestion('a\nb\nc\nd\n', 'A\nb\nc\nD\n')])).toEqual([
      '0: $(check) Accept c1 (2 parts)',
      '0: $(close) Reject (2 parts)',
      '0: Accept All',
      '0: Reject All',
      '0: Diff',
      '0: Evidence',
      '3: $(check) Accept c1 (part 2 of 2)',
      '3: $(close) Reject (part 2 of 2)',
    ]);
    const all = suggestionLenses([suggestion('a\nb\nc\nd\n', 'A\nb\nc\nD\n')]).find((l) => l.command?.title === 'Accept All')!;
    expect(all.command).toMatchObject({ command: RatchetCommands.acceptAllSuggestions, arguments: ['file:///w/a.prompt.md', 'r1'] });
  });

  it('puts Accept All / Reject All once per run, over the first of its suggestions in the file', () => {
    const titles = suggestionLenses([suggestion('a\nb\n', 'A\nb\n'), suggestion('a\nb\n', 'a\nB\n', { candidateId: 'c2' })]).map((l) => l.command?.title);
    expect(titles.filter((t) => t === 'Accept All')).toHaveLength(1);
    expect(titles.indexOf('Accept All')).toBeLessThan(titles.indexOf('$(check) Accept c2'));
  });
});

describe('the review keys', () => {
  it('are bound only while the cursor is on a drawn hunk, so the editor keeps these keys elsewhere', () => {
    expect(KEYBINDINGS.map((k) => [k.command, k.key, k.when])).toEqual([
      ['acceptSuggestion', 'ctrl+shift+enter', 'editorTextFocus && ratchet.cursorInPendingHunk'],
      ['rejectSuggestion', 'ctrl+shift+backspace', 'editorTextFocus && ratchet.cursorInPendingHunk'],
    ]);
  });

  it('read as VS Code shows them, on Windows/Linux and on a Mac', () => {
    expect(keyLabel(KEYBINDINGS[0]!, false)).toBe('Ctrl+Shift+Enter');
    expect(keyLabel(KEYBINDINGS[0]!, true)).toBe('⇧⌘Enter');
    expect(keyFor('rejectSuggestion', true)).toBe('⇧⌘Backspace');
  });

  it('are named in the tooltips of the lenses whose command they run, and only those; the titles stay short', () => {
    expect(keyTooltip('$(check) Accept c1', RatchetCommands.acceptSuggestion, false)).toBe('Accept c1 (Ctrl+Shift+Enter)');
    expect(keyTooltip('$(close) Reject', RatchetCommands.rejectSuggestion, false)).toBe('Reject (Ctrl+Shift+Backspace)');
    expect(keyTooltip('$(close) Reject', RatchetCommands.rejectSuggestion, true)).toBe('Reject (⇧⌘Backspace)');
    expect(keyTooltip('Diff', RatchetCommands.showDiff, false)).toBeUndefined();
  });
});

describe('addedLinesMarkdown', () => {
  const variable = cssVariable(THEME_COLORS.addedLineBackground.id);

  it('names the theme colour as the workbench exposes it', () => {
    expect(variable).toBe('--vscode-ratchet-inlineChange-addedLineBackground');
  });

  const span = (text: string) => `<span style="background-color:var(--vscode-ratchet-inlineChange-addedLineBackground);">${text}</span>`;

  it('shows every line, blank ones included, each in monospace on the added-line background, on one source line', () => {
    expect(addedLinesMarkdown(['', '  indented  twice', 'end'], variable)).toBe(`<div><code></code><br><code>${span('  ')}<wbr>${span('indented  ')}<wbr>${span('twice')}</code><br><code>${span('end')}</code></div>`);
    // One source line: a blank line of the text cannot end the HTML block and let Markdown read the rest.
    expect(addedLinesMarkdown(['a', '', '', 'b'], variable)).not.toContain('\n');
  });

  it('lets a long line wrap between its words, and a long word every 40 characters; nothing is lost', () => {
    const line = `    const sorted = values.toSorted((a, b) => a - b); // ${'x'.repeat(90)}`;
    const pieces = linePieces(line);
    expect(pieces.join('')).toBe(line);
    expect(pieces.slice(0, 3)).toEqual(['    ', 'const ', 'sorted ']);
    expect(Math.max(...pieces.map((p) => p.length))).toBe(40);
    expect(linePieces('')).toEqual([]);
    expect(linePieces('\tindented\t')).toEqual(['\t', 'indented\t']);
  });

  it('shows text from the model as text: markup in it is escaped, never rendered', () => {
    expect(escapeHtml(`<!-- edit:1 --> </pre><img src=x onerror="alert('x')"> & more`)).toBe('&lt;!-- edit:1 --&gt; &lt;/pre&gt;&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; more');
    expect(addedLinesMarkdown(['</div>**bold** <script>'], variable)).not.toMatch(/<\/div>\*\*|<script/);
  });
});
