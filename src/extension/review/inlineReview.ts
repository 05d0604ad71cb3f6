/**
 * Draws each file's pending suggestion as the whole change, in place: the lines it removes struck
 * through on a red background, and at each hunk a widget under its last line with the hunk's
 * Accept / Reject / Diff / Evidence links (commandLinks.ts) and every line it adds, on a green
 * background. Also serves the proposed text as a read-only `ratchet-suggestion:` document for the
 * diff editor, and closes that diff once the suggestion is answered.
 *
 * How the added lines are shown, and why this way: VS Code gives an extension no way to insert
 * lines into an editor's view without editing the document. Writing the proposal into the buffer
 * as a pending edit (Continue's way) makes the buffer hold text nobody accepted: auto-save would
 * put it on disk, the undo stack would hold the mixed text, and the language server would see the
 * user's document change and re-base or drop its own suggestion. Decorations cannot add lines:
 * `before`/`after` text is one line, clipped at the viewport's edge (and behind the minimap), and
 * CSS that makes it a block only draws it over the lines below. The one widget the stable API
 * gives that takes its own room between lines is a comment thread's: so each hunk that adds lines
 * gets a read-only thread under its last line whose body is those lines, whole and wrapped at the
 * widget's width, on the theme's added-line background (a hunk that only removes lines gets one for
 * its links). The links go with the widget the moment an answer starts, and come with it after a
 * reload, before the server is back. The document is never touched until Accept, which the server
 * writes as one versioned edit: one undo takes it back, and Reject leaves the text byte for byte.
 *
 * The Comments panel: VS Code opens it (40 % of the window) the first time a file with a comment
 * thread is shown, and again after every reload, under `comments.openView: firstFile`. A thread
 * cannot opt out, so the manifest changes that setting's default to `firstFileUnresolved` (the
 * panel opens for an unresolved thread only), and these threads have no resolution state at all:
 * a suggestion is not a discussion. Other extensions' unresolved review threads still open the
 * panel; a user's own setting of `comments.openView` still wins.
 *
 * After a window reload: the pending suggestions are kept in the workspace's state, and drawn
 * again from there at activation, links and all, before the language server is back and has heard
 * from the run daemon, which takes seconds. The server's first word on each settles it
 * (SuggestionBook.restore); an answer given before that waits for it (`confirmation`), and if the
 * server does not start they are taken away.
 */
import * as vscode from 'vscode';
import type { SuggestionState } from '../../protocol/lsp';
import { SUGGESTION_COMMANDS, suggestionCommands } from '../../protocol/suggestionLenses';
import type { HunkCommands } from '../../protocol/suggestionLenses';
import { hunkAtLine, hunkSummary, inlineHunks } from '../../core/edit/hunks';
import type { Hunk } from '../../core/edit/hunks';
import { keyFor } from '../keyTable';
import { CONTEXT_KEYS } from '../menuTable';
import { THEME_COLORS, cssVariable } from '../themeColors';
import { addedLinesMarkdown } from './addedLines';
import { commandLinksMarkdown } from './commandLinks';
import { SuggestionBook, keptSuggestions, reviewAction, suggestionKey } from './decide';
import type { DocView, ReviewAction } from './decide';
import { SUGGESTION_SCHEME, parseSuggestionPath, suggestionPath } from './target';

/** Where the pending suggestions are kept for the next session (the workspace's state). */
const KEPT = 'ratchet.pendingSuggestions';

/** What is drawn for one document, so a redraw that changes nothing keeps the widgets as they are. */
interface Drawn {
  signature: string;
  hunks: Hunk[];
  threads: vscode.CommentThread[];
}

export class InlineReview implements vscode.Disposable {
  readonly book = new SuggestionBook();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly removed: vscode.TextEditorDecorationType;
  private readonly addedAnchor: vscode.TextEditorDecorationType;
  private readonly stale: vscode.TextEditorDecorationType;
  private readonly comments: vscode.CommentController;
  private readonly drawn = new Map<string, Drawn>();
  private readonly contentChanged = new vscode.EventEmitter<vscode.Uri>();
  /** While the cursor is on a hunk: which keys answer it. */
  private readonly keysHint: vscode.StatusBarItem;
  private contextSeq = 0;
  /**
   * Suggestions the server said were answered (the book forgets them): their diff tabs are closed.
   * One the client never heard of (a tab restored before the server's list came) is left open,
   * since it may still be pending: it shows the file with a banner until the server says.
   */
  private readonly answered = new Set<string>();
  /** What was last written to the workspace's state (`changed`). */
  private lastKept: string | undefined;
  /** Answers held until the server's word on their suggestion is in (`confirmation`). */
  private confirmWaiters: (() => void)[] = [];

