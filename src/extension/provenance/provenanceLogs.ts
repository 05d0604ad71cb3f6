/**
 * A prompt file's provenance log (src/core/journal/provenance.ts), read through the editor's file
 * system so a remote workspace's history reads too. The log lives under the workspace folder that
 * holds the file, the folder its runs were started in.
 */
import * as vscode from 'vscode';
import { parseProvenance, provenanceFileName } from '../../core/journal/provenance';
import type { ProvenanceLog, ProvenanceRecord } from '../../core/journal/provenance';

const warned = new Set<string>();

/** The folder that holds the file and the file's path in it (`/` separators); undefined outside every folder. */
export function workspacePlace(uri: vscode.Uri): { folder: vscode.Uri; relative: string } | undefined {
  if (uri.scheme !== 'file') return undefined;
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) return undefined;
  const relative = uri.path.slice(folder.uri.path.replace(/\/$/, '').length + 1);
  return { folder: folder.uri, relative };
}

export function provenanceLogUri(folder: vscode.Uri, relative: string): vscode.Uri {
  return vscode.Uri.joinPath(folder, '.ratchet', 'provenance', provenanceFileName(relative));
}

/** The file's log; empty when it has none (no edit of it was ever accepted), or it is outside the folders. */
export async function readProvenanceLog(uri: vscode.Uri, log: vscode.LogOutputChannel): Promise<ProvenanceLog> {
  const place = workspacePlace(uri);
  if (!place) return { records: [], skipped: [] };
  const logUri = provenanceLogUri(place.folder, place.relative);
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(logUri));
  } catch {
    return { records: [], skipped: [] };
  }
  const parsed = parseProvenance(text, logUri.fsPath);
  for (const why of parsed.skipped) {
    // Once each: the hover reads the log again on every hover.
    if (warned.has(why)) continue;
    warned.add(why);
    log.warn(`Prompt history: skipped ${why}.`);
  }
  return parsed;
}

/** Every workspace folder's logs: each file with accepted edits, and its records. */
export async function readAllProvenance(log: vscode.LogOutputChannel): Promise<{ file: vscode.Uri; records: ProvenanceRecord[] }[]> {
  const out: { file: vscode.Uri; records: ProvenanceRecord[] }[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const dir = vscode.Uri.joinPath(folder.uri, '.ratchet', 'provenance');
    const entries = await vscode.workspace.fs.readDirectory(dir).then(
      (e) => e,
      () => [] as [string, vscode.FileType][],
    );
    for (const [name, type] of entries) {
      if (type !== vscode.FileType.File || !name.endsWith('.jsonl')) continue;
      const logUri = vscode.Uri.joinPath(dir, name);
      const text = await vscode.workspace.fs.readFile(logUri).then(
        (b) => new TextDecoder().decode(b),
        () => undefined,
      );
      if (text === undefined) continue;
      const { records, skipped } = parseProvenance(text, logUri.fsPath);
      if (skipped.length > 0) log.warn(`Prompt history: skipped ${skipped.join('; ')}.`);
      if (records.length > 0) out.push({ file: vscode.Uri.joinPath(folder.uri, ...records[0]!.file.split('/')), records });
    }
  }
  return out;
}
