/**
 * What a failed spec leaves on stdout: the tails of the logs that say why (Ratchet's output
 * channel in each extension host, the run daemons' logs) and the last events of each run journal.
 * CI keeps no artifacts, only what was printed, so a failure there has to explain itself here.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const LOG_LINES = 40;
const JOURNAL_EVENTS = 6;

/** Files under `dir` (recursively) whose name passes `keep`. */
async function filesUnder(dir: string, keep: (name: string) => boolean): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && keep(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

async function tail(path: string, lines: number): Promise<string> {
  const text = await readFile(path, 'utf8').catch((err: unknown) => `(unreadable: ${String(err)})`);
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** A journal's last events, one short line each (type and the fields that tell runs apart). */
async function journalTail(path: string): Promise<string> {
  const lines = (await readFile(path, 'utf8').catch(() => '')).trimEnd().split('\n').filter(Boolean);
  return lines
    .slice(-JOURNAL_EVENTS)
    .map((line) => {
      try {
        const e = JSON.parse(line) as { type?: string; at?: number; candidateId?: string; error?: unknown };
        return `${e.at !== undefined ? new Date(e.at).toISOString() : '?'} ${e.type ?? '?'}${e.candidateId ? ` ${e.candidateId}` : ''}${e.error ? ` ${JSON.stringify(e.error)}` : ''}`;
      } catch {
        return `(torn) ${line.slice(0, 120)}`;
      }
    })
    .join('\n');
}

/** Prints the digest of a session's kept logs (see session.ts `dispose({ keepLogs })`). */
export async function printFailureDigest(kept: string, extra: string[] = []): Promise<void> {
  const parts: string[] = [`[e2e failure digest] logs kept under ${kept}`, ...extra];
  for (const path of await filesUnder(kept, (n) => n === 'Ratchet.log' || n.endsWith('.daemon.log'))) {
    parts.push(`--- ${relative(kept, path)} (last ${LOG_LINES} lines)\n${await tail(path, LOG_LINES)}`);
  }
  for (const path of await filesUnder(join(kept, 'runs'), (n) => n === 'events.jsonl')) {
    parts.push(`--- ${relative(kept, path)} (last ${JOURNAL_EVENTS} events)\n${await journalTail(path)}`);
  }
  console.log(parts.join('\n'));
}
