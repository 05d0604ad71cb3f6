/**
 * bench:editor — how long the editor trails the engine (issue #29 item 2), in the real VS Code
 * (code-server in Chromium, the e2e harness) against the fake endpoint:
 *   - key to lens: from the Accept (Ctrl+Shift+Enter) or Reject (Ctrl+Shift+Backspace) key press
 *     to the moment no Accept or Reject of the suggestion is left in the editor — neither a link in
 *     the change (how Ratchet draws them since 2026-12-05) nor a code lens (how it drew them before,
 *     and what a lens of the server's would be if one were let through) — Reject both in the window
 *     the suggestion came to and right after a reload;
 *   - key to change: from the Reject key to the suggestion's added lines gone from the editor;
 *   - reload to suggestion: from "Developer: Reload Window" to the waiting suggestion's Accept
 *     drawn again in the reopened file.
 * Each measured on the machine as it is and with both cores busy besides (one spinning process per
 * core); the load average of each sample is printed, since "as it is" may be a busy machine. After each
 * reload it prints what Ratchet's and the run daemon's logs said since, to split the reload. Prints a table;
 * asserts no timing. Usage: npm run bench:editor [-- with ROUNDS=n in the environment]
 * TRACE=1 adds the extension host's trace lines (each lens request VS Code makes, each command it
 * runs) and every LSP message to the traces; it slows the window, so its figures are not the table's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../../test/e2e/harness/evolveFixture';
import { useSession } from '../../test/e2e/harness/specSession';
import { waitUntil, waitVisible } from '../../test/e2e/pages/waits';

const REWRITTEN = 'End with "The answer is N".';
const KEYS_HINT = /Accept Ctrl\+Shift\+Enter · Reject Ctrl\+Shift\+Backspace/;
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const TRACE = process.env.TRACE === '1';
/** How often the editor is looked at while timing: the figures are this coarse. */
const LOOK_EVERY_MS = 50;

/** The table's rows, in its order. */
const MEASURES = ['Accept key → Accept/Reject gone', 'Reject key → change gone', 'Reject key → Accept/Reject gone', 'Reject key → Accept/Reject gone, after a reload', 'Reload Window → suggestion drawn'] as const;
type Measure = (typeof MEASURES)[number];
type Load = 'no extra load' | 'both cores busy';
const samples: { load: Load; measure: Measure; ms: number; loadAverage: number }[] = [];

