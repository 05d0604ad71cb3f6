/**
 * Accept, Reject, Show Diff and Evidence for a gated suggestion. Accept goes through the server
 * (which applies the edit with a versioned workspace/applyEdit, so it lands on the undo stack and
 * never over newer text); Reject is recorded by the engine, where the proposer's memory sees it.
 */
import * as vscode from 'vscode';
import { CONTEXT_KEYS } from '../menuTable';
import { walkthroughStepDone } from '../walkthrough';
import { AcceptSuggestionRequest, RejectSuggestionRequest } from '../../protocol/lsp';
import { acceptAction } from '../review/decide';
import { runTarget, suggestionTarget } from '../review/target';
import type { SuggestionTarget } from '../review/target';
import type { CommandContext } from './context';
import { runIdArg } from './runCommands';

function target(ctx: CommandContext, args: unknown[]): SuggestionTarget | undefined {
  const found = suggestionTarget(args, vscode.window.activeTextEditor?.document.uri.toString(), ctx.review.book);
  if (!found) void vscode.window.showInformationMessage('Ratchet: there is no pending suggestion here. Run "Ratchet: Evolve Prompt" on this file to get one.');
  return found;
}

/** The candidate of `[uri, runId, candidateId]`, or of a Runs view node passed alone. */
function candidateIdArg(args: unknown[]): string | undefined {
  const [first, , third] = args;
  if (typeof third === 'string' && third !== '') return third;
  if (typeof first === 'object' && first !== null && typeof (first as { candidateId?: unknown }).candidateId === 'string') return (first as { candidateId: string }).candidateId;
  return undefined;
}

/**
 * The one path every Accept takes — a link in the drawn change, the key, the palette, the diff editor's title bar,
 * Accept All: checked against the text on screen, then written by the server as one versioned
 * edit (so one undo takes it back). Whoever needs to know what the user accepted hooks in here.
 */
export async function acceptSuggestion(ctx: CommandContext, t: SuggestionTarget): Promise<'applied' | 'stale' | 'refused'> {
  const decision = acceptAction(ctx.review.book.get(t.runId, t.candidateId), ctx.review.docView(t.uri));
  if (decision.kind === 'refuse') {
    void vscode.window.showWarningMessage(decision.message);
    return 'refused';
  }
  const answer = await ctx.review.answering(t.runId, t.candidateId, async () => ((await stillPending(ctx, t, 'Accept')) ? ctx.host.request(AcceptSuggestionRequest, { runId: t.runId, candidateId: t.candidateId }) : undefined));
  if (answer === undefined) return 'refused';
  walkthroughStepDone(CONTEXT_KEYS.suggestionAnswered);
  const { outcome } = answer;
  if (outcome === 'stale') {
    void vscode.window.showWarningMessage('Ratchet: not applied — the file changed before the edit could be written. Your text was left as it is.');
  }
  return outcome;
}

/** Reject leaves the text as it is: the suggestion was only ever drawn, never written. */
async function rejectSuggestion(ctx: CommandContext, t: SuggestionTarget): Promise<void> {
  const answer = await ctx.review.answering(t.runId, t.candidateId, async () => ((await stillPending(ctx, t, 'Reject')) ? ctx.host.request(RejectSuggestionRequest, { runId: t.runId, candidateId: t.candidateId }) : undefined));
  if (answer !== undefined) walkthroughStepDone(CONTEXT_KEYS.suggestionAnswered);
}

/**
 * A suggestion drawn from the last session's record (after a reload) is answered once the server
 * has said it still waits and takes requests (its word on the suggestion can come before it does):
 * the answer is held until then, with the drawing already gone, and a suggestion that no longer
 * waits is answered with a word, not a server error.
 */
