/**
 * An evaluation's result files, read only when every process of the evaluation is gone, and the
 * proof that nothing wrote them after the evaluator ended: a fingerprint of the results folder is
 * taken as the evaluator exits, and compared once the rest of the evaluation is dead. A late write
 * (a background process of the program rewriting metrics.json) voids the evaluation.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { fromRatchetOutput, fromShinkaResults } from '../../core/code/evaluation';
import type { Evaluation } from '../../core/code/evaluation';

/** The most of a result file (metrics.json, correct.json) that is read. */
const RESULT_FILE_CAP_BYTES = 16 * 1024 * 1024;

/** The evaluation from the results folder (when the command has one) and stdout. */
export async function readEvaluation(form: 'ratchet' | 'shinka', results: string | undefined, stdout: string): Promise<Evaluation> {
  if (results === undefined) return fromRatchetOutput(stdout);
  if (!(await isRealFolder(results))) return { correct: false, error: 'the results folder was replaced (by a link or a file); its results cannot be trusted' };
  const metrics = await readResultFile(path.join(results, 'metrics.json'));
  if (typeof metrics === 'object') return metrics;
  if (form === 'shinka') {
    const correct = await readResultFile(path.join(results, 'correct.json'));
    if (typeof correct === 'object') return correct;
    return fromShinkaResults(correct, metrics);
  }
  return fromRatchetOutput(stdout, metrics);
}

/**
 * The file's text, undefined when it was not written, or an incorrect evaluation when it cannot be
 * trusted. Only a regular file is read, and only up to its size: the candidate could have left a
 * FIFO (open would block forever) or a symlink to /dev/zero (a read that never ends) in its place.
 */
async function readResultFile(file: string): Promise<string | undefined | Evaluation> {
  const name = path.basename(file);
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT') return undefined;
    return { correct: false, error: `${name} could not be opened (${String(code)}); write a plain file` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { correct: false, error: `${name} is not a regular file; write a plain file` };
    if (info.size > RESULT_FILE_CAP_BYTES) return { correct: false, error: `${name} is ${info.size} bytes, more than the ${RESULT_FILE_CAP_BYTES} read` };
    const buffer = Buffer.alloc(info.size);
    const { bytesRead } = await handle.read(buffer, 0, info.size, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch (err) {
    return { correct: false, error: `${name} could not be read: ${(err as Error).message}` };
  } finally {
    await handle.close();
  }
}

/**
 * What the results folder holds, as one hash: each entry's name, kind, size and (for a regular
 * file up to the read cap) content. Links and special files count by their kind alone (never followed, never opened).
 */
export async function fingerprint(results: string): Promise<string> {
  const hash = createHash('sha256');
  // Without a jail the results folder is the program's to replace: a link to / would have this walk
  // (and hash) the whole file system. A folder that is no longer one counts as its kind alone.
  if (!(await isRealFolder(results))) return hash.update('replaced').digest('hex');
  const walk = async (dir: string, rel: string): Promise<void> => {
    const names = (await readdir(dir).catch(() => [] as string[])).sort();
    for (const name of names) {
      const p = path.join(dir, name);
      const st = await lstat(p).catch(() => undefined);
      if (!st) continue;
      const kind = st.isDirectory() ? 'd' : st.isFile() ? 'f' : st.isSymbolicLink() ? 'l' : 'o';
      hash.update(`${rel}${name}\0${kind}\0${st.size}\0`);
      if (kind === 'd') await walk(p, `${rel}${name}/`);
      else if (kind === 'f' && st.size <= RESULT_FILE_CAP_BYTES) {
        const h = await open(p, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
        if (h) {
          try {
            hash.update(await h.readFile());
          } finally {
            await h.close();
          }
        }
      }
    }
  };
  await walk(results, '');
  return hash.digest('hex');
}

/** A folder, not a link to one (lstat: never followed). */
async function isRealFolder(p: string): Promise<boolean> {
  return (await lstat(p).catch(() => undefined))?.isDirectory() ?? false;
}
