/**
 * Ratchet's one code lens provider, registered at activation and never replaced. VS Code draws a
 * file's lenses once every provider has answered, and whenever a provider registers it redraws them
 * from a copy without links (a click does nothing) until its next request: when the language
 * client registered its own provider as the server started, a reloaded window's lenses were inert
 * for 2–5 s (bench:editor). So the server's lenses come through this provider too:
 *   - over a suggestion drawn from the last session's record (InlineReview.restore) while the
 *     server has not said how it stands, the lenses the server puts over a pending suggestion
 *     (src/protocol/suggestionLenses.ts), the keys in their tooltips; the server is not asked for
 *     that file's lenses meanwhile, so one still starting does not hold these back;
 *   - otherwise the server's own (ServerHost.codeLenses), none while it is not running.
 */
import * as vscode from 'vscode';
import type { SuggestionState } from '../../protocol/lsp';
import { suggestionLenses } from '../../protocol/suggestionLenses';
import { keyTooltip } from '../keyTable';
import { DOCUMENT_SELECTOR } from '../server/documentSelector';
import type { InlineReview } from './inlineReview';

/** The server's side of the lenses (ServerHost). */
export interface ServerLenses {
  codeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]>;
  /** VS Code asked for a file's lenses, from the server or not: it has every change told so far (lensRefresh.ts). */
  lensesAsked(): void;
  /** The server's lenses (may) have changed: VS Code is to ask again. */
  readonly onDidChangeCodeLenses: vscode.Event<void>;
}

export interface Lenses extends vscode.Disposable {
  /**
   * Settles once this provider's answers have left for VS Code for every visible editor that shows
   * a restored suggestion with lenses on (at once when none does), or after `ms`.
   */
  answered(ms: number): Promise<void>;
}

/** Time enough for the extension host to send an answer it has: it does so on its next timer tick. */
export const ANSWER_LEAVES_MS = 50;

export function registerLenses(review: InlineReview, server: ServerLenses): Lenses {
  const mac = process.platform === 'darwin';
  /** Files whose restored lenses VS Code has had from here, and those `answered` still waits for. */
  const given = new Set<string>();
  let unanswered = new Set<string>();
  let allAnswered = (): void => undefined;
  // Asked again when the server settles a restored suggestion, and when one is answered here (its
  // lenses go at once, as the server's do).
  const changed = new vscode.EventEmitter<void>();
  const restoredLenses = (restored: SuggestionState): vscode.CodeLens[] =>
    suggestionLenses([restored]).map((l) => {
      const range = new vscode.Range(l.range.start.line, l.range.start.character, l.range.end.line, l.range.end.character);
      return new vscode.CodeLens(range, { ...l.command, tooltip: keyTooltip(l.command.title, l.command.command, mac) ?? l.command.tooltip });
    });
  const provider = vscode.languages.registerCodeLensProvider(
    // Any file on disk: a restored suggestion is drawn wherever it is; the server is asked only for
    // the files it answers for.
    { scheme: 'file' },
    {
      onDidChangeCodeLenses: changed.event,
      provideCodeLenses: (doc, token) => {
        server.lensesAsked();
        const uri = doc.uri.toString();
        // Over the change as it is drawn: the file's one suggestion on screen, on the text it was computed on (decide.ts reviewAction).
        const restored = review.restoredOnScreen(uri);
        if (restored === undefined) return vscode.languages.match(DOCUMENT_SELECTOR, doc) > 0 ? server.codeLenses(doc, token) : [];
        given.add(uri);
        if (unanswered.delete(uri) && unanswered.size === 0) allAnswered();
        return restoredLenses(restored);
      },
    },
  );
  const disposable = vscode.Disposable.from(
    provider,
    changed,
    server.onDidChangeCodeLenses(() => changed.fire()),
    review.onDidChangeUnconfirmed(() => changed.fire()),
    review.onDidChangeAnswering(() => {
      if (review.book.hasUnconfirmed()) changed.fire();
    }),
  );
  return {
    dispose: () => disposable.dispose(),
    answered: (ms) => {
      unanswered = new Set(
        vscode.window.visibleTextEditors
          // With lenses off VS Code never asks.
          .filter((e) => vscode.workspace.getConfiguration('editor', e.document).get<boolean>('codeLens', true))
          .map((e) => e.document.uri.toString())
          .filter((uri) => !given.has(uri) && review.restoredOnScreen(uri) !== undefined),
      );
      if (unanswered.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        allAnswered = () => {
          clearTimeout(timer);
          // Not at once: the extension host sends the answer on a timer of its own once the provider
          // has returned, and whatever waits on this (the server's start: loading the language
          // client, forking) ran first and held the answer back ~300 ms (bench:editor's trace).
          setTimeout(resolve, ANSWER_LEAVES_MS);
        };
      });
    },
  };
}
