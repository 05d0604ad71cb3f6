/**
 * Writes an accepted edit into the user's file without ever clobbering what they typed.
 *
 * Through the editor (`workspace/applyEdit`) whenever the client can: the edit lands on the undo
 * stack, and it is a versioned TextDocumentEdit, so the editor itself refuses it when the document
 * moved past the version the edit was computed on — there is no window between our check and the
 * write. A file that is not open is checked against the disk first and sent unversioned (the
 * editor opens it). Only a client without `workspace/applyEdit` gets an atomic write to disk.
 */
import { AnnotatedTextEdit, TextDocumentEdit, TextEdit } from 'vscode-languageserver/node';
import type { ClientCapabilities, Connection } from 'vscode-languageserver/node';
import type { Files } from '../core/ports';
import { changedSpan } from './textChange';

export interface PreparedEdit {
  uri: string;
  path: string;
  /** The open document's version the edit is for; null when the file is not open. */
  version: number | null;
  baseText: string;
  newText: string;
}

export type EditOutcome = 'applied' | 'stale';

/** The change annotation an accepted suggestion's edit carries. */
const ACCEPTED = 'ratchet.accepted';

export class EditApplier {
  private viaEditor = false;
  private versioned = false;
  private annotated = false;

  constructor(
    private readonly connection: Connection,
    private readonly files: Files,
  ) {}

  setCapabilities(caps: ClientCapabilities): void {
    this.viaEditor = caps.workspace?.applyEdit === true;
    this.versioned = caps.workspace?.workspaceEdit?.documentChanges === true;
    this.annotated = caps.workspace?.workspaceEdit?.changeAnnotationSupport !== undefined;
  }

  async apply(edit: PreparedEdit, label: string): Promise<EditOutcome> {
    if (edit.version === null && !(await this.diskHolds(edit))) return 'stale';
    if (!this.viaEditor) {
      if (edit.version !== null) return 'stale'; // an open buffer we cannot edit: never write under it
      await this.files.writeTextAtomic(edit.path, edit.newText);
      return 'applied';
    }
    const { range, replacement } = changedSpan(edit.baseText, edit.newText);
    // Annotated, VS Code applies the edit as it is. Unannotated, it first diffs an edit to a file open
    // in the active editor into smaller ones, in a worker: a round trip before the text changes, and
    // edits the suggestion's lenses are not inside (suggestionLenses.ts), so they stay drawn until VS
    // Code asks for lenses again. No confirmation is asked.
    const change = this.annotated ? AnnotatedTextEdit.replace(range, replacement, ACCEPTED) : TextEdit.replace(range, replacement);
    const result = await this.connection.workspace.applyEdit({
      label,
      edit: this.versioned
        ? {
            documentChanges: [TextDocumentEdit.create({ uri: edit.uri, version: edit.version }, [change])],
            ...(this.annotated ? { changeAnnotations: { [ACCEPTED]: { label, needsConfirmation: false } } } : {}),
          }
        : // Without documentChanges the editor cannot check a version (nor read an annotation); the
          // caller compared the text just before, which leaves a window of one round trip.
          { changes: { [edit.uri]: [TextEdit.replace(range, replacement)] } },
    });
    return result.applied ? 'applied' : 'stale';
  }

  private async diskHolds(edit: PreparedEdit): Promise<boolean> {
    return (await this.files.tryReadText(edit.path)) === edit.baseText;
  }
}
