/**
 * A generated dev set and its test split are one pair: written together, or neither. Each file is
 * replaced atomically (write-then-rename, fsync'd); when the second cannot be written, the first is
 * put back as it was, byte for byte, so `--force` never leaves a new dev set beside an old test
 * split. What could not be put back is said, not glossed over.
 */
import { readFile, rm } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import { RatchetError } from '../../core/errors';
import type { NodeFiles } from '../files';
import { errnoCode } from '../inputFile';

export interface PairFile {
  path: string;
  text: string;
}

/**
 * Writes `first`, then `second`. Throws `badInput` naming the file that failed; `details.unmatched`
 * is true only when `first` was replaced and could not be put back.
 */
export async function writeFilePair(files: NodeFiles, first: PairFile, second: PairFile): Promise<void> {
  const before = await bytesOf(first.path);
  try {
    await files.mkdirp(files.dirname(first.path));
    await files.writeTextAtomic(first.path, first.text);
  } catch (err) {
    throw new RatchetError('badInput', `${first.path} could not be written (${why(err)}); nothing was written: ${first.path} and ${second.path} are as they were.`, { file: first.path }, err);
  }
  try {
    await files.mkdirp(files.dirname(second.path));
    await files.writeTextAtomic(second.path, second.text);
  } catch (err) {
    try {
      if (before === undefined) await rm(first.path, { force: true });
      else await writeFileAtomic(first.path, before, { fsync: true });
    } catch (restoreErr) {
      throw new RatchetError(
        'badInput',
        `${second.path} could not be written (${why(err)}), and ${first.path}, already replaced, could not be put back (${why(restoreErr)}): the two files do not match. Run again to write both.`,
        { file: second.path, unmatched: true },
        err,
      );
    }
    throw new RatchetError('badInput', `${second.path} could not be written (${why(err)}); ${first.path} was put back, so both files are as they were.`, { file: second.path }, err);
  }
}

/** The file's bytes, or undefined when there is none (a folder in its place is not read: writing over it fails first). */
async function bytesOf(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined;
    throw new RatchetError('badInput', `${path} could not be read before replacing it (${why(err)}); nothing was written.`, { file: path }, err);
  }
}

function why(err: unknown): string {
  return errnoCode(err) ?? (err instanceof Error ? err.message : String(err));
}
