/**
 * What an evolve run keeps in its run.json (`spec` field) so a resume rebuilds the very same run,
 * and where those things are now. Paths are kept relative to the workspace, so a run follows its
 * workspace when the folder is copied or moved: a resume works on the workspace it is given, and
 * never reads or writes the one the run started in.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { RatchetError } from '../../core/errors';
import type { RunRecord } from '../../core/journal/journal';
import type { RunSpec } from '../../core/run/specTypes';
import type { EvolveOverrides } from '../../core/run/overrides';
import { locateSearch } from './storedSearch';
import type { StoredSearch } from './storedSearch';

export interface StoredRun {
  /**
   * The prompt file, relative to the workspace (with `/`). Absolute when it lies outside the
   * workspace, and in run.json files written before paths were relative.
   */
  promptPath: string;
  /** Where the run started (absolute); old absolute paths under it are mapped to the workspace resumed in. */
  workspace: string;
  /** The face's overrides; `dataset` is kept like `promptPath`. */
  overrides: EvolveOverrides;
  inputsHash: string;
  spec: RunSpec;
}

/** The StoredRun of a new run: its paths made relative to `workspace` where they lie under it. */
export function storeRun(run: StoredRun): StoredRun {
  const workspace = resolve(run.workspace);
  const { dataset, ...overrides } = run.overrides;
  return {
    ...run,
    promptPath: storedPath(workspace, run.promptPath),
    workspace,
    overrides: dataset === undefined ? overrides : { ...overrides, dataset: storedPath(workspace, dataset) },
  };
}

/** The StoredRun in a run's record; badInput when the run is not an evolve run this version can resume. */
export function storedRunOf(record: RunRecord): StoredRun {
  const stored = record.spec as Partial<StoredRun> | undefined;
  if (record.kind !== 'evolve' || typeof stored?.promptPath !== 'string') {
    throw new RatchetError('badInput', `Run ${record.runId} is not an evolve run this version can resume.`, { runId: record.runId });
  }
  return stored as StoredRun;
}

/** The run's prompt file and overrides as they lie in `workspace`, the folder it is resumed in. */
export function locateRun(stored: StoredRun, workspace: string): { promptPath: string; overrides: EvolveOverrides } {
  const root = resolve(workspace);
  const { dataset, ...overrides } = stored.overrides ?? {};
  return {
    promptPath: pathInWorkspace(stored.promptPath, stored.workspace, root),
    overrides: dataset === undefined ? overrides : { ...overrides, dataset: pathInWorkspace(dataset, stored.workspace, root) },
  };
}

/**
 * The file a run works on, in `workspace`: an evolve run's prompt file and a code search's program
 * where their stored paths put them (storedSearch.ts), else the record's target.
 */
export function promptPathOfRun(record: RunRecord, workspace: string): string {
  const stored = record.spec as Partial<StoredRun> | undefined;
  if (record.kind === 'search' && typeof (record.spec as Partial<StoredSearch> | undefined)?.programPath === 'string') return locateSearch(record.spec as StoredSearch, workspace).spec.programPath;
  return record.kind === 'evolve' && typeof stored?.promptPath === 'string' ? locateRun(stored as StoredRun, workspace).promptPath : record.target;
}

function storedPath(workspace: string, file: string): string {
  const abs = resolve(file);
  const rel = relative(workspace, abs);
  return isInside(rel) ? rel.split(sep).join('/') : abs;
}

function pathInWorkspace(stored: string, startedIn: string | undefined, workspace: string): string {
  if (!isAbsolute(stored)) return resolve(workspace, stored);
  // An older run.json: an absolute path under the workspace the run started in.
  const rel = startedIn === undefined ? undefined : relative(startedIn, stored);
  return rel !== undefined && isInside(rel) ? resolve(workspace, rel) : stored;
}

function isInside(rel: string): boolean {
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
