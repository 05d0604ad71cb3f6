/**
 * What a code search keeps in its run.json (`spec` field) so a resume rebuilds the very same run,
 * and where its files are now. As for an evolve run (storedRun.ts), paths under the workspace are
 * kept relative to it, so a run follows its workspace when the folder is copied or moved: a resume
 * evaluates with the copy's evaluator files and writes the copy's program, never the original's.
 * The face's choices of models and prices (the editor's settings) are kept too: a resume calls
 * and counts as the run did.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { CodeRunSpec } from '../../core/code/spec';
import type { SearchOverrides } from '../../core/run/overrides';

/** The face's choices a resume must keep: which model each role calls and what it costs. */
export type SearchFace = Pick<SearchOverrides, 'roleModels' | 'prices' | 'free'>;

export interface StoredSearch extends CodeRunSpec {
  /** Where the run started (absolute); absent in run.json files written before paths were relative. */
  workspace?: string;
  face?: SearchFace;
}

/** The run.json spec of a new search: its program, spec files and support files relative to `workspace` where they lie under it. */
export function storeSearch(spec: CodeRunSpec, workspace: string, face: SearchFace): StoredSearch {
  const root = resolve(workspace);
  const kept = Object.fromEntries(Object.entries(face).filter(([, v]) => v !== undefined)) as SearchFace;
  return { ...mapPaths(spec, (p) => storedPath(root, p)), workspace: root, ...(Object.keys(kept).length > 0 ? { face: kept } : {}) };
}

/** The stored spec with its paths as they lie in `workspace`, the folder the run is resumed in. */
export function locateSearch(stored: StoredSearch, workspace: string): { spec: CodeRunSpec; face: SearchFace } {
  const root = resolve(workspace);
  const { workspace: startedIn, face, ...spec } = stored;
  return { spec: mapPaths(spec, (p) => pathInWorkspace(p, startedIn, root)), face: face ?? {} };
}

function mapPaths(spec: CodeRunSpec, map: (path: string) => string): CodeRunSpec {
  const slurm = spec.evaluator.slurm;
  return {
    ...spec,
    programPath: map(spec.programPath),
    baseDir: map(spec.baseDir),
    sources: spec.sources.map((s) => ({ ...s, file: map(s.file) })),
    evaluator: {
      ...spec.evaluator,
      supportFiles: spec.evaluator.supportFiles.map(map),
      ...(slurm?.sharedDir === undefined ? {} : { slurm: { ...slurm, sharedDir: map(slurm.sharedDir) } }),
    },
  };
}

function storedPath(workspace: string, file: string): string {
  const rel = relative(workspace, resolve(file));
  return rel === '' ? '.' : isInside(rel) ? rel.split(sep).join('/') : resolve(file);
}

function pathInWorkspace(stored: string, startedIn: string | undefined, workspace: string): string {
  if (!isAbsolute(stored)) return resolve(workspace, stored);
  // An older run.json: an absolute path under the workspace the run started in.
  const rel = startedIn === undefined ? undefined : relative(startedIn, stored);
  return rel !== undefined && (rel === '' || isInside(rel)) ? resolve(workspace, rel) : stored;
}

function isInside(rel: string): boolean {
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
