/**
 * `file:` URIs ↔ file system paths. Documents are matched by path, never by URI string: VS Code
 * and Node encode the same path differently (a Windows drive's colon, `@`, spaces), and a
 * suggestion computed on `/w/a.prompt.md` must find the editor's `file:///w/a.prompt.md`.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { normalize } from 'node:path';

/** The path of a `file:` URI; undefined for other schemes (untitled, git, vscode-notebook-cell). */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return normalize(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}

export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}

/** Whether `path` is `dir` or lies under it. */
export function isUnder(path: string, dir: string): boolean {
  const d = normalize(dir).replace(/[\\/]+$/, '');
  const p = normalize(path);
  return p === d || p.startsWith(`${d}/`) || p.startsWith(`${d}\\`);
}
