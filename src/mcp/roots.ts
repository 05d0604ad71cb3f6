/**
 * Where an MCP client may point Ratchet: inside its roots (`roots/list`, asked again after
 * `notifications/roots/list_changed`), or, from a client without roots (or one that lists none),
 * inside the folders `ratchet mcp` was started on (`--workspace`, default the current folder). A path is checked
 * after every symbolic link in it is followed, so a link inside a root cannot lead out of it.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RatchetError } from '../core/errors';

/** What the guard needs of the SDK's server: whether the client has roots, and the request for them. */
export interface RootsSource {
  offersRoots(): boolean;
  listRoots(): Promise<{ roots: { uri: string; name?: string }[] }>;
}

export interface Resolved {
  /** The file, every link followed. */
  path: string;
  /** The root holding it: where its runs are journaled (`<root>/.ratchet`). */
  root: string;
}

export class Roots {
  private cached: Promise<string[]> | undefined;

  constructor(
    private readonly source: RootsSource,
    /** The folders `ratchet mcp` was started on: the roots of a client that has none. */
    private readonly fallback: readonly string[],
  ) {}

  /** The client's roots changed: ask again before the next path is checked. */
  changed(): void {
    this.cached = undefined;
  }

  /** The allowed folders, every link followed. */
  folders(): Promise<string[]> {
    this.cached ??= this.read().catch((err: unknown) => {
      this.cached = undefined;
      throw err;
    });
    return this.cached;
  }

  /**
   * `given` (a path, relative to the first root, or a file:// URI) as a real path inside a root;
   * refused, naming the roots, when it lies outside every one (or does not exist).
   */
  async resolve(given: string): Promise<Resolved> {
    const folders = await this.folders();
    if (folders.length === 0) throw new RatchetError('badInput', 'The MCP client lists no roots, so there is no folder Ratchet may read; add the project folder as a root.', { field: 'file' });
    const asPath = given.startsWith('file:') ? fileURLToPath(given) : given;
    const absolute = isAbsolute(asPath) ? asPath : resolve(folders[0]!, asPath);
    const path = await realpath(absolute).catch(() => {
      throw new RatchetError('notFound', `${given} does not exist (looked for ${absolute}).`, { file: absolute, field: 'file' });
    });
    const root = folders.find((f) => isInside(path, f));
    if (root === undefined) {
      throw new RatchetError('badInput', `${given} is outside the folders this MCP server may use (${folders.join(', ')}); Ratchet reads and writes only inside the client's roots.`, { file: path, field: 'file' });
    }
    return { path, root };
  }

  /** A run's folder by id, in whichever root journals it (the first that has it). */
  async rootOfRun(runId: string, exists: (root: string) => Promise<boolean>): Promise<string> {
    for (const root of await this.folders()) if (await exists(root)) return root;
    throw new RatchetError('notFound', `No run ${runId} in the .ratchet/runs folders of ${(await this.folders()).join(', ')}.`, { runId });
  }

  private async read(): Promise<string[]> {
    const listed = this.source.offersRoots() ? (await this.source.listRoots()).roots.flatMap((r) => (r.uri.startsWith('file:') ? [fileURLToPath(r.uri)] : [])) : [];
    // A client that lists no folder (one that offers roots it has not set, as the Inspector's CLI does) leaves the server's own.
    const given = listed.length > 0 ? listed : [...this.fallback];
    const real = await Promise.all(given.map((f) => realpath(f).catch(() => undefined)));
    return [...new Set(real.filter((f): f is string => f !== undefined))];
  }
}

/** `path` is `folder` or lies under it. */
export function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
