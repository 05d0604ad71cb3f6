/**
 * What the workspace says about a program with EVOLVE-BLOCK markers: whether a code search is set
 * up for it — a sidecar `<file>.ratchet.yaml` (kind: code), or ShinkaEvolve's `evaluate.py` beside
 * it, the two places `loadCodeSpec` (src/node/runs/searchSpecFile.ts) reads — so the lens offers Start Code
 * Search or Configure Code Search, and the Problems panel knows a file without markers is meant
 * to be a program.
 */
import { basename, dirname, join } from 'node:path';
import { CODE_DEFAULTS } from '../core/code/spec';
import { RUN_SPEC_EXTENSIONS } from '../core/files/fileKinds';
import type { Files } from '../core/ports';

export interface CodeSetup {
  /** The sidecar that exists, if one does. */
  sidecar?: string;
  /** The sidecar says kind: code. */
  codeSpec: boolean;
  /** ShinkaEvolve's evaluate.py is beside the program (and the program is not it). */
  shinkaTask: boolean;
}

export async function codeSetup(files: Files, programPath: string): Promise<CodeSetup> {
  let sidecar: string | undefined;
  for (const ext of RUN_SPEC_EXTENSIONS) if (await files.exists(`${programPath}${ext}`)) sidecar ??= `${programPath}${ext}`;
  const text = sidecar === undefined ? undefined : await files.tryReadText(sidecar);
  const shinkaTask = basename(programPath) !== CODE_DEFAULTS.shinkaEvaluator && (await files.exists(join(dirname(programPath), CODE_DEFAULTS.shinkaEvaluator)));
  return { ...(sidecar === undefined ? {} : { sidecar }), codeSpec: text !== undefined && /^kind:\s*['"]?code['"]?\s*(#.*)?$/m.test(text), shinkaTask };
}

/** A search can start on it: a code spec, or a ShinkaEvolve task folder. */
export const isSearchReady = (s: CodeSetup): boolean => s.codeSpec || (s.sidecar === undefined && s.shinkaTask);
