/**
 * The Files port over node:fs. Its two writes carry the journal's guarantees: `writeTextAtomic`
 * (write-file-atomic: temp file, fsync, rename) never leaves half a run.json, and `appendDurable`
 * resolves only after the bytes reached the disk (fdatasync), which is what lets the engine take
 * its next step knowing the last one is recorded.
 */
import { open, mkdir, readFile, readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { RatchetError } from '../core/errors';
import type { Files } from '../core/ports';

export class NodeFiles implements Files {
  /** Files this instance has appended to: their directory entry is already synced. */
  private readonly appended = new Set<string>();

  async readText(file: string): Promise<string> {
    const text = await this.tryReadText(file);
    if (text === undefined) throw new RatchetError('notFound', `No file ${file}.`, { file });
    return text;
  }

  async tryReadText(file: string): Promise<string | undefined> {
    try {
      return await readFile(file, 'utf8');
    } catch (err) {
      if (isCode(err, 'ENOENT')) return undefined;
      throw err;
    }
  }

  async writeTextAtomic(file: string, text: string): Promise<void> {
    await writeFileAtomic(file, text, { encoding: 'utf8', fsync: true });
  }

  async appendDurable(file: string, text: string): Promise<void> {
    const created = !this.appended.has(file) && !(await this.exists(file));
    const handle = await open(file, 'a');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.datasync();
    } finally {
      await handle.close();
    }
    // A new file's name lives in its directory: sync that too, or a power cut can lose the file whole.
    if (created) await syncDirectory(path.dirname(file));
    this.appended.add(file);
  }

  async exists(file: string): Promise<boolean> {
    try {
      await stat(file);
      return true;
    } catch (err) {
      if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR')) return false;
      throw err;
    }
  }

  async mkdirp(dir: string): Promise<void> {
    await mkdir(dir, { recursive: true });
  }

  async mkdirExclusive(dir: string): Promise<boolean> {
    try {
      await mkdir(dir);
      return true;
    } catch (err) {
      if (isCode(err, 'EEXIST')) return false;
      throw err;
    }
  }

  async list(dir: string): Promise<string[]> {
    try {
      return (await readdir(dir)).sort();
    } catch (err) {
      if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR')) return [];
      throw err;
    }
  }

  join(...parts: string[]): string {
    return path.join(...parts);
  }

  resolve(...parts: string[]): string {
    return path.resolve(...parts);
  }

  dirname(file: string): string {
    return path.dirname(file);
  }
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    // Windows cannot open or fsync a directory; NTFS journals the entry itself.
    if (!isCode(err, 'EISDIR') && !isCode(err, 'EPERM') && !isCode(err, 'EINVAL') && !isCode(err, 'EACCES')) throw err;
  }
}

function isCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}
