/**
 * The Files port over node:fs. Its two writes carry the journal's guarantees: `writeTextAtomic`
 * (write-file-atomic: temp file, fsync, rename) never leaves half a run.json, and `appendDurable`
 * resolves only after the bytes reached the disk (fdatasync), which is what lets the engine take
 * its next step knowing the last one is recorded.
 *
 * What Ratchet keeps under a `.ratchet` folder (journals, run.json, lock.json, the LLM cache) holds
 * prompts, outputs and other people's proprietary data: it is created private — directories 0700,
 * files 0600 — whatever the umask, since umask can only take bits away and a shared umask of 022
 * would leave it all readable. Every other path keeps Node's defaults, and a file that exists keeps
 * its mode: `--apply` rewrites the user's own prompt file and must not chmod it.
 *
 * Reads go through inputFile.ts: only regular files, and none larger than `limits.maxFileBytes`;
 * `tryReadLines` streams a file's lines (a JSONL dataset), refusing a line past `limits.maxLineChars`.
 */
import { isUtf8 } from 'node:buffer';
import { chmod, open, mkdir, readdir, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { RatchetError } from '../core/errors';
import { fileTooLargeMessage, lineTooLongMessage } from '../core/files/inputLimits';
import type { InputLimits } from '../core/files/inputLimits';
import { notUtf8Message, scanUtf8 } from '../core/files/utf8';
import type { Utf8Scan } from '../core/files/utf8';
import type { Files } from '../core/ports';
import { errnoCode, inputLimitsFromEnv, openInputFile } from './inputFile';

export class NodeFiles implements Files {
  /** Files this instance has appended to: their directory entry is already synced. */
  private readonly appended = new Set<string>();
  private fixedLimits: InputLimits | undefined;

  /** `limits` defaults to the environment's (read on first use, so a bad value fails a read, not a start). */
  constructor(limits?: InputLimits) {
    this.fixedLimits = limits;
  }

  get limits(): InputLimits {
    this.fixedLimits ??= inputLimitsFromEnv();
    return this.fixedLimits;
  }

  async readText(file: string): Promise<string> {
    const text = await this.tryReadText(file);
    if (text === undefined) throw new RatchetError('notFound', `No file ${file}.`, { file });
    return text;
  }

  async tryReadLines(file: string): Promise<AsyncIterable<string> | undefined> {
    const limits = this.limits;
    const input = await openInputFile(file);
    if (input === undefined) return undefined;
    if (input.size > limits.maxFileBytes) {
      await input.handle.close();
      throw new RatchetError('badInput', `${file} ${fileTooLargeMessage(input.size, limits)}.`, { file, size: input.size });
    }
    return linesOf(input.handle, file, limits);
  }

  async tryReadText(file: string): Promise<string | undefined> {
    const limits = this.limits;
    const input = await openInputFile(file);
    if (input === undefined) return undefined;
    try {
      if (input.size > limits.maxFileBytes) {
        throw new RatchetError('badInput', `${file} ${fileTooLargeMessage(input.size, limits)}.`, { file, size: input.size });
      }
      return strictUtf8(await input.handle.readFile(), file);
    } catch (err) {
      if (RatchetError.is(err)) throw err;
      throw new RatchetError('badInput', `${file} could not be read (${errnoCode(err) ?? (err instanceof Error ? err.message : String(err))}).`, { file }, err);
    } finally {
      await input.handle.close();
    }
  }

  async writeTextAtomic(file: string, text: string): Promise<void> {
    // write-file-atomic chmods its temp file to `mode` (so no umask applies); without one it copies
    // the mode of the file it replaces.
    await writeFileAtomic(file, text, { encoding: 'utf8', fsync: true, ...(isPrivate(file) ? { mode: FILE_MODE } : {}) });
  }

  async appendDurable(file: string, text: string): Promise<void> {
    const created = !this.appended.has(file) && !(await this.exists(file));
    const handle = await open(file, 'a', isPrivate(file) ? FILE_MODE : 0o666);
    try {
      // open's mode is umasked and only applies to a new file: set it exactly, once per file.
      if (isPrivate(file) && !this.appended.has(file)) await handle.chmod(FILE_MODE);
      await handle.writeFile(text, 'utf8');
      await handle.datasync();
    } finally {
      await handle.close();
    }
    // A new file's name lives in its directory: sync that too, or a power cut can lose the file whole.
    if (created) await syncDirectory(path.dirname(file));
    this.appended.add(file);
  }

  /** A regular file (not a folder, pipe or device) at `file`, following links. */
  async isFile(file: string): Promise<boolean> {
    try {
      return (await stat(file)).isFile();
    } catch (err) {
      if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR')) return false;
      throw err;
    }
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
    const top = privateTop(dir);
    if (top === undefined) {
      await mkdir(dir, { recursive: true });
      return;
    }
    // The folders above `.ratchet` are the user's: made (if at all) with the defaults.
    await mkdir(path.dirname(top), { recursive: true });
    const first = await mkdir(dir, { recursive: true, mode: DIR_MODE });
    if (first === undefined) return;
    // Every folder this call made, from the outermost down; umask may have taken bits from each.
    for (let d = path.resolve(dir); ; d = path.dirname(d)) {
      await chmod(d, DIR_MODE);
      if (d === path.resolve(first) || d === path.dirname(d)) break;
    }
  }

  async mkdirExclusive(dir: string): Promise<boolean> {
    try {
      if (isPrivate(dir)) {
        await mkdir(dir, { mode: DIR_MODE });
        await chmod(dir, DIR_MODE);
      } else {
        await mkdir(dir);
      }
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

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/** The outermost `.ratchet` folder on the path (itself included), or undefined when there is none. */
function privateTop(p: string): string | undefined {
  const parts = path.resolve(p).split(path.sep);
  const i = parts.indexOf('.ratchet');
  return i < 0 ? undefined : parts.slice(0, i + 1).join(path.sep) || path.sep;
}

function isPrivate(p: string): boolean {
  return privateTop(p) !== undefined;
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

/** The lines of an open file, chunk by chunk; a line past the cap is refused at its number, unread beyond it, and a byte that is not UTF-8 at its offset. */
async function* linesOf(handle: FileHandle, file: string, limits: InputLimits): AsyncGenerator<string> {
  // Not read to its end: its length is unknown, only that it is over the limit.
  const tooLong = (line: number) => new RatchetError('badInput', `${file}:${line}: ${lineTooLongMessage(undefined, limits)}.`, { file, line });
  try {
    let partial = '';
    let line = 1;
    // Bytes of a character the last chunk cut off, and how many bytes of the file came before them.
    let carry: Buffer = Buffer.alloc(0);
    let offset = 0;
    for await (const raw of handle.createReadStream({ autoClose: false, start: 0 }) as AsyncIterable<Buffer>) {
      const bytes = carry.length === 0 ? raw : Buffer.concat([carry, raw]);
      const scan: Utf8Scan = isUtf8(bytes) ? { complete: bytes.length } : scanUtf8(bytes);
      const chunk = bytes.toString('utf8', 0, scan.complete);
      let start = 0;
      for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
        const text = partial + chunk.slice(start, nl);
        partial = '';
        if (text.length > limits.maxLineChars) throw tooLong(line);
        yield text;
        line++;
        start = nl + 1;
      }
      partial += chunk.slice(start);
      if (partial.length > limits.maxLineChars) throw tooLong(line);
      if (scan.invalidAt !== undefined) throw notUtf8(file, offset + scan.invalidAt, bytes[scan.invalidAt], line);
      carry = bytes.subarray(scan.complete);
      offset += scan.complete;
    }
    if (carry.length > 0) throw notUtf8(file, offset, undefined, line);
    yield partial;
  } finally {
    await handle.close();
  }
}

/** The file's text, or badInput at the first byte that is not UTF-8 (core/files/utf8.ts says why). */
function strictUtf8(bytes: Buffer, file: string): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  const scan = scanUtf8(bytes);
  const at = scan.invalidAt ?? scan.complete;
  let line = 1;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < at; i = bytes.indexOf(0x0a, i + 1)) line++;
  throw notUtf8(file, at, scan.invalidAt === undefined ? undefined : bytes[at], line);
}

function notUtf8(file: string, offset: number, byte: number | undefined, line: number): RatchetError {
  return new RatchetError('badInput', notUtf8Message(file, offset, byte, line), { file, line, byteOffset: offset });
}