async function stillPending(ctx: CommandContext, t: SuggestionTarget, what: 'Accept' | 'Reject'): Promise<boolean> {
  if (!ctx.review.book.isUnconfirmed(t.runId, t.candidateId)) return true;
  const confirmed = (async () => (await ctx.review.confirmation(t.runId, t.candidateId)) && (await ctx.host.whenRunning()))();
  // Held quietly (the status bar) for a while; a wait that goes on (a run process or server that
  // does not answer) gets a notification that can drop the answer.
  let cancelled = false;
  let notice: ReturnType<typeof setTimeout> | undefined;
  const cancel = new Promise<false>((resolve) => {
    notice = setTimeout(() => {
      void vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Ratchet: your ${what} of ${t.candidateId} waits for the language server to confirm that the suggestion still waits`, cancellable: true },
        (_progress, token) =>
          new Promise<void>((done) => {
            token.onCancellationRequested(() => {
              cancelled = true;
              resolve(false);
              done();
            });
            void confirmed.finally(done);
          }),
      );
    }, HELD_ANSWER_NOTICE_MS);
  });
  const pending = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Ratchet: waiting for the language server to confirm the suggestion' }, async () => {
    try {
      return await Promise.race([confirmed, cancel]);
    } finally {
      clearTimeout(notice);
    }
  });
  if (cancelled) void vscode.window.showInformationMessage(`Ratchet: your ${what} was dropped; nothing was written. Answer the suggestion again once the language server is back.`);
  else if (!pending)
    void vscode.window.showInformationMessage('Ratchet: nothing was written — the language server did not confirm that this suggestion still waits (it was answered, its run ended while the window was away, or the server did not start).');
  return pending;
}

/** How long an answer held for the server's confirmation waits before a notification offers to drop it. */
export const HELD_ANSWER_NOTICE_MS = 5_000;

/** Every pending suggestion of the run named by `[uri, runId]` (a link in the change), or of the active editor's drawn one. */
function runTargets(ctx: CommandContext, args: unknown[]): SuggestionTarget[] {
  const found = runTarget(args, vscode.window.activeTextEditor?.document.uri.toString(), ctx.review.book);
  if (found.length === 0) void vscode.window.showInformationMessage('Ratchet: this run has no pending suggestion.');
  return found;
}

export function reviewCommands(ctx: CommandContext) {
  return {
    async acceptSuggestion(...args: unknown[]): Promise<void> {
      const t = target(ctx, args);
      if (t) await acceptSuggestion(ctx, t);
    },

    async rejectSuggestion(...args: unknown[]): Promise<void> {
      const t = target(ctx, args);
      if (t) await rejectSuggestion(ctx, t);
    },

    /** One at a time: each is its own edit (its own undo step), checked against the text the previous one left. */
    async acceptAllSuggestions(...args: unknown[]): Promise<void> {
      for (const t of runTargets(ctx, args)) if ((await acceptSuggestion(ctx, t)) !== 'applied') return;
    },

    async rejectAllSuggestions(...args: unknown[]): Promise<void> {
      for (const t of runTargets(ctx, args)) await rejectSuggestion(ctx, t);
    },

    async showDiff(...args: unknown[]): Promise<void> {
      const t = target(ctx, args);
      const s = t && ctx.review.book.get(t.runId, t.candidateId);
      if (!s) return;
      const name = vscode.Uri.parse(s.uri).path.split('/').at(-1) ?? 'prompt';
      await vscode.commands.executeCommand('vscode.diff', vscode.Uri.parse(s.uri), ctx.review.suggestionUri(s), `${name} ↔ Ratchet suggestion ${s.candidateId.slice(0, 8)}`, {
        preview: true,
      });
    },

    /**
     * `[uri, runId, candidateId]` from a link in the change or the Runs view: the panel on that
     * decision, its evidence open. From the palette (no arguments), the suggestion drawn in the
     * active editor: the keyboard's way to a change's Evidence link.
     */
    async showEvidence(...args: unknown[]): Promise<void> {
      const here = args.length === 0 ? suggestionTarget([], vscode.window.activeTextEditor?.document.uri.toString(), ctx.review.book) : undefined;
      const runId = here?.runId ?? runIdArg(args[1]) ?? runIdArg(args[0]);
      const candidateId = here?.candidateId ?? candidateIdArg(args);
      if (runId !== undefined && !ctx.feed.has(runId)) {
        const listed = ctx.runsView.listedRuns().find((r) => r.runId === runId);
        if (listed) await ctx.feed.load(listed.workspace, runId);
      }
      if (runId !== undefined && candidateId !== undefined) ctx.panel.focus(runId, candidateId);
      else ctx.panel.show();
    },
  };
}
