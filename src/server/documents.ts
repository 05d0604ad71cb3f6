/**
 * The text of a file as the user sees it: the editor's buffer when the file is open (with its
 * version, which a versioned `workspace/applyEdit` checks), else what is on disk.
 */
import type { TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Files } from '../core/ports';
import { pathToUri, uriToPath } from './uris';

export interface CurrentText {
  uri: string;
  text: string;
  /** The open document's version; null when the file is not open (its text came from disk). */
  version: number | null;
}

export class OpenDocuments {
  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly files: Files,
  ) {}

  byPath(path: string): TextDocument | undefined {
    return this.documents.all().find((d) => uriToPath(d.uri) === path);
  }

  get(uri: string): TextDocument | undefined {
    return this.documents.get(uri) ?? this.byPathOfUri(uri);
  }

  /** undefined when the file is neither open nor on disk. */
  async current(path: string): Promise<CurrentText | undefined> {
    const open = this.byPath(path);
    if (open) return { uri: open.uri, text: open.getText(), version: open.version };
    const text = await this.files.tryReadText(path);
    return text === undefined ? undefined : { uri: pathToUri(path), text, version: null };
  }

  private byPathOfUri(uri: string): TextDocument | undefined {
    const path = uriToPath(uri);
    return path === undefined ? undefined : this.byPath(path);
  }
}
