/**
 * The Node half of the scorers: loading a workspace JavaScript module (`scorer: { type: module }`)
 * needs Node's module loader, which the pure core cannot reach. Everything else about the module
 * scorer (finding the export, checking scores) lives in src/core/data/scorers/registry.ts; the
 * command scorer is pure core over the ProcessRunner port.
 *
 * Both run workspace code in or next to the server: `requiresTrust` is true on both, and the face
 * must refuse them in an untrusted workspace.
 */
import { pathToFileURL } from 'node:url';
import { createScorer } from '../core/data/scorers/registry';
import type { Scorer, ScorerDeps, ScorerSpec } from '../core/data/scorers/types';
import { openInputFile } from './inputFile';

/**
 * Imports a scorer module by absolute path (.mjs, .cjs, .js, and .ts where Node strips types).
 * The file's modification time goes into the URL: Node caches modules by URL for the life of the
 * process, and a long-lived server must pick up a scorer the user just edited.
 */
export async function importScorerModule(absolutePath: string): Promise<unknown> {
  const url = pathToFileURL(absolutePath);
  // Checked as every input is: a named pipe would hang the module loader.
  const input = await openInputFile(absolutePath);
  if (input === undefined) throw new Error(`no file ${absolutePath}`);
  const mtimeMs = await input.handle
    .stat()
    .then(
      (info) => info.mtimeMs,
      () => 0,
    )
    .finally(() => input.handle.close());
  url.searchParams.set('mtime', String(Math.trunc(mtimeMs)));
  return (await import(url.href)) as unknown;
}

/** createScorer with Node's module loader filled in. */
export function createNodeScorer(spec: ScorerSpec, deps: Omit<ScorerDeps, 'importModule'>): Promise<Scorer> {
  return createScorer(spec, { ...deps, importModule: importScorerModule });
}
