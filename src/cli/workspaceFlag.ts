/**
 * `-w, --workspace <dir>` names a folder that exists: a typo must not become a fresh, empty
 * workspace (folders created, a run's journal and cache written where nobody will look for them).
 * Checked for every subcommand before its action runs.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RatchetError } from '../core/errors';

export function checkWorkspaceFlag(command: Command): void {
  const given: unknown = command.opts()['workspace'];
  const folders = typeof given === 'string' ? [given] : Array.isArray(given) ? given.filter((v): v is string => typeof v === 'string') : [];
  for (const folder of folders) {
    const path = resolve(folder);
    const kind = kindOf(path);
    if (kind === 'folder') continue;
    throw new RatchetError(
      'badInput',
      kind === 'missing'
        ? `--workspace ${folder}: there is no folder ${path}; pass an existing folder (the one that holds, or will hold, .ratchet/), or create it first.`
        : `--workspace ${folder}: ${path} is not a folder; pass the folder that holds, or will hold, .ratchet/.`,
      { field: 'workspace', dir: path },
    );
  }
}

function kindOf(path: string): 'folder' | 'missing' | 'other' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'other';
  } catch {
    return 'missing';
  }
}
