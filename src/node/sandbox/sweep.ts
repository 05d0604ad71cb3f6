/**
 * What a Ratchet process that died left behind — its sandbox folders, its staged support files
 * and any process still running in one of those folders — swept at the next start, once per
 * process, and said (the pre-flight line reports it). A folder's name carries its owner's pid
 * (`ratchet-eval-<pid>-…`, `ratchet-stage-<pid>-…`); a folder whose owner is alive is never touched.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { chmod, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { isAlive } from './sandboxCaps';

export const EVAL_PREFIX = 'ratchet-eval-';
export const STAGE_PREFIX = 'ratchet-stage-';

export interface SweepReport {
  folders: number;
  processes: number;
  /** The pids of the dead owners. */
  owners: number[];
}

let swept: Promise<SweepReport> | undefined;

/** Sweeps the temporary folder once per process; later calls get the first sweep's report. */
export function sweepOnce(dir: string = tmpdir()): Promise<SweepReport> {
  swept ??= sweep(dir);
  return swept;
}

export async function sweep(dir: string): Promise<SweepReport> {
  const report: SweepReport = { folders: 0, processes: 0, owners: [] };
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = new RegExp(`^(?:${EVAL_PREFIX}|${STAGE_PREFIX})(\\d+)-`).exec(name);
    if (!m) continue;
    const owner = Number(m[1]);
    if (owner === process.pid || isAlive(owner)) continue;
    const folder = path.join(dir, name);
    report.processes += killProcessesIn(folder);
    await makeWritable(folder);
    await rm(folder, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    report.folders++;
    if (!report.owners.includes(owner)) report.owners.push(owner);
  }
  return report;
}

/** Kills every process (of ours to see) whose working directory is inside `folder`: a leftover of a dead run. */
function killProcessesIn(folder: string): number {
  if (process.platform !== 'linux') return 0;
  let killed = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let cwd: string;
    try {
      cwd = readlinkSync(`/proc/${name}/cwd`);
    } catch {
      continue;
    }
    if (cwd === folder || cwd.startsWith(`${folder}/`)) {
      try {
        process.kill(Number(name), 'SIGKILL');
        killed++;
      } catch {
        // Gone.
      }
    }
  }
  return killed;
}

/** Staged files are read-only, and a program may have made its folders so: restore write permission so rm can work. */
export async function makeWritable(folder: string): Promise<void> {
  const walk = async (p: string): Promise<void> => {
    await chmod(p, 0o755).catch(() => undefined);
    for (const e of await readdir(p, { withFileTypes: true }).catch(() => [])) {
      if (e.isDirectory()) await walk(path.join(p, e.name));
    }
  };
  await walk(folder);
}

/** The sweep in words, or undefined when there was nothing to sweep. */
export function sweepWords(r: SweepReport): string | undefined {
  if (r.folders === 0 && r.processes === 0) return undefined;
  const what = [`${r.folders} sandbox folder${r.folders === 1 ? '' : 's'}`, ...(r.processes > 0 ? [`${r.processes} process${r.processes === 1 ? '' : 'es'} still running in them`] : [])].join(' and ');
  return `swept ${what} left by Ratchet process${r.owners.length === 1 ? '' : 'es'} that died (pid ${r.owners.join(', ')})`;
}