describe('bench:editor', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    fixture = await startEvolveFixture({ mode: 'suggest', candidates: 1, gainAt: 1, gainReplaces: REWRITTEN });
    const userSettings = TRACE ? { ...fixture.userSettings, 'ratchet.trace.server': 'messages' } : fixture.userSettings;
    return { options: { name: 'benchEditor', userSettings, logLevel: TRACE ? 'trace' : undefined, populate: (folder) => fixture.populate(folder) }, cleanup: () => fixture.close() };
  });
  beforeAll(async () => {
    // In every page the window loads from now on (a reload too), and in the one open now.
    await session().page.addInitScript(lensClock);
    await session().page.evaluate(lensClock);
  });

  async function evolveToSuggestion(): Promise<void> {
    const { editor, ratchetPanel: panel } = session().workbench;
    await editor.openFile(fixture.promptRelative, 60_000);
    await editor.clickCodeLens(/Evolve/, 90_000);
    await panel.waitForStatus('running', 90_000);
    await editor.focusGroup(1);
    await editor.waitForSuggestionLink(/Accept c1/, 180_000);
  }

  /** Puts the cursor on the change and waits until the status bar says the keys answer it (as inlineChange.spec.ts). */
  async function cursorOnChange(): Promise<void> {
    const s = session();
    const onDisk = await readFile(join(s.folder, fixture.promptRelative), 'utf8');
    await s.workbench.editor.goToLine(onDisk.split('\n').indexOf(REWRITTEN) + 1);
    await waitVisible(s.page.locator('.statusbar-item').filter({ hasText: KEYS_HINT }), 'the status bar naming the review keys');
  }

  /** The page's lens clock (`lensClock` below), read now. */
  const clock = () => session().page.evaluate(() => (window as unknown as { __lensClock: LensClock }).__lensClock);

  /**
   * Milliseconds from the review key going down in the page to the suggestion's Accept/Reject gone from
   * the page, both by the page's own clock (`lensClock`): what the user sees, without the time the
   * bench's keyboard and its looking take.
   */
  async function keyToLensesGone(key: string, what: string): Promise<{ keyAt: number; goneAt: number; changeGoneAt?: number }> {
    const s = session();
    await s.page.evaluate(() => {
      const c = (window as unknown as { __lensClock: LensClock }).__lensClock;
      c.keyAt = undefined;
      c.goneAt = undefined;
      c.changeGoneAt = undefined;
    });
    await s.page.keyboard.press(key);
    let last: LensClock | undefined;
    const { keyAt, goneAt } = await waitUntil(
      async () => {
        const c = (last = await clock());
        return c.keyAt !== undefined && c.goneAt !== undefined && c.shown === false ? { keyAt: c.keyAt, goneAt: c.goneAt } : undefined;
      },
      () => `${what} (the page's lens clock: ${JSON.stringify({ ...last, longTasks: undefined })})`,
      300_000,
      LOOK_EVERY_MS,
    );
    const c = await clock();
    printLongTasks(c, keyAt, goneAt);
    // A lens that went with the key and was drawn again (from VS Code's cache) shows here.
    const edited = c.rewrittenGoneAt === undefined ? '' : `; the rewritten line gone from the text +${(c.rewrittenGoneAt - keyAt).toFixed(0)}`;
    const change = c.changeShownAtKey ? (c.changeGoneAt === undefined ? '; the added lines still drawn' : `; the added lines gone +${(c.changeGoneAt - keyAt).toFixed(0)}`) : '; no added lines drawn at the key';
    const atKey = c.stateAtKey === 'text' ? ' (at the key drawn as text, not clickable)' : '';
    console.log(`bench:editor: Accept/Reject${atKey} ${flipsAfter(c, keyAt)}${edited}${change} (ms after the key)`);
    return { keyAt, goneAt, ...(c.changeShownAtKey && c.changeGoneAt !== undefined ? { changeGoneAt: c.changeGoneAt } : {}) };
  }

  function record(load: Load, measure: Measure, ms: number): void {
    samples.push({ load, measure, ms, loadAverage: loadavg()[0]! });
    console.log(`bench:editor: ${load}, ${measure}: ${ms.toFixed(0)} ms (load average ${loadavg()[0]!.toFixed(1)})`);
  }

  async function round(load: Load): Promise<void> {
    const s = session();
    const { editor, palette } = s.workbench;

    // Accept by keyboard, then one Ctrl+Z gives the file back for the next round.
    await evolveToSuggestion();
    await cursorOnChange();
    const accepted = await keyToLensesGone('Control+Shift+Enter', 'Accept/Reject gone after Accept');
    record(load, 'Accept key → Accept/Reject gone', accepted.goneAt - accepted.keyAt);
    await printTrace('the Accept key went down', s.runDir, accepted.keyAt, accepted.goneAt);
    await editor.waitForText(fixture.hint(1));
    await editor.undo();
    await editor.waitForNoText(fixture.hint(1));
    await s.workbench.ratchetPanel.waitForStatus('finished', 120_000);

    // Reject by keyboard in the window the suggestion came to.
    await evolveToSuggestion();
    await cursorOnChange();
    await reject(load, 'Reject key → Accept/Reject gone');

    // A waiting suggestion across a reload, then Reject by keyboard. The window comes back with the
    // prompt's editor restored by VS Code itself: nothing is reopened by hand.
    await evolveToSuggestion();
    const reloaded = s.page.waitForEvent('load', { timeout: 300_000 });
    await palette.run('Developer: Reload Window');
    await reloaded;
    const { enterAt, drawnAt } = await waitUntil(
      async () => {
        const c = await clock().catch(() => undefined);
        return c?.enterAt !== undefined && c.drawnAt !== undefined && c.shown === true ? { enterAt: c.enterAt, drawnAt: c.drawnAt } : undefined;
      },
      "the suggestion's Accept drawn again after the reload",
      300_000,
      LOOK_EVERY_MS,
    );
    record(load, 'Reload Window → suggestion drawn', drawnAt - enterAt);
    printLongTasks(await clock(), enterAt, drawnAt);
    printPage(await clock(), enterAt);
    await printTrace('Enter ran Reload Window', s.runDir, enterAt, drawnAt);
    await editor.focusGroup(1);
    await cursorOnChange();
    await reject(load, 'Reject key → Accept/Reject gone, after a reload');
  }

  /** Rejects the suggestion under the cursor by keyboard; records when its drawing went and when its Accept/Reject did. */
  async function reject(load: Load, measure: 'Reject key → Accept/Reject gone' | 'Reject key → Accept/Reject gone, after a reload'): Promise<void> {
    const rejected = await keyToLensesGone('Control+Shift+Backspace', `Accept/Reject gone after Reject (${measure})`);
    if (rejected.changeGoneAt !== undefined) record(load, 'Reject key → change gone', rejected.changeGoneAt - rejected.keyAt);
    record(load, measure, rejected.goneAt - rejected.keyAt);
    await printTrace('the Reject key went down', session().runDir, rejected.keyAt, rejected.goneAt);
    await session().workbench.ratchetPanel.waitForStatus('finished', 120_000);
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
  });

  afterAll(() => printTable());
});