  constructor(private readonly kept?: vscode.Memento) {
    const mac = process.platform === 'darwin';
    this.keysHint = vscode.window.createStatusBarItem('ratchet.inlineChangeKeys', vscode.StatusBarAlignment.Left, 1000);
    this.keysHint.name = 'Ratchet suggestion keys';
    this.keysHint.text = `$(keyboard) Ratchet: Accept ${keyFor('acceptSuggestion', mac)} · Reject ${keyFor('rejectSuggestion', mac)}`;
    this.keysHint.tooltip = 'The cursor is on a change Ratchet suggests. These keys answer the whole suggestion.';
    this.removed = vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor(THEME_COLORS.removedLineBackground.id),
      textDecoration: 'line-through',
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    });
    // The line the added lines follow: marked in the overview ruler, so a long file shows where they are.
    this.addedAnchor = vscode.window.createTextEditorDecorationType({
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    });
    this.stale = vscode.window.createTextEditorDecorationType({
      after: { color: new vscode.ThemeColor('editorWarning.foreground'), margin: '0 0 0 2em', fontStyle: 'italic' },
    });
    this.comments = vscode.comments.createCommentController('ratchet.inlineChange', 'Ratchet suggestions');
    this.disposables.push(
      this.keysHint,
      this.removed,
      this.addedAnchor,
      this.stale,
      this.comments,
      this.contentChanged,
      vscode.workspace.registerTextDocumentContentProvider(SUGGESTION_SCHEME, {
        onDidChange: this.contentChanged.event,
        provideTextDocumentContent: (uri) => this.proposedText(uri),
      }),
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        editors.forEach((e) => this.draw(e));
        this.updateContextKeys();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateContextKeys()),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor === vscode.window.activeTextEditor) this.updateContextKeys();
      }),
      // Typing moves the document past the suggestion's version: stop drawing until the server re-bases it.
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.redraw(e.document.uri.toString());
      }),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri.toString())),
      // A diff of an answered suggestion reopened (Reopen Closed Editor, history) is closed again.
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        if (e.opened.length > 0) void this.closeAnsweredDiffs();
      }),
    );
  }

  /** A `ratchet/suggestionChanged` from the server. */
  update(s: SuggestionState): void {
    const settles = this.book.isUnconfirmed(s.runId, s.candidateId);
    for (const uri of this.book.update(s)) this.redraw(uri);
    if (s.status !== 'pending') this.answered.add(suggestionKey(s.runId, s.candidateId));
    this.contentChanged.fire(this.suggestionUri(s));
    if (s.status !== 'pending') void this.closeAnsweredDiffs();
    this.changed(settles);
  }

  /** The server's full list after a (re)start, a window reload included: the drawing comes back from it. */
  reset(all: readonly SuggestionState[]): void {
    const settles = this.book.hasUnconfirmed();
    for (const uri of this.book.reset(all)) this.redraw(uri);
    for (const s of all) if (s.status !== 'pending') this.answered.add(suggestionKey(s.runId, s.candidateId));
    // Restored tabs were drawn from an empty book: show them as they are now.
    for (const { uri } of this.suggestionTabs()) this.contentChanged.fire(uri);
    void this.closeAnsweredDiffs();
    this.changed(settles);
  }

  /** At activation: the suggestions the last session left pending, drawn until the server says how they stand. */
  restore(): void {
    const uris = this.book.restore(keptSuggestions(this.kept?.get(KEPT)));
    uris.forEach((uri) => this.redraw(uri));
  }

  /** The server did not start: what it never confirmed is not drawn any more (its next start's list brings back what waits). */
  dropUnconfirmed(): void {
    const uris = this.book.dropUnconfirmed();
    uris.forEach((uri) => this.redraw(uri));
    if (uris.length > 0) this.changed(true);
  }

  /**
   * Waits until the server has said whether the suggestion still waits, for an answer given while
   * it was drawn from the last session's record: true when it is pending now.
   */
  async confirmation(runId: string, candidateId: string): Promise<boolean> {
    while (this.book.isUnconfirmed(runId, candidateId)) await new Promise<void>((wake) => this.confirmWaiters.push(wake));
    return this.book.get(runId, candidateId)?.status === 'pending';
  }

  /** After the book changed: kept for the next session; held answers hear of it when something was settled. */
  private changed(settled: boolean): void {
    const pending = this.book.all().flatMap(({ seq: _seq, ...s }: SuggestionState & { seq?: number }) => (s.status === 'pending' ? [s] : []));
    // Each write goes to the window's storage; most changes (a run's progress, a re-ask after a reload) leave the list as it was.
    const kept = JSON.stringify(pending);
    if (kept !== this.lastKept) {
      this.lastKept = kept;
      void this.kept?.update(KEPT, pending);
    }
    if (!settled) return;
    for (const wake of this.confirmWaiters.splice(0)) wake();
  }

  suggestionUri(s: Pick<SuggestionState, 'runId' | 'candidateId' | 'uri'>): vscode.Uri {
    const fileName = vscode.Uri.parse(s.uri).path.split('/').at(-1) ?? 'suggestion';
    // The query names the file, so a tab outliving its suggestion can still show that file.
    return vscode.Uri.from({ scheme: SUGGESTION_SCHEME, path: suggestionPath(s.runId, s.candidateId, fileName), query: s.uri });
  }

  /** The open document's version and text, or undefined when the file is not open. */
  docView(uri: string): DocView | undefined {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
    return doc ? { version: doc.version, text: doc.getText() } : undefined;
  }

  action(uri: string): { suggestion: SuggestionState; action: ReviewAction } | undefined {
    const suggestion = this.book.current(uri);
    if (suggestion === undefined) return undefined;
    if (this.book.isAnswering(suggestion.runId, suggestion.candidateId)) return { suggestion, action: { kind: 'hide' } };
    return { suggestion, action: reviewAction(suggestion, this.docView(uri)) };
  }

  /**
   * Runs the user's answer to a suggestion with its drawing, links and all, taken away at once; if
   * the answer fails, the change comes back.
   */
  async answering<T>(runId: string, candidateId: string, answer: () => Promise<T>): Promise<T> {
    this.setAnswering(runId, candidateId, true);
    try {
      const answered = await answer();
      if (answered === undefined) {
        // Nothing was sent (a held answer the user cancelled, or one for a suggestion that no longer
        // waits): what still waits is drawn again.
        this.setAnswering(runId, candidateId, false);
        return answered;
      }
      // The server has the answer now and lists the suggestion no more.
      this.book.setAnswering(runId, candidateId, false).forEach((uri) => this.redraw(uri));
      return answered;
    } catch (err) {
      this.setAnswering(runId, candidateId, false);
      throw err;
    }
  }

  private setAnswering(runId: string, candidateId: string, answering: boolean): void {
    this.book.setAnswering(runId, candidateId, answering).forEach((uri) => this.redraw(uri));
  }

  dispose(): void {
    for (const uri of [...this.drawn.keys()]) this.forget(uri);
    while (this.disposables.length > 0) this.disposables.pop()?.dispose();
  }

  /**
   * The proposed text while the suggestion is pending. Otherwise (answered, stale, or not known
   * yet after a reload) the file as it is under a banner line, so a diff against the file shows
   * only the banner — never the whole prompt deleted. The document is read-only either way.
   */
  private async proposedText(uri: vscode.Uri): Promise<string> {
    const ref = parseSuggestionPath(uri.path);
    const s = ref && this.book.get(ref.runId, ref.candidateId);
    if (s?.status === 'pending') return s.newText;
    const known = ref !== undefined && this.answered.has(suggestionKey(ref.runId, ref.candidateId));
    const banner = `[Ratchet: ${known || s ? 'this suggestion is no longer pending (accepted, rejected, stale, or its run ended)' : 'this suggestion is not known (yet) to Ratchet'} — read-only; nothing here to review]\n`;
    return banner + (await this.fileText(uri.query));
  }

  private async fileText(uri: string): Promise<string> {
    if (uri === '') return '';
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
    if (open) return open.getText();
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(uri)));
    } catch {
      return '';
    }
  }

  /** Open tabs showing a `ratchet-suggestion:` document, alone or as a diff's right side. */
  private suggestionTabs(): { tab: vscode.Tab; uri: vscode.Uri }[] {
    return vscode.window.tabGroups.all.flatMap((g) =>
      g.tabs.flatMap((tab) => {
        const uri = tab.input instanceof vscode.TabInputTextDiff ? tab.input.modified : tab.input instanceof vscode.TabInputText ? tab.input.uri : undefined;
        return uri?.scheme === SUGGESTION_SCHEME ? [{ tab, uri }] : [];
      }),
    );
  }

  /** Diff (or proposed-text) tabs of suggestions that were answered or went stale: there is nothing left in them to review. */
  private async closeAnsweredDiffs(): Promise<void> {
    const done = (uri: vscode.Uri): boolean => {
      const ref = parseSuggestionPath(uri.path);
      if (ref === undefined) return false;
      return this.answered.has(suggestionKey(ref.runId, ref.candidateId)) || this.book.get(ref.runId, ref.candidateId)?.status === 'stale';
    };
    const tabs = this.suggestionTabs()
      .filter((t) => done(t.uri))
      .map((t) => t.tab);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
  }

  private redraw(uri: string): void {
    const editors = vscode.window.visibleTextEditors.filter((e) => e.document.uri.toString() === uri);
    for (const editor of editors) this.draw(editor);
    if (editors.length === 0 && this.book.current(uri) === undefined) this.forget(uri);
    this.updateContextKeys();
  }

  private draw(editor: vscode.TextEditor): void {
    const uri = editor.document.uri.toString();
    const state = this.action(uri);
    const clear = (): void => {
      for (const t of [this.removed, this.addedAnchor, this.stale]) editor.setDecorations(t, []);
      this.forget(uri);
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
        editor.setDecorations(this.stale, [{ range: new vscode.Range(0, 0, 0, 0), renderOptions: { after: { contentText: `Ratchet: suggestion is stale — ${action.reason}` } } }]);
        return;
      case 'show':
        this.drawChange(editor, suggestion);
        return;
    }
  }

  private drawChange(editor: vscode.TextEditor, s: SuggestionState): void {
    const hunks = this.showHunks(editor.document, s);
    const summary = hunkSummary(hunks);
    const lastLine = Math.max(0, editor.document.lineCount - 1);
    const removed: vscode.DecorationOptions[] = [];
    const anchors: vscode.DecorationOptions[] = [];
    for (const h of hunks) {
      if (h.removed) removed.push({ range: new vscode.Range(h.removed.start, 0, Math.min(h.removed.end, lastLine), 0), hoverMessage: `Ratchet suggestion ${s.candidateId} (${summary}) removes these lines.` });
      if (h.added.length > 0) anchors.push({ range: new vscode.Range(Math.min(Math.max(h.anchorLine, 0), lastLine), 0, Math.min(Math.max(h.anchorLine, 0), lastLine), 0) });
    }
    editor.setDecorations(this.stale, []);
    editor.setDecorations(this.removed, removed);
    editor.setDecorations(this.addedAnchor, anchors);
  }

  /**
   * The hunks' widgets for the document (once per document, however many editors show it): each
   * hunk's Accept / Reject / Diff / Evidence links (commandLinks.ts) over the lines it adds; its hunks.
   */
  private showHunks(doc: vscode.TextDocument, s: SuggestionState): Hunk[] {
    const uri = doc.uri.toString();
    // The links' Accept All / Reject All depend on what else the run waits on in this file.
    const others = this.book.all().filter((o) => o.uri === uri && o.status === 'pending' && suggestionKey(o.runId, o.candidateId) !== suggestionKey(s.runId, s.candidateId));
    const offers = suggestionCommands([s, ...others])[0]?.hunks ?? [];
    // What is drawn depends on the texts alone, not on the document version the server last saw:
    // a suggestion restored after a reload comes first with no version (the server heard of it
    // before the editor reopened the file), then the same one at the reopened file's version.
    // Redrawing then replaced the widgets while VS Code was still restoring the editor, and in one
    // e2e run the old widget stayed on screen beside the new one: the added lines drawn twice.
    const signature = `${suggestionKey(s.runId, s.candidateId)}\n${s.baseText}\u0000${s.newText}\u0000${JSON.stringify(offers)}`;
    const existing = this.drawn.get(uri);
    if (existing?.signature === signature) return existing.hunks;
    this.forget(uri);
    const hunks = inlineHunks(s.baseText, s.newText);
    const lastLine = Math.max(0, doc.lineCount - 1);
    const mac = process.platform === 'darwin';
    const thread = (line: number, label: string, added: readonly string[], offer: HunkCommands | undefined): vscode.CommentThread => {
      const links = commandLinksMarkdown(offer?.commands ?? [], mac);
      const lines = added.length > 0 ? addedLinesMarkdown(added, cssVariable(THEME_COLORS.addedLineBackground.id)) : '';
      const body = new vscode.MarkdownString([links, lines].filter((part) => part !== '').join('\n\n'));
      body.supportHtml = true;
      body.supportThemeIcons = true;
      // The links run Ratchet's review commands and nothing else; the added lines are escaped text (addedLines.ts).
      body.isTrusted = { enabledCommands: [...SUGGESTION_COMMANDS] };
      const comment: vscode.Comment = { body, mode: vscode.CommentMode.Preview, author: { name: `Ratchet suggestion ${s.candidateId}` } };
      const t = this.comments.createCommentThread(doc.uri, new vscode.Range(line, 0, line, 0), [comment]);
      // Short: the widget is as wide as the editor beside the panel. The keys are in the links' tooltips and in the status bar.
      t.label = label;
      t.canReply = false;
      t.contextValue = 'ratchet.pendingHunk';
      t.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
      // No `thread.state`: an unresolved one would summon the Comments panel (see the top of this file).
      return t;
    };
    const plural = (n: number): string => `${n} line${n === 1 ? '' : 's'}`;
    const threads =
      hunks.length === 0
        ? // Nothing changes a line as a whole (line breaks only): the links alone, where it edits.
          [thread(Math.min(s.range.start.line, lastLine), 'Changes line breaks only', [], offers[0])]
        : hunks.map((h, i) => {
            const line = Math.min(Math.max(h.anchorLine, 0), lastLine);
            const removed = h.removed ? h.removed.end - h.removed.start + 1 : 0;
            const where = h.anchorLine < 0 ? ' before line 1' : '';
            const label = removed > 0 && h.added.length > 0 ? `Replaces ${plural(removed)} with ${plural(h.added.length)}` : removed > 0 ? `Removes ${plural(removed)}` : `Adds ${plural(h.added.length)}${where}`;
            return thread(line, label, h.added, offers[i]);
          });
    this.drawn.set(uri, { signature, hunks, threads });
    return hunks;
  }

  private forget(uri: string): void {
    const drawn = this.drawn.get(uri);
    if (!drawn) return;
    this.drawn.delete(uri);
    for (const t of drawn.threads) t.dispose();
  }

  private updateContextKeys(): void {
    void this.setContextKeys();
  }

  /** The hint shows only once the keys' `when` holds, so what the status bar says is what the keys do. */
  private async setContextKeys(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    let shown = false;
    let inHunk = false;
    if (editor) {
      const uri = editor.document.uri;
      if (uri.scheme === SUGGESTION_SCHEME) {
        const ref = parseSuggestionPath(uri.path);
        shown = ref !== undefined && this.book.get(ref.runId, ref.candidateId)?.status === 'pending';
      } else {
        shown = this.action(uri.toString())?.action.kind === 'show';
        const hunks = shown ? (this.drawn.get(uri.toString())?.hunks ?? []) : [];
        inHunk = hunkAtLine(hunks, editor.selection.active.line) >= 0;
      }
    }
    // Both sent at once, in call order, so a later call's values always land last.
    const seq = ++this.contextSeq;
    await Promise.all([vscode.commands.executeCommand('setContext', CONTEXT_KEYS.suggestionShown, shown), vscode.commands.executeCommand('setContext', CONTEXT_KEYS.cursorInPendingHunk, inHunk)]);
    if (seq !== this.contextSeq) return;
    if (inHunk) this.keysHint.show();
    else this.keysHint.hide();
  }
}
