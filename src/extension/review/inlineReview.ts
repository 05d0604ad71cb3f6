/**
 * Draws each file's pending suggestion as an inline diff: removed lines struck through on a red
 * background, added lines as green ghost text after the line they follow (decorations cannot insert
 * real lines; the hover shows them whole, and Show Diff opens the diff editor). The server draws the
 * Accept / Reject / Evidence lenses above. Also serves the proposed text as a read-only
 * `ratchet-suggestion:` document for the diff editor.
 */
import * as vscode from 'vscode';
import type { SuggestionState } from '../../protocol/lsp';
import { SuggestionBook, reviewAction } from './decide';
import type { DocView, ReviewAction } from './decide';
import { hunkSummary, inlineHunks } from './hunks';
import { CONTEXT_KEYS } from '../menuTable';
import { SUGGESTION_SCHEME, parseSuggestionPath, suggestionPath } from './target';

const GHOST_MAX = 80;

export class InlineReview implements vscode.Disposable {
  readonly book = new SuggestionBook();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly removed: vscode.TextEditorDecorationType;
  private readonly added: vscode.TextEditorDecorationType;
  private readonly stale: vscode.TextEditorDecorationType;
  private readonly contentChanged = new vscode.EventEmitter<vscode.Uri>();

  constructor() {
    this.removed = vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor('diffEditor.removedLineBackground'),
      textDecoration: 'line-through',
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    });
    this.added = vscode.window.createTextEditorDecorationType({
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    });
    this.stale = vscode.window.createTextEditorDecorationType({
      after: { color: new vscode.ThemeColor('editorWarning.foreground'), margin: '0 0 0 2em', fontStyle: 'italic' },
    });
    this.disposables.push(
      this.removed,
      this.added,
      this.stale,
      this.contentChanged,
      vscode.workspace.registerTextDocumentContentProvider(SUGGESTION_SCHEME, {
        onDidChange: this.contentChanged.event,
        provideTextDocumentContent: (uri) => this.proposedText(uri),
      }),
      vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.draw(e))),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateContextKey()),
      // Typing moves the document past the suggestion's version: stop drawing until the server re-bases it.
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.redraw(e.document.uri.toString());
      }),
    );
  }

  /** A `ratchet/suggestionChanged` from the server. */
  update(s: SuggestionState): void {
    for (const uri of this.book.update(s)) this.redraw(uri);
    this.contentChanged.fire(this.suggestionUri(s));
  }

  /** The server's full list after a (re)start. */
  reset(all: readonly SuggestionState[]): void {
    for (const uri of this.book.reset(all)) this.redraw(uri);
  }

  suggestionUri(s: Pick<SuggestionState, 'runId' | 'candidateId' | 'uri'>): vscode.Uri {
    const fileName = vscode.Uri.parse(s.uri).path.split('/').at(-1) ?? 'suggestion';
    return vscode.Uri.from({ scheme: SUGGESTION_SCHEME, path: suggestionPath(s.runId, s.candidateId, fileName) });
  }

  /** The open document's version and text, or undefined when the file is not open. */
  docView(uri: string): DocView | undefined {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
    return doc ? { version: doc.version, text: doc.getText() } : undefined;
  }

  action(uri: string): { suggestion: SuggestionState; action: ReviewAction } | undefined {
    const suggestion = this.book.current(uri);
    return suggestion ? { suggestion, action: reviewAction(suggestion, this.docView(uri)) } : undefined;
  }

  dispose(): void {
    while (this.disposables.length > 0) this.disposables.pop()?.dispose();
  }

  private proposedText(uri: vscode.Uri): string {
    const ref = parseSuggestionPath(uri.path);
    const s = ref && this.book.get(ref.runId, ref.candidateId);
    return s ? s.newText : 'This suggestion is no longer pending: it was accepted, rejected, or its run ended.';
  }

  private redraw(uri: string): void {
    for (const editor of vscode.window.visibleTextEditors) if (editor.document.uri.toString() === uri) this.draw(editor);
    this.updateContextKey();
  }

  private draw(editor: vscode.TextEditor): void {
    const state = this.action(editor.document.uri.toString());
    const clear = (): void => {
      for (const t of [this.removed, this.added, this.stale]) editor.setDecorations(t, []);
    };
    if (!state) {
      clear();
      return;
    }
    const { suggestion, action } = state;
    switch (action.kind) {
      case 'hide':
      case 'defer':
      case 'outdated':
        clear();
        return;
      case 'stale':
        clear();
        editor.setDecorations(this.stale, [
          { range: new vscode.Range(0, 0, 0, 0), renderOptions: { after: { contentText: `Ratchet: suggestion is stale — ${action.reason}` } } },
        ]);
        return;
      case 'show':
        this.drawDiff(editor, suggestion);
        return;
    }
  }

  private drawDiff(editor: vscode.TextEditor, s: SuggestionState): void {
    const hunks = inlineHunks(s.baseText, s.newText);
    const lastLine = Math.max(0, editor.document.lineCount - 1);
    const removed: vscode.DecorationOptions[] = [];
    const added: vscode.DecorationOptions[] = [];
    const summary = hunkSummary(hunks);
    for (const h of hunks) {
      if (h.removed) removed.push({ range: new vscode.Range(h.removed.start, 0, Math.min(h.removed.end, lastLine), 0), hoverMessage: `Ratchet suggestion (${summary}): removes these lines.` });
      if (h.added.length === 0) continue;
      const line = Math.min(Math.max(h.anchorLine, 0), lastLine);
      const end = editor.document.lineAt(line).range.end;
      const first = h.added.find((l) => l.trim() !== '') ?? '';
      const ghost = first.length > GHOST_MAX ? `${first.slice(0, GHOST_MAX)}…` : first;
      const more = h.added.length > 1 ? `  (+${h.added.length - 1} more line${h.added.length === 2 ? '' : 's'})` : '';
      // The proposed text comes from an LLM: shown only as a code block (never rendered as markdown).
      const hover = new vscode.MarkdownString(`Ratchet suggestion (${summary}) adds${h.anchorLine < 0 ? ' at the top' : ''}:`);
      hover.appendCodeblock(h.added.join('\n'), editor.document.languageId);
      added.push({
        range: new vscode.Range(end, end),
        hoverMessage: hover,
        renderOptions: {
          after: {
            contentText: `  + ${ghost}${more}`,
            backgroundColor: new vscode.ThemeColor('diffEditor.insertedTextBackground'),
            color: new vscode.ThemeColor('editorGhostText.foreground'),
            margin: '0 0 0 1em',
          },
        },
      });
    }
    editor.setDecorations(this.stale, []);
    editor.setDecorations(this.removed, removed);
    editor.setDecorations(this.added, added);
  }

  private updateContextKey(): void {
    const editor = vscode.window.activeTextEditor;
    let shown = false;
    if (editor) {
      const uri = editor.document.uri;
      if (uri.scheme === SUGGESTION_SCHEME) {
        const ref = parseSuggestionPath(uri.path);
        shown = ref !== undefined && this.book.get(ref.runId, ref.candidateId)?.status === 'pending';
      } else {
        shown = this.action(uri.toString())?.action.kind === 'show';
      }
    }
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.suggestionShown, shown);
  }
}
