/**
 * The run spec of each prompt file as the code lenses need it (the Evolve lens's models tooltip,
 * whether Generate Dev Set is offered), loaded again only when a file it was read from changed.
 *
 * Why: VS Code asks for a file's lenses again after every suggestion change (an Accept or Reject
 * included) and after edits, and a load reads and parses the prompt, its sidecar and every dataset
 * file it names (YAML, the schema check, JSONL). Loading on each request made the lenses trail the
 * key press on a busy machine, twice over: VS Code also waits before its next lens request in
 * proportion to how long the recent ones took (its per-provider debounce).
 *
 * A load keeps the stat (inode, size, change and modification times) of every path it read or
 * looked for; the next request reuses it while each stat is the same — a stat is cheap next to a
 * read and parse, and it sees a change however it was made (a save, Generate Dev Set writing the
 * dataset, a `git checkout`).
 */
import { stat } from 'node:fs/promises';
import type { Files } from '../core/ports';
import type { RunSpec } from '../core/run/specTypes';
import { loadRunSpec } from '../core/setup/spec';

interface Loaded {
  /** undefined when the spec does not load: its diagnostics say why. */
  spec: RunSpec | undefined;
  /** Each path the load read or looked for, and what its stat said then. */
  stats: Map<string, string>;
}

export class RunSpecCache {
  private readonly loaded = new Map<string, Promise<Loaded>>();

  constructor(private readonly files: Files) {}

  async spec(promptPath: string): Promise<RunSpec | undefined> {
    const previous = this.loaded.get(promptPath);
    if (previous) {
      const kept = await previous;
      if (await unchanged(kept.stats)) return kept.spec;
      // Another request may have started a fresh load meanwhile: share it.
      const current = this.loaded.get(promptPath);
      if (current && current !== previous) return (await current).spec;
    }
    const next = load(this.files, promptPath);
    this.loaded.set(promptPath, next);
    return (await next).spec;
  }
}

async function load(files: Files, promptPath: string): Promise<Loaded> {
  const paths = new Set<string>();
  const spec = await loadRunSpec(noting(files, paths), promptPath).catch(() => undefined);
  // Stat after the load: a change made while it read is then seen as a change by the next request.
  const stats = new Map(await Promise.all([...paths].map(async (p) => [p, await statLine(p)] as const)));
  return { spec, stats };
}

async function unchanged(stats: ReadonlyMap<string, string>): Promise<boolean> {
  const now = await Promise.all([...stats].map(async ([p, was]) => (await statLine(p)) === was));
  return now.every(Boolean);
}

/** What tells one version of a file from the next; 'absent' for a path with nothing there. */
async function statLine(path: string): Promise<string> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return 'absent';
  }
}

/** `files`, noting each path read, looked for or listed. */
function noting(files: Files, paths: Set<string>): Files {
  const noted = <T>(p: string, use: () => T): T => {
    paths.add(files.resolve(p));
    return use();
  };
  return {
    get limits() {
      return files.limits;
    },
    readText: (p) => noted(p, () => files.readText(p)),
    tryReadText: (p) => noted(p, () => files.tryReadText(p)),
    tryReadLines: (p) => noted(p, () => files.tryReadLines(p)),
    exists: (p) => noted(p, () => files.exists(p)),
    list: (p) => noted(p, () => files.list(p)),
    writeTextAtomic: (p, text) => files.writeTextAtomic(p, text),
    appendDurable: (p, text) => files.appendDurable(p, text),
    mkdirp: (p) => files.mkdirp(p),
    mkdirExclusive: (p) => files.mkdirExclusive(p),
    join: (...parts) => files.join(...parts),
    resolve: (...parts) => files.resolve(...parts),
    dirname: (p) => files.dirname(p),
  };
}
