/**
 * Writes an accepted edit into the user's file without ever clobbering what they typed.
 *
 * Through the editor (`workspace/applyEdit`) whenever the client can: the edit lands on the undo
 * stack, and it is a versioned TextDocumentEdit, so the editor itself refuses it when the document
 * moved past the version the edit was computed on — there is no window between our check and the
 * write. A file that is not open is checked against the disk first and sent unversioned (the
 * editor opens it). Only a client without `workspace/applyEdit` gets an atomic write to disk.
 */
import { TextDocumentEdit, TextEdit } from 'vscode-languageserver/node';
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

export class EditApplier {
  private viaEditor = false;
  private versioned = false;

  constructor(
    private readonly connection: Connection,
    private readonly files: Files,
  ) {}

  setCapabilities(caps: ClientCapabilities): void {
    this.viaEditor = caps.workspace?.applyEdit === true;
    this.versioned = caps.workspace?.workspaceEdit?.documentChanges === true;
  }

  async apply(edit: PreparedEdit, label: string): Promise<EditOutcome> {
    if (edit.version === null && !(await this.diskHolds(edit))) return 'stale';
    if (!this.viaEditor) {
      if (edit.version !== null) return 'stale'; // an open buffer we cannot edit: never write under it
      await this.files.writeTextAtomic(edit.path, edit.newText);
      return 'applied';
    }
    const { range, replacement } = changedSpan(edit.baseText, edit.newText);
    const change = TextEdit.replace(range, replacement);
    const result = await this.connection.workspace.applyEdit({
      label,
      edit: this.versioned
        ? { documentChanges: [TextDocumentEdit.create({ uri: edit.uri, version: edit.version }, [change])] }
        : // Without documentChanges the editor cannot check a version; the caller compared the text
          // just before, which leaves a window of one round trip.
          { changes: { [edit.uri]: [change] } },
    });
    return result.applied ? 'applied' : 'stale';
  }

  private async diskHolds(edit: PreparedEdit): Promise<boolean> {
    return (await this.files.tryReadText(edit.path)) === edit.baseText;
  }
}
