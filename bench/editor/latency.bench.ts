/**
 * bench:editor — how long the editor trails the engine (issue #29 item 2), in the real VS Code
 * (code-server in Chromium, the e2e harness) against the fake endpoint:
 *   - key to lens: from the Accept (Ctrl+Shift+Enter) or Reject (Ctrl+Shift+Backspace) key press
 *     to the moment the suggestion's lenses are gone from the editor;
 *   - reload to suggestion: from "Developer: Reload Window" to the waiting suggestion's Accept lens
 *     drawn again in the reopened file.
 * Each measured on the machine as it is and with both cores busy besides (one spinning process per
 * core); the load average of each sample is printed, since "as it is" may be a busy machine. After each
 * reload it prints what Ratchet's and the run daemon's logs said since, to split the reload. Prints a table;
 * asserts no timing. Usage: npm run bench:editor [-- with ROUNDS=n in the environment]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { describe, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../../test/e2e/harness/evolveFixture';
import { useSession } from '../../test/e2e/harness/specSession';
import { waitUntil, waitVisible } from '../../test/e2e/pages/waits';

const REWRITTEN = 'End with "The answer is N".';
const KEYS_HINT = /Accept Ctrl\+Shift\+Enter · Reject Ctrl\+Shift\+Backspace/;
const ROUNDS = Number(process.env.ROUNDS ?? 2);
/** How often the editor is looked at while timing: the figures are this coarse. */
const LOOK_EVERY_MS = 50;

type Measure = 'Accept key → lenses gone' | 'Reject key → lenses gone' | 'Reload Window → suggestion drawn';
const samples: { load: 'no extra load' | 'both cores busy'; measure: Measure; ms: number; loadAverage: number }[] = [];

describe('bench:editor', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    fixture = await startEvolveFixture({ mode: 'suggest', candidates: 1, gainAt: 1, gainReplaces: REWRITTEN });
    return { options: { name: 'benchEditor', userSettings: fixture.userSettings, populate: (folder) => fixture.populate(folder) }, cleanup: () => fixture.close() };
  });

  async function evolveToSuggestion(): Promise<void> {
    const { editor, ratchetPanel: panel } = session().workbench;
    await editor.openFile(fixture.promptRelative, 60_000);
    await editor.clickCodeLens(/Evolve/, 90_000);
    await panel.waitForStatus('running', 90_000);
    await editor.focusGroup(1);
    await editor.waitForCodeLens(/Accept c1/, 180_000);
  }

  /** Puts the cursor on the change and waits until the status bar says the keys answer it (as inlineChange.spec.ts). */
  async function cursorOnChange(): Promise<void> {
    const s = session();
    const onDisk = await readFile(join(s.folder, fixture.promptRelative), 'utf8');
    await s.workbench.editor.goToLine(onDisk.split('\n').indexOf(REWRITTEN) + 1);
    await waitVisible(s.page.locator('.statusbar-item').filter({ hasText: KEYS_HINT }), 'the status bar naming the review keys');
  }

  /** Milliseconds from `act` until `done` holds, looked at every LOOK_EVERY_MS. */
  async function timed(act: () => Promise<void>, done: () => Promise<boolean>, what: string): Promise<number> {
    const started = performance.now();
    await act();
    await waitUntil(async () => ((await done()) ? true : undefined), what, 300_000, LOOK_EVERY_MS);
    return performance.now() - started;
  }

  const lensesGone = async () => !(await session().workbench.editor.codeLensTexts()).some((t) => /Accept|Reject/.test(t));

  async function round(load: 'no extra load' | 'both cores busy'): Promise<void> {
    const s = session();
    const { editor, palette } = s.workbench;
    const record = (measure: Measure, ms: number) => {
      samples.push({ load, measure, ms, loadAverage: loadavg()[0]! });
      console.log(`bench:editor: ${load}, ${measure}: ${ms.toFixed(0)} ms (load average ${loadavg()[0]!.toFixed(1)})`);
    };

    // Accept by keyboard, then one Ctrl+Z gives the file back for the next round.
    await evolveToSuggestion();
    await cursorOnChange();
    record('Accept key → lenses gone', await timed(() => s.page.keyboard.press('Control+Shift+Enter'), lensesGone, 'the lenses gone after Accept'));
    await editor.waitForText(fixture.hint(1));
    await editor.undo();
    await editor.waitForNoText(fixture.hint(1));
    await s.workbench.ratchetPanel.waitForStatus('finished', 120_000);

    // A waiting suggestion across a reload, then Reject by keyboard.
    await evolveToSuggestion();
    let reloadedAt = Date.now();
    const reloaded = s.page.waitForEvent('load', { timeout: 300_000 });
    record(
      'Reload Window → suggestion drawn',
      await timed(
        async () => {
          // Where the time goes, printed per round: the workbench's own reload, reopening the file,
          // then (the rest of the figure) the suggestion reaching the editor again.
          const t0 = performance.now();
          reloadedAt = Date.now();
          await palette.run('Developer: Reload Window');
          await reloaded;
          await s.workbench.waitForReady(300_000);
          const t1 = performance.now();
          await editor.openFile(fixture.promptRelative, 120_000);
          console.log(`bench:editor: ${load}, reload: workbench ready after ${(t1 - t0).toFixed(0)} ms, file open after ${(performance.now() - t0).toFixed(0)} ms`);
        },
        async () => (await editor.codeLensTexts()).some((t) => /Accept c1/.test(t)),
        'the Accept lens after the reload',
      ),
    );
    await printReloadTrace(s.runDir, reloadedAt);
    await cursorOnChange();
    record('Reject key → lenses gone', await timed(() => s.page.keyboard.press('Control+Shift+Backspace'), lensesGone, 'the lenses gone after Reject'));
    await s.workbench.ratchetPanel.waitForStatus('finished', 120_000);
  }

  it('no extra load', async () => {
    for (let i = 0; i < ROUNDS; i++) await round('no extra load');
  });

  it('both cores busy', async () => {
    const spinners: ChildProcess[] = Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    try {
      for (let i = 0; i < ROUNDS; i++) await round('both cores busy');
    } finally {
      for (const p of spinners) p.kill('SIGKILL');
    }
    printTable();
  });
});

