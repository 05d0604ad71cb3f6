/**
 * The evaluator's files, staged once per run: every support file (and a ShinkaEvolve task folder:
 * evaluate.py and the neighbours it may import) copied at the start into a folder of the run's, read-only, each file hashed as it
 * is copied. Every evaluation of the run uses these copies — a program that rewrote the user's
 * evaluator in the workspace changes nothing the run evaluates with — and the evaluation cache's
 * key is the hash of these exact bytes, by the names they have in the sandbox (never an absolute
 * path: a copied or moved workspace keeps its cache).
 *
 * After each evaluation the copies are hashed again (a change there means something wrote into
 * the run's evaluator: the run stops rather than mix results of two evaluators) and the
 * workspace's originals are looked at (a change there is reported once: the run goes on with the
 * copies it started with; a new run would use the new files).
 */
import { createHash } from 'node:crypto';
import { chmod, cp, lstat, mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { RatchetError } from '../../core/errors';
import { STAGE_PREFIX, makeWritable } from './sweep';

export interface StageInput {
  /** Support files and folders: absolute path in the workspace → name in the sandbox. */
  supportFiles: { from: string; to: string }[];
  /** A ShinkaEvolve task folder, staged as task/ without its `.ratchet` and the program under search (which changes as the run commits). */
  shinkaTask?: { dir: string; program: string };
  /** Files the command names by absolute path: not copied (the command runs them where they are), but hashed into the identity and watched. */
  named?: string[];
  /** What else decides an evaluation's outcome (command, limits, network, …): part of the identity. */
  settings: unknown;
  /** Where the stage folder goes (default: the temporary folder; Slurm: the shared run folder). */
  under?: string;
}

interface StagedFile {
  /** Name in the sandbox, `/`-separated (a file inside a support folder: `data/a.csv`). */
  name: string;
  sha256: string;
  /** The workspace file it was copied from, with what it looked like then. */
  source: string;
  sourceStamp: string;
  /** A file named by absolute path: hashed, not copied. */
  inPlace?: boolean;
}

export interface StageChange {
  /** Staged copies whose bytes changed: the run must stop. */
  tampered: string[];
  /** Workspace originals that changed since the start (reported once each). */
  changedInWorkspace: string[];
}

export class EvaluatorStage {
  private readonly reported = new Set<string>();

  private constructor(
    /** The stage folder: `files/<to>` for support files, `task/` for a ShinkaEvolve task folder. */
    readonly dir: string,
    private readonly files: StagedFile[],
    /** Hash of the staged bytes by name and of the settings: the evaluation cache's evaluator identity. */
    readonly identity: string,
  ) {}

  static async create(input: StageInput): Promise<EvaluatorStage> {
    const under = input.under ?? tmpdir();
    await mkdir(under, { recursive: true });
    const dir = await mkdtemp(path.join(under, `${STAGE_PREFIX}${process.pid}-`));
    try {
      const files: StagedFile[] = [];
      const copy = async (from: string, to: string) => {
        const target = path.join(dir, to);
        await mkdir(path.dirname(target), { recursive: true });
        // Dereferenced: a symlink in a support folder must become a file of the stage, not a door back to the workspace.
        await cp(from, target, { recursive: true, dereference: true }).catch((err: unknown) => {
          throw new RatchetError('badInput', `Could not copy the support file ${from}: ${(err as Error).message}. Check evaluator.supportFiles.`, { from, field: 'evaluator.supportFiles' }, err);
        });
        for (const rel of await listFiles(target)) {
          const name = path.posix.join(to.split(path.sep).join('/'), rel);
          const source = rel === '' ? from : path.join(from, rel);
          files.push({ name: name.replace(/\/$/, ''), sha256: await hashFile(path.join(target, rel)), source, sourceStamp: await stamp(source) });
        }
      };
      for (const f of input.supportFiles) await copy(f.from, path.join('files', f.to));
      if (input.shinkaTask !== undefined) {
        await mkdir(path.join(dir, 'task'));
        for (const name of await readdir(input.shinkaTask.dir)) {
          if (name === '.ratchet' || name === path.basename(input.shinkaTask.program)) continue;
          await copy(path.join(input.shinkaTask.dir, name), path.join('task', name));
        }
      }
      for (const from of input.named ?? []) {
        files.push({ name: `named/${path.basename(from)}`, sha256: await hashFile(from).catch(() => 'missing'), source: from, sourceStamp: await stamp(from), inPlace: true });
      }
      await makeReadOnly(dir);
      files.sort((a, b) => a.name.localeCompare(b.name));
      const identity = createHash('sha256')
        .update(JSON.stringify({ settings: input.settings, files: files.map((f) => [f.name, f.sha256]) }))
        .digest('hex')
        .slice(0, 32);
      return new EvaluatorStage(dir, files, identity);
    } catch (err) {
      await makeWritable(dir);
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** The staged copy of a support file given as `to`. */
  supportPath(to: string): string {
    return path.join(this.dir, 'files', to);
  }

  get taskDir(): string {
    return path.join(this.dir, 'task');
  }

  /** What changed since staging: the copies (rehashed) and the workspace's originals (each reported once). */
  async check(): Promise<StageChange> {
    const tampered: string[] = [];
    const changedInWorkspace: string[] = [];
    for (const f of this.files) {
      if (!f.inPlace) {
        const copyHash = await hashFile(path.join(this.dir, f.name)).catch(() => 'missing');
        if (copyHash !== f.sha256) tampered.push(f.name);
      }
      if (this.reported.has(f.name) || (await stamp(f.source)) === f.sourceStamp) continue;
      const now = await hashFile(f.source).catch(() => 'missing');
      if (now !== f.sha256) {
        this.reported.add(f.name);
        changedInWorkspace.push(f.inPlace ? f.source : f.name.replace(/^(files|task)\//, ''));
      }
    }
    return { tampered: tampered.map((n) => n.replace(/^(files|task)\//, '')), changedInWorkspace };
  }

  async dispose(): Promise<void> {
    await makeWritable(this.dir);
    await rm(this.dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}

/** Files under `p` relative to it ('' when `p` is a file), regular files only. */
async function listFiles(p: string): Promise<string[]> {
  const st = await lstat(p);
  if (!st.isDirectory()) return [''];
  const out: string[] = [];
  for (const e of await readdir(p, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...(await listFiles(path.join(p, e.name))).map((r) => path.posix.join(e.name, r)));
    else if (e.isFile()) out.push(e.name);
  }
  return out;
}

async function hashFile(p: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(p))
    .digest('hex');
}

/** Size and modification time: a cheap look before a file is hashed again. */
async function stamp(p: string): Promise<string> {
  const st = await stat(p).catch(() => undefined);
  return st ? `${st.size}:${st.mtimeMs}` : 'missing';
}

async function makeReadOnly(p: string): Promise<void> {
  const st = await lstat(p);
  if (st.isDirectory()) {
    for (const e of await readdir(p)) await makeReadOnly(path.join(p, e));
    await chmod(p, 0o555);
  } else if (st.isFile()) await chmod(p, (st.mode & 0o111) !== 0 ? 0o555 : 0o444);
}