/** How much of [from, to] the page's main thread spent in long tasks: it draws nothing meanwhile. */
function printLongTasks(c: LensClock, from: number, to: number): void {
  const tasks = c.longTasks.filter(([start, end]) => end > from && start < to);
  const busy = tasks.reduce((sum, [start, end]) => sum + Math.min(end, to) - Math.max(start, from), 0);
  const longest = tasks.reduce((most, [start, end]) => Math.max(most, end - start), 0);
  console.log(`bench:editor: the page's main thread was in long tasks for ${busy.toFixed(0)} of those ${(to - from).toFixed(0)} ms (${tasks.length} tasks, the longest ${longest.toFixed(0)} ms)`);
  const byWhose = new Map<string, number>();
  for (const [start, end, whose] of tasks) byWhose.set(whose, (byWhose.get(whose) ?? 0) + Math.min(end, to) - Math.max(start, from));
  if (byWhose.size > 0) console.log(`bench:editor: of which ${[...byWhose].map(([whose, ms]) => `${ms.toFixed(0)} ms ${whose}`).join(', ')}`);
}

/** Each time the suggestion's Accept/Reject came, went or turned to text after `from`, as "+ms" after it. */
function flipsAfter(c: LensClock, from: number): string {
  const words: Record<LensState, string> = { links: 'drawn', text: 'drawn as text (not clickable)', gone: 'gone' };
  return c.flips
    .filter(([t]) => t >= from)
    .map(([t, state]) => `${words[state]} +${(t - from).toFixed(0)}`)
    .join(', ');
}

/** When the reopened prompt came on screen, and each time its suggestion's Accept/Reject came or went, after `from`. */
function printPage(c: LensClock, from: number): void {
  console.log(`bench:editor: the prompt's text on screen ${c.editorAt === undefined ? 'never' : `+${(c.editorAt - from).toFixed(0)}`}; its suggestion's Accept/Reject ${flipsAfter(c, from) || 'never drawn'} (ms after Enter)`);
}

/** The suggestion's Accept/Reject: drawn as links, drawn as text only (VS Code's cached copy, not clickable), or not drawn. */
type LensState = 'links' | 'text' | 'gone';

/** What `lensClock` keeps in the page, by the page's clock (Date.now()). */
interface LensClock {
  /** The last Ctrl+Shift+Enter or Ctrl+Shift+Backspace went down. */
  keyAt?: number;
  /** The last Enter went down in the window before this page was loaded (the Reload Window's). */
  enterAt?: number;
  /** A suggestion's Accept was last drawn, or its Accept/Reject last gone. */
  drawnAt?: number;
  goneAt?: number;
  /** Whether the suggestion's Accept/Reject are in the page now. */
  shown?: boolean;
  /** How the suggestion's Accept/Reject are drawn now. */
  state?: LensState;
  /** Each time how the suggestion's Accept/Reject are drawn changed. */
  flips: [number, LensState][];
  /** The reopened prompt's text first on screen in this page. */
  editorAt?: number;
  /** After the last review key, the line the suggestion rewrites first gone from the text on screen (an Accept's edit drawn). */
  rewrittenGoneAt?: number;
  /** How the suggestion's Accept/Reject were drawn when the last review key went down. */
  stateAtKey?: LensState;
  /** Whether the suggestion's added lines (their inline widget) were drawn when the last review key went down. */
  changeShownAtKey?: boolean;
  /** After the last review key, the added lines first gone from the page. */
  changeGoneAt?: number;
  /** The page's main thread's long tasks (over 50 ms), each [start, end] by the page's clock. */
  longTasks: [number, number, string][];
}

