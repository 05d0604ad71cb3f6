/**
 * The Problems layer for EVOLVE-BLOCK markers (core/code/markerProblems.ts), kept as the user types:
 * every change of an open file is checked from its text alone. Whether a code spec names the file
 * (then a file without markers is worth a warning) is a disk fact, looked up on open and save of
 * the file or of its sidecar, and remembered in between so typing never waits on the disk.
 */
import { checkMarkers } from '../core/code/markerProblems';
import type { Diagnostic } from '../core/data/diagnostics';
import { RUN_SPEC_EXTENSIONS, isClaimedByName, isRunSpecPath } from '../core/files/fileKinds';
import type { Files } from '../core/ports';
import { codeSetup } from './codeProgram';

const MARKER_WORD = 'EVOLVE-BLOCK';

export class MarkerDiagnostics {
  private readonly problems = new Map<string, Diagnostic[]>();
  /** Programs a kind: code spec names, as of their (or their sidecar's) last open or save. */
  private readonly specced = new Set<string>();

  constructor(private readonly files: Files) {}

  get(path: string): readonly Diagnostic[] {
    return this.problems.get(path) ?? [];
  }

  /** On open and every change; true when the file's marker problems changed. */
  textChanged(path: string, text: string): boolean {
    const before = this.problems.get(path) ?? [];
    // Prompts and specs are Ratchet's by name; their own checks cover them.
    const after = isClaimedByName(path) || (!text.includes(MARKER_WORD) && !this.specced.has(path)) ? [] : checkMarkers(path, text, this.specced.has(path)).diagnostics;
    if (after.length === 0) this.problems.delete(path);
    else this.problems.set(path, after);
    return JSON.stringify(before) !== JSON.stringify(after);
  }

  closed(path: string): boolean {
    this.specced.delete(path);
    return this.problems.delete(path);
  }

  /**
   * On open and save of `path`: re-learns whether a code spec names the program it is (or whose
   * sidecar it is). Returns that program's path when the answer changed, for a re-check of its text.
   */
  async saved(path: string): Promise<string | undefined> {
    const program = isRunSpecPath(path) ? programOfSidecar(path) : isClaimedByName(path) ? undefined : path;
    if (program === undefined) return undefined;
    const has = (await codeSetup(this.files, program)).codeSpec;
    if (has === this.specced.has(program)) return undefined;
    if (has) this.specced.add(program);
    else this.specced.delete(program);
    return program;
  }
}

function programOfSidecar(path: string): string | undefined {
  const ext = RUN_SPEC_EXTENSIONS.find((e) => path.toLowerCase().endsWith(e));
  return ext === undefined ? undefined : path.slice(0, -ext.length);
}
