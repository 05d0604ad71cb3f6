/**
 * The git a pull-request check reads: which commits base and head are, which files changed
 * between them, and a file's text at a commit. Read-only: nothing here writes to the repository.
 */
import { execFile } from 'node:child_process';
import { RatchetError } from '../../core/errors';

/** git's stdout; a failure as one sentence naming the command and git's own words. */
export function git(args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolveOut, reject) => {
    execFile('git', args, { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (!err) return resolveOut(stdout);
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'git is not installed or not on PATH' : (stderr.trim().split('\n')[0] ?? err.message);
      reject(new RatchetError('badInput', `git ${args.join(' ')} failed in ${cwd}: ${why}.`, { command: `git ${args.join(' ')}` }));
    });
  });
}

export async function repoRoot(cwd: string): Promise<string> {
  return (await git(['rev-parse', '--show-toplevel'], cwd)).trim();
}

/** The full commit id a ref names, or a clear error when it names none. */
export async function commitOf(cwd: string, ref: string): Promise<string> {
  try {
    return (await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd)).trim();
  } catch {
    throw new RatchetError('badInput', `${ref} names no commit in this repository (a shallow clone may lack it: fetch with fetch-depth: 0).`, { field: 'ref', ref });
  }
}

/**
 * The default base: where head left the default branch (the merge base with origin's HEAD, else
 * origin/main, origin/master, main, master — the first that exists).
 */
export async function defaultBase(cwd: string, head: string): Promise<string> {
  const candidates: string[] = [];
  const originHead = await git(['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'], cwd).catch(() => '');
  if (originHead.trim() !== '') candidates.push(originHead.trim());
  candidates.push('origin/main', 'origin/master', 'main', 'master');
  for (const ref of candidates) {
    const exists = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd).then(
      () => true,
      () => false,
    );
    if (exists) return (await git(['merge-base', ref, head], cwd)).trim();
  }
  throw new RatchetError('badInput', 'No default branch found to compare with (origin/HEAD, main or master): pass --base REF.', { field: '--base' });
}

/** Files modified between the two commits, repository-relative with '/' (renames read as a removal and an addition). */
export async function modifiedFiles(cwd: string, base: string, head: string): Promise<string[]> {
  const out = await git(['diff', '--name-only', '-z', '--no-renames', '--diff-filter=M', base, head, '--'], cwd);
  return out
    .split('\0')
    .filter((p) => p !== '')
    .sort();
}

/** The file's text at the commit, or undefined when the commit has no such file. */
export async function textAt(cwd: string, commit: string, path: string): Promise<string | undefined> {
  return git(['show', `${commit}:${path}`], cwd).catch(() => undefined);
}
