/**
 * Reads the extension host's log in a run's user-data dir. In code-server the extension host is a
 * "remote" one: logs/<session>/exthost1/remoteexthost.log. It records, at info level, when each
 * extension's activation starts and what triggered it — proof that Ratchet really activated.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ActivationLogEntry {
  /** The log's own timestamp (local time, as written), e.g. "2026-11-29 22:48:23.619". */
  timestamp: string;
  startup: boolean;
  activationEvent: string;
}

/** All extension host logs of the run (one per extension-host session, e.g. after a reload). */
export async function extensionHostLogs(userDataDir: string): Promise<string[]> {
  const logsDir = join(userDataDir, 'logs');
  const files = await readdir(logsDir, { recursive: true }).catch(() => [] as string[]);
  return files.filter((f) => /(^|\/)exthost\d*\/(remote)?exthost\.log$/i.test(f)).map((f) => join(logsDir, f));
}

/** Ratchet's "activation started" line, or undefined while it has not activated. */
export async function findActivation(userDataDir: string, extensionId: string): Promise<ActivationLogEntry | undefined> {
  const escaped = extensionId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const line = new RegExp(`^(\\S+ \\S+) \\[info\\] ExtensionService#_doActivateExtension ${escaped}, startup: (true|false), activationEvent: '([^']*)'`, 'm');
  for (const file of await extensionHostLogs(userDataDir)) {
    const match = line.exec(await readFile(file, 'utf8'));
    if (match) return { timestamp: match[1] ?? '', startup: match[2] === 'true', activationEvent: match[3] ?? '' };
  }
  return undefined;
}

/** Lines where the extension host reports that the extension failed to activate. */
export async function activationFailures(userDataDir: string, extensionId: string): Promise<string[]> {
  const failures: string[] = [];
  for (const file of await extensionHostLogs(userDataDir)) {
    for (const l of (await readFile(file, 'utf8')).split('\n')) {
      if (l.includes(`Activating extension '${extensionId}' failed`) || l.includes(`Activating extension ${extensionId} failed`)) failures.push(l);
    }
  }
  return failures;
}

/**
 * Requests of the extension's providers that failed, as the extension host logs them: the
 * "[id] provider FAILED" line and the error line under it, from every extension host of the run.
 */
export async function providerFailures(userDataDir: string, extensionId: string): Promise<string[]> {
  const failures: string[] = [];
  for (const file of await extensionHostLogs(userDataDir)) {
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines.forEach((l, i) => {
      if (l.includes(`[${extensionId}] provider FAILED`)) failures.push(`${l} ${lines[i + 1] ?? ''}`);
    });
  }
  return failures;
}
