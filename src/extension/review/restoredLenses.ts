/**
 * The lenses of the suggestions drawn from the last session's record (InlineReview.restore), while
 * the language server is not back or has not said how they stand: the same lenses the server puts
 * over a pending suggestion (src/protocol/suggestionLenses.ts), with the keys in their tooltips as
 * the language client's middleware adds them to the server's. Once the server has spoken they are
 * its own again, and this provider has none.
 */
import * as vscode from 'vscode';
import { suggestionLenses } from '../../protocol/suggestionLenses';
import { keyTooltip } from '../keyTable';
import type { InlineReview } from './inlineReview';

export interface RestoredLenses extends vscode.Disposable {
  /**
   * Settles once this provider's answers have left for VS Code for every visible editor that shows
   * a restored suggestion with lenses on (at once when none does), or after `ms`.
   */
  answered(ms: number): Promise<void>;
}

/** Time enough for the extension host to send an answer it has: it does so on its next timer tick. */
export const ANSWER_LEAVES_MS = 50;

export function registerRestoredLenses(review: InlineReview): RestoredLenses {
  const mac = process.platform === 'darwin';
  /** Files whose restored lenses VS Code has had from here, and those `answered` still waits for. */
  const given = new Set<string>();
  let unanswered = new Set<string>();
  let allAnswered = (): void => undefined;
  // Asked again when the server settles one, and when one is answered here (its lenses go at once,
  // as the server's do: the language client may not be there yet to have VS Code ask).
  const changed = new vscode.EventEmitter<void>();
  const provider = vscode.languages.registerCodeLensProvider(
    { scheme: 'file' },
    {
      onDidChangeCodeLenses: changed.event,
      provideCodeLenses: (doc) => {
        // Over the change as it is drawn: the file's one suggestion on screen, on the text it was computed on (decide.ts reviewAction).
        const restored = review.restoredOnScreen(doc.uri.toString());
        if (restored === undefined) return [];
        given.add(doc.uri.toString());
        if (unanswered.delete(doc.uri.toString()) && unanswered.size === 0) allAnswered();
        return suggestionLenses([restored]).map((l) => {
          const range = new vscode.Range(l.range.start.line, l.range.start.character, l.range.end.line, l.range.end.character);
          return new vscode.CodeLens(range, { ...l.command, tooltip: keyTooltip(l.command.title, l.command.command, mac) ?? l.command.tooltip });
        });
      },
    },
  );
  const disposable = vscode.Disposable.from(
    provider,
    changed,
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
