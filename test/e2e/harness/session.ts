/**
 * One e2e session: a fresh run folder, a copy of examples/ as the workspace, Ratchet's freshly built
 * .vsix installed into a fresh profile, code-server, and a fresh chromium on the workbench. Each spec
 * file (or test) opens its own and always disposes it, pass or fail.
 */
import { cp, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { Workbench } from '../pages/Workbench';
import { launchBrowser, type BrowserHandle } from './browser';
import { printFailureDigest } from './failureDigest';
import { installExtension, startCodeServer, type CodeServer, type CodeServerOptions } from './codeServer';
import { artifactsDir, examplesDir, vsixPath } from './paths';

export interface SessionOptions {
  /** Names the run folder and the artifacts (screenshots, kept logs). */
  name: string;
  /** Keep Workspace Trust on (trust specs only). */
  workspaceTrust?: boolean;
  /**
   * Environment for code-server and everything under it (the extension host and Ratchet's
   * language server inherit it). Specs that evolve point Ratchet at the fake LLM through settings
   * instead, as a user would: see evolveFixture.ts.
   */
  env?: Record<string, string>;
  /** Extra user settings (e.g. `ratchet.*`) over the quiet defaults. */
  userSettings?: Record<string, unknown>;
  /**
   * Writes the spec's own files into the workspace folder before code-server starts, so the
   * workbench, the file watcher and Ratchet's activation all see them from the first moment.
   */
  populate?: (folder: string) => Promise<void>;
  /** More .vsix files to install beside Ratchet's (test fixtures: test/e2e/fixtures/). */
  extensions?: string[];
  /** code-server's and VS Code's log level (codeServer.ts). */
  logLevel?: CodeServerOptions['logLevel'];
}

export interface Session {
  readonly runDir: string;
  /** The workspace folder: a throwaway copy of examples/. */
  readonly folder: string;
  readonly server: CodeServer;
  readonly browser: BrowserHandle;
  readonly page: Page;
  readonly workbench: Workbench;
  /** ms from spawning code-server to `.monaco-workbench` visible. */
  readonly startToWorkbenchMs: number;
  /** Saves test/e2e/artifacts/<session>-<label>.png and returns its path. */
  screenshot(label: string): Promise<string>;
  /**
   * Stops the browser and code-server's process group; when asked, keeps the logs under
   * artifacts/ and prints their digest (with `notes`, e.g. what was on screen when a test failed).
   */
  dispose(opts?: { keepLogs?: boolean; notes?: string[] }): Promise<void>;
}

/**
 * User settings every spec session gets on top of the quiet ones (not `npm start`'s profile: a
 * developer keeps their own). Each makes what a spec reads off the screen mean one thing.
 */
export const specUserSettings: Readonly<Record<string, unknown>> = {
  // VS Code in a browser saves 1 s after each change by default; desktop VS Code (and the specs'
  // statements about dirty buffers, undo and what reaches the disk) has auto save off.
  'files.autoSave': 'off',
  // One view line per text line, so the lines read off the editor are the document's lines
  // (VS Code wraps Markdown and prompt files by default).
  'editor.wordWrap': 'off',
  '[markdown]': { 'editor.wordWrap': 'off' },
  '[prompt]': { 'editor.wordWrap': 'off' },
  // The minimap would cover the end of long lines (where inline suggestions draw their text).
  'editor.minimap.enabled': false,
};

/** File-name-safe form of a test or spec name. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
}

export async function openSession(opts: SessionOptions): Promise<Session> {
  const name = slug(opts.name);
  // Under the system tmp, not the repo: code-server puts unix sockets under TMPDIR and their paths
  // must stay under ~107 bytes.
  const runDir = await mkdtemp(join(tmpdir(), `ratchet-e2e-${name.slice(0, 20)}-`));
  const folder = join(runDir, 'workspace', 'examples');
  await cp(examplesDir, folder, { recursive: true });
  await mkdir(artifactsDir, { recursive: true });

  let server: CodeServer | undefined;
  let browser: BrowserHandle | undefined;
  const dispose = async ({ keepLogs = false, notes = [] as string[] } = {}) => {
    await browser?.close();
    await server?.stop();
    if (keepLogs) {
      const kept = join(artifactsDir, `${name}-logs`);
      await rm(kept, { recursive: true, force: true });
      await cp(join(runDir, 'user-data', 'logs'), join(kept, 'user-data-logs'), { recursive: true }).catch(() => undefined);
      for (const file of ['code-server.log', 'install-extension.log', 'browser-console.log']) {
        await cp(join(runDir, file), join(kept, file)).catch(() => undefined);
      }
      // The journals say why a run failed (the run/failed event carries the engine's error).
      await cp(join(folder, '.ratchet', 'runs'), join(kept, 'runs'), { recursive: true }).catch(() => undefined);
      // The run daemons' logs (src/node/daemonAddress.ts puts them under TMPDIR/ratchet-<uid>/).
      const tmp = join(runDir, 'tmp');
      for (const dir of (await readdir(tmp).catch(() => [])).filter((d) => d.startsWith('ratchet-'))) {
        for (const log of (await readdir(join(tmp, dir)).catch(() => [])).filter((f) => f.endsWith('.log'))) {
          await cp(join(tmp, dir, log), join(kept, 'daemons', log.replace(/\.log$/, '.daemon.log'))).catch(() => undefined);
        }
      }
      await printFailureDigest(kept, notes);
    }
    await rm(runDir, { recursive: true, force: true });
  };
  try {
    await opts.populate?.(folder);
    await installExtension(runDir, vsixPath, { env: opts.env });
    for (const vsix of opts.extensions ?? []) await installExtension(runDir, vsix, { env: opts.env });
    server = await startCodeServer({
      runDir,
      folder,
      workspaceTrust: opts.workspaceTrust,
      env: opts.env,
      logLevel: opts.logLevel,
      userSettings: { ...specUserSettings, ...opts.userSettings },
    });
    browser = await launchBrowser(runDir);
    const workbench = new Workbench(browser.page);
    await workbench.open(server.url);
    const startToWorkbenchMs = Date.now() - server.spawnedAt;
    const page = browser.page;
    return {
      runDir,
      folder,
      server,
      browser,
      page,
      workbench,
      startToWorkbenchMs,
      async screenshot(label) {
        const path = join(artifactsDir, `${name}-${slug(label)}.png`);
        await page.screenshot({ path });
        return path;
      },
      dispose,
    };
  } catch (err) {
    await dispose({ keepLogs: true });
    throw err;
  }
}