/**
 * Runs in the workbench page: notes by the page's own clock when a review key or Enter goes down
 * and when the suggestion's Accept/Reject appear in or leave the page's DOM (a MutationObserver runs
 * before the next paint). The last Enter is kept across a reload in sessionStorage, so a reload is
 * timed from the Enter that ran Reload Window.
 */
function lensClock(): void {
  const w = window as unknown as { __lensClock?: LensClock };
  if (w.__lensClock) return;
  const before = Number(sessionStorage.getItem('benchEditor.enterAt'));
  const clock: LensClock = (w.__lensClock = before > 0 ? { enterAt: before, longTasks: [], flips: [] } : { longTasks: [], flips: [] });
  new PerformanceObserver((list) => {
    // Whose task it was, as far as Chrome tells: the workbench's own window, or a frame in it (a webview, Ratchet's panel among them).
    for (const t of list.getEntries() as (PerformanceEntry & { attribution?: { containerType?: string; containerSrc?: string }[] })[]) {
      const a = t.attribution?.[0];
      const whose = a?.containerType && a.containerType !== 'window' ? `${a.containerType} ${(a.containerSrc ?? '').replace(/\?.*$/, '').slice(-60)}` : 'the workbench window';
      clock.longTasks.push([performance.timeOrigin + t.startTime, performance.timeOrigin + t.startTime + t.duration, whose]);
    }
  }).observe({ type: 'longtask', buffered: true });
  window.addEventListener(
    'keydown',
    (e) => {
      if (e.ctrlKey && e.shiftKey && (e.key === 'Enter' || e.key === 'Backspace')) {
        clock.keyAt = Date.now();
        clock.goneAt = undefined;
        clock.rewrittenGoneAt = undefined;
        clock.changeShownAtKey = changeShown();
        clock.stateAtKey = clock.state;
        clock.changeGoneAt = undefined;
      } else if (e.key === 'Enter') sessionStorage.setItem('benchEditor.enterAt', String(Date.now()));
    },
    true,
  );
  // The added lines of a suggestion are drawn in a comment widget (review/inlineReview.ts), the only one Ratchet draws in the editor.
  const changeShown = () => document.querySelector('.monaco-editor .review-widget') !== null;
  const look = () => {
    // The suggestion's Accept / Reject: links in its widget, or lenses. Every lens's text, not only
    // the links: VS Code redraws a file's lenses from its cache (as plain text, the same titles)
    // whenever the editor's model or language or the providers change, then as links again after
    // its next request. Both are on screen.
    const answers = [...document.querySelectorAll('.codelens-decoration, .monaco-editor .review-widget .comment-body a')].filter((el) => /Accept c\d|Reject/.test(el.textContent ?? ''));
    const now = answers.length > 0;
    // VS Code's copy of the last lenses it had is text without links: drawn, but a click does nothing.
    const state: LensState = !now ? 'gone' : answers.some((el) => el.tagName === 'A' || el.querySelector('a') !== null) ? 'links' : 'text';
    if (state !== clock.state) {
      clock.state = state;
      clock.flips.push([Date.now(), state]);
    }
    const lines = [...document.querySelectorAll('.monaco-editor .view-line')].map((line) => line.textContent ?? '');
    if (clock.editorAt === undefined && lines.some((line) => /You\s+solve/.test(line))) clock.editorAt = Date.now();
    // An Accept's edit on screen: the line the suggestion rewrites is gone from the text.
    if (clock.keyAt !== undefined && clock.changeShownAtKey && clock.changeGoneAt === undefined && !changeShown()) clock.changeGoneAt = Date.now();
    if (clock.keyAt !== undefined && clock.rewrittenGoneAt === undefined && lines.length > 0 && !lines.some((line) => /End\s+with\s+"The\s+answer/.test(line))) clock.rewrittenGoneAt = Date.now();
    if (now === clock.shown) return;
    clock.shown = now;
    if (now) clock.drawnAt = Date.now();
    else clock.goneAt = Date.now();
  };
  const observe = () => new MutationObserver(look).observe(document.documentElement, { subtree: true, childList: true, characterData: true });
  if (document.documentElement) observe();
  else document.addEventListener('DOMContentLoaded', observe, { once: true });
}

/**
 * Where a figure's time went: what the logs said between `since` and `until` (both by the machine's
 * clock, which the page shares), each line at its offset from `since`: Ratchet's log (the extension
 * and its language server), the extension host's lines about its restart and Ratchet's activation,
 * and the run daemon's log.
 */
async function printTrace(what: string, runDir: string, since: number, until: number): Promise<void> {
  const logs = await readdir(runDir, { recursive: true, withFileTypes: true });
  // The daemons' logs are in the session's TMPDIR, in a ratchet-… folder (session.ts keeps them the same way).
  const daemonLog = (dir: string, name: string) => dir.startsWith(join(runDir, 'tmp', 'ratchet-')) && name.endsWith('.log');
  const extHostLog = (name: string) => /exthost\d*\.log$/.test(name);
  const source = (name: string, dir: string): string | undefined => (name === 'Ratchet.log' ? 'Ratchet' : name === 'Ratchet Trace.log' ? 'lsp' : extHostLog(name) ? 'extension host' : daemonLog(dir, name) ? 'daemon' : undefined);
  const lines: { at: number; text: string }[] = [];
  for (const entry of logs) {
    const from = entry.isFile() ? source(entry.name, entry.parentPath) : undefined;
    if (!from) continue;
    for (const line of (await readFile(join(entry.parentPath, entry.name), 'utf8')).split('\n')) {
      // Ratchet.log: "2026-12-02 14:52:01.123 [info] …" (local time); a daemon log: "2026-12-02T14:52:01.123Z …".
      const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d\.\d{3})(Z?) (.*)$/.exec(line);
      if (!m) continue;
      const at = new Date(`${m[1]}T${m[2]}${m[3]}`).getTime();
      const text = m[4]!;
      if (at < since || at > until + 500) continue;
      // Of the extension host's lines, those that split the figure: its restart, Ratchet's activation,
      // and at TRACE=1 the lens requests and commands. Of the LSP messages, not the runs' events.
      if (from === 'extension host' && !/ratchet|terminating|exiting|Lock acquired|initData/i.test(text)) continue;
      if (/CommandsConverter|DiagnosticCollection|registerCommand|provideCodeActions|TreeView|codeAction|runEvent|\$\/progress|setTrace/.test(text)) continue;
      lines.push({ at, text: `${from}: ${text.slice(0, 140)}` });
    }
  }
  lines.sort((a, b) => a.at - b.at);
  console.log(`bench:editor: trace (ms after ${what}; the figure ends at +${until - since})\n${lines.map((l) => `  +${l.at - since} ${l.text}`).join('\n')}`);
}

function printTable(): void {
  const rows: string[] = ['| load | measure | n | median ms | min ms | max ms | load average |', '|---|---|---|---|---|---|---|'];
  for (const load of ['no extra load', 'both cores busy'] as const) {
    for (const measure of MEASURES) {
      const xs = samples.filter((s) => s.load === load && s.measure === measure);
      if (xs.length === 0) continue;
      const ms = xs.map((s) => s.ms).sort((a, b) => a - b);
      const la = xs.map((s) => s.loadAverage);
      rows.push(`| ${load} | ${measure} | ${ms.length} | ${ms[Math.floor(ms.length / 2)]!.toFixed(0)} | ${ms[0]!.toFixed(0)} | ${ms.at(-1)!.toFixed(0)} | ${Math.min(...la).toFixed(1)}–${Math.max(...la).toFixed(1)} |`);
    }
  }
  console.log(`\nbench:editor — ${ROUNDS} round(s) per load, by the page's clock\n\n${rows.join('\n')}\n`);
}
