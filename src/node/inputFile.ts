/**
 * The one way Ratchet opens a file someone pointed it at — a dataset, run spec, prompt, scorer
 * schema, program, journal (issue #14 §3). Only a regular file is read, or a symbolic link to one:
 * a named pipe used to hang the CLI in open(2) with its signals unanswered, a link to /dev/zero
 * used to fill memory until "Invalid string length", a directory failed as a bare EISDIR. Each is
 * now refused in one sentence naming the file and what it is.
 *
 * The file is opened first and its type read from the open descriptor (fstat), so nothing can be
 * swapped in between the check and the read; O_NONBLOCK makes opening a FIFO return at once
 * (without it the open waits for a writer forever). On a regular file O_NONBLOCK does nothing.
 */
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, readlink, stat } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { RatchetError } from '../core/errors';
import { DEFAULT_INPUT_LIMITS, INPUT_LIMIT_VARIABLES } from '../core/files/inputLimits';
import type { InputLimits } from '../core/files/inputLimits';

export interface InputFile {
  handle: FileHandle;
  /** Bytes, when opened. */
  size: number;
}

/**
 * Opens `file` for reading; undefined when there is no such file. Anything but a regular file, a
 * symbolic link loop, or a file this user may not read is a `badInput` naming the file.
 */
export async function openInputFile(file: string): Promise<InputFile | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw await openFailure(file, err);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw await notRegular(file, st);
    return { handle, size: st.size };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** The limits set in the environment (RATCHET_MAX_FILE_MB, RATCHET_MAX_LINE_MB), else the defaults. */
export function inputLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): InputLimits {
  const limits = { ...DEFAULT_INPUT_LIMITS };
  for (const key of Object.keys(INPUT_LIMIT_VARIABLES) as (keyof InputLimits)[]) {
    const name = INPUT_LIMIT_VARIABLES[key];
    const text = env[name];
    if (text === undefined || text.trim() === '') continue;
    const mb = Number(text);
    if (!Number.isFinite(mb) || mb <= 0) {
      throw new RatchetError('badInput', `${name} must be a number of MB above 0, got ${JSON.stringify(text)}.`, { field: name });
    }
    limits[key] = Math.floor(mb * 1024 * 1024);
  }
  return limits;
}

/** Why open(2) failed, as the user can act on it. */
async function openFailure(file: string, err: unknown): Promise<RatchetError> {
  const code = errnoCode(err);
  const refuse = (why: string) => new RatchetError('badInput', `${file} ${why}.`, { file, code }, err);
  switch (code) {
    case 'ELOOP':
      return refuse('is a symbolic link that leads back to itself (a link loop); point it at a file');
    case 'EACCES':
    case 'EPERM':
      return refuse('cannot be read: permission denied');
    case 'EISDIR':
      return refuse('is a directory, not a file');
    case 'ENXIO':
    case 'EOPNOTSUPP': {
      // A socket (or a device with no driver) cannot be opened at all: say what it is.
      const st = await stat(file).catch(() => undefined);
      return st ? notRegular(file, st) : refuse(`cannot be opened (${code})`);
    }
    default:
      return refuse(`cannot be read (${code ?? (err instanceof Error ? err.message : String(err))})`);
  }
}

async function notRegular(file: string, st: Stats): Promise<RatchetError> {
  const link = await lstat(file).then(
    (l) => (l.isSymbolicLink() ? readlink(file) : undefined),
    () => undefined,
  );
  const what = kindOf(st);
  const why = st.isDirectory() ? 'not a file' : 'not a regular file; Ratchet reads only regular files (a named pipe would wait forever, a device would never end)';
  const message = link === undefined ? `${file} is ${what}, ${why}.` : `${file} is a symbolic link to ${link}, which is ${what}, ${why}.`;
  return new RatchetError('badInput', message, { file });
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'a special file';
}

export function errnoCode(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
