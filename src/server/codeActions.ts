/**
 * Code actions: "Move Ratchet settings to a sidecar" on a prompt file whose front matter holds a
 * `ratchet:` block (core/setup/sidecarMove.ts plans it). Offered anywhere in the front matter, and
 * attached to the editor's own problem on the `ratchet` key when there is one (VS Code's prompt
 * validator reports every key it does not know); Ratchet adds no warning of its own for it.
 *
 * One workspace edit creates (or extends) the sidecar and deletes the block, so a single undo takes
 * both back. Offered only to a client that can create files inside a workspace edit.
 */
import { CodeActionKind, CreateFile, TextDocumentEdit, TextEdit } from 'vscode-languageserver/node';
import type { CodeAction, CodeActionParams } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Files } from '../core/ports';
import { splitFrontMatter } from '../core/prompt/promptFile';
import { planSidecarMove } from '../core/setup/sidecarMove';
import { sidecarPathFor } from '../core/setup/specSource';
import type { OpenDocuments } from './documents';
import { pathToUri } from './uris';

export const MOVE_TO_SIDECAR_TITLE = 'Move Ratchet settings to a sidecar';

export interface CodeActionContext {
  files: Files;
  docs: OpenDocuments;
  /** The client applies a workspace edit that creates a file (documentChanges with resource operations). */
  canCreateFiles: boolean;
}

export async function codeActions(params: CodeActionParams, doc: TextDocument, path: string, ctx: CodeActionContext): Promise<CodeAction[]> {
  const text = doc.getText();
  const split = splitFrontMatter(text);
  if (!split || 'unclosedLine' in split) return [];
  const fenceLines = split.raw.split('\n').length - 1;
  if (params.range.start.line >= fenceLines) return [];
  const sidecarPath = sidecarPathFor(path);
  const sidecarDoc = ctx.docs.byPath(sidecarPath);
  const sidecarText = sidecarDoc?.getText() ?? (await ctx.files.tryReadText(sidecarPath));
  const plan = planSidecarMove(path, text, sidecarText);
  if (!plan || (plan.creates && !ctx.canCreateFiles)) return [];
  const sidecarUri = sidecarDoc?.uri ?? pathToUri(plan.sidecarPath);
  const end = sidecarDoc ? sidecarDoc.positionAt(sidecarText!.length) : { line: 0, character: 0 };
  const sidecarEdits = plan.creates
    ? [CreateFile.create(sidecarUri, { ignoreIfExists: false, overwrite: false }), TextDocumentEdit.create({ uri: sidecarUri, version: null }, [TextEdit.insert({ line: 0, character: 0 }, plan.text)])]
    : [TextDocumentEdit.create({ uri: sidecarUri, version: sidecarDoc?.version ?? null }, [TextEdit.insert(sidecarDoc ? end : endOf(sidecarText!), plan.text)])];
  const removal = TextEdit.del({ start: { line: plan.fromLine, character: 0 }, end: { line: plan.toLine, character: 0 } });
  const ratchetKey = split.raw.split('\n').findIndex((l) => /^ratchet[ \t]*:/.test(l));
  return [
    {
      title: MOVE_TO_SIDECAR_TITLE,
      kind: CodeActionKind.QuickFix,
      // The editor's own "unknown attribute" problem on the key, when it reported one.
      diagnostics: params.context.diagnostics.filter((d) => d.source !== 'ratchet' && d.range.start.line === ratchetKey),
      edit: { documentChanges: [...sidecarEdits, TextDocumentEdit.create({ uri: doc.uri, version: doc.version }, [removal])] },
      isPreferred: true,
    },
  ];
}

/** The end of a text as an LSP position. */
function endOf(text: string): { line: number; character: number } {
  const lines = text.split('\n');
  return { line: lines.length - 1, character: lines.at(-1)!.length };
}