/**
 * Where the reload's time went after the workbench: what Ratchet's log (the extension and its
 * language server) and the run daemon's log said after `since`, each line at its offset from it.
 */
async function printReloadTrace(runDir: string, since: number): Promise<void> {
  const logs = await readdir(runDir, { recursive: true, withFileTypes: true });
  // The daemons' logs are in the session's TMPDIR, in a ratchet-… folder (session.ts keeps them the same way).
  const daemonLog = (dir: string, name: string) => dir.startsWith(join(runDir, 'tmp', 'ratchet-')) && name.endsWith('.log');
  const paths = logs.filter((e) => e.isFile() && (e.name === 'Ratchet.log' || daemonLog(e.parentPath, e.name))).map((e) => join(e.parentPath, e.name));
  const lines: { at: number; text: string }[] = [];
  for (const path of paths) {
    for (const line of (await readFile(path, 'utf8')).split('\n')) {
      // Ratchet.log: "2026-12-02 14:52:01.123 [info] …" (local time); a daemon log: "2026-12-02T14:52:01.123Z …".
      const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d\.\d{3})(Z?) (.*)$/.exec(line);
      if (!m) continue;
      const at = new Date(`${m[1]}T${m[2]}${m[3]}`).getTime();
      if (at >= since) lines.push({ at, text: `${path.endsWith('Ratchet.log') ? 'Ratchet' : 'daemon'}: ${m[4]!.slice(0, 140)}` });
    }
  }
  lines.sort((a, b) => a.at - b.at);
  console.log(`bench:editor: reload trace (ms after Reload Window)\n${lines.map((l) => `  +${l.at - since} ${l.text}`).join('\n')}`);
}

function printTable(): void {
  const rows: string[] = ['| load | measure | n | median ms | min ms | max ms | load average |', '|---|---|---|---|---|---|---|'];
  for (const load of ['no extra load', 'both cores busy'] as const) {
    for (const measure of ['Accept key → lenses gone', 'Reject key → lenses gone', 'Reload Window → suggestion drawn'] as const) {
      const xs = samples.filter((s) => s.load === load && s.measure === measure);
      if (xs.length === 0) continue;
      const ms = xs.map((s) => s.ms).sort((a, b) => a - b);
      const la = xs.map((s) => s.loadAverage);
      rows.push(`| ${load} | ${measure} | ${ms.length} | ${ms[Math.floor(ms.length / 2)]!.toFixed(0)} | ${ms[0]!.toFixed(0)} | ${ms.at(-1)!.toFixed(0)} | ${Math.min(...la).toFixed(1)}–${Math.max(...la).toFixed(1)} |`);
    }
  }
  console.log(`\nbench:editor — ${ROUNDS} round(s) per load, looked at every ${LOOK_EVERY_MS} ms\n\n${rows.join('\n')}\n`);
}
