/**
 * Issue #15, part 2: a suggestion is drawn whole, in place. The line it rewrites is struck through
 * and every line it adds is on screen under it without hovering — read from the rendered editor,
 * not from the extension's state — with short Accept / Reject links whose tooltips name their
 * keys. The keys answer it with the cursor on the change, and the palette's Show Evidence opens its
 * evidence; one Ctrl+Z after Accept gives the file back byte for byte, Reject leaves it as it was,
 * the drawing comes back after a window reload, and the suggestion's diff tab closes when the
 * suggestion is answered.
 *
 * Issue #29, item 5, at the harness's default size (1400×900, the panel beside the editor): a long
 * added line wraps inside the widget instead of running under a scrollbar, the links are short
 * (the keys are in their tooltips), and VS Code's Comments panel never opens by itself — neither
 * on first use nor after a reload.
 *
 * Issue #29, item 2: after a reload the waiting change is drawn, links and all, from what the
 * last window kept, before the run process has told the new language server anything; an Accept
 * given then is held until it has, and only then written.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { providerFailures } from '../harness/extensionHostLog';
import { ratchetExtensionId } from '../harness/paths';
import { useSession } from '../harness/specSession';
import type { Editor } from '../pages/Editor';
import { waitHidden, waitUntil, waitVisible } from '../pages/waits';

/** The prompt's last line, which the proposer's edit 1 rewrites. */
const REWRITTEN = 'End with "The answer is N".';
const KEYS_HINT = /Accept Ctrl\+Shift\+Enter · Reject Ctrl\+Shift\+Backspace/;
/** Edit 1's added line: longer than the editor beside the panel is wide, so it must wrap to be read. */
const LONG_HINT = 'Hint 1: read the question twice, underline every quantity it names with its unit, work the arithmetic out step by step on scratch paper, and check the units of the answer before writing it down.';

describe('issue #15: the whole change drawn in place, answered by keyboard', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    // One candidate per run: each run ends once its suggestion is answered. Its edit rewrites the
    // prompt's last line: one line removed, two added in its place.
    fixture = await startEvolveFixture({
      mode: 'suggest',
      candidates: 1,
      gainAt: 1,
      gainReplaces: REWRITTEN,
      scenario: (base) => ({ ...base, proposer: { ...base.proposer, edits: (base.proposer?.edits ?? []).map((e) => (e.id === '1' ? { ...e, text: LONG_HINT } : e)) } }),
    });
    return {
      options: { name: 'inlineChange', userSettings: fixture.userSettings, populate: (folder) => fixture.populate(folder) },
      cleanup: () => fixture.close(),
    };
  });

  /** What the proposer's edit 1 puts in place of the rewritten line: its marker and its hint. */
  const addedLines = () => ['<!-- edit:1 -->', LONG_HINT];
  const accepted = (text: string) => text.replace(REWRITTEN, addedLines().join('\n'));
  /** The 1-based line of the change: the rewritten line, under which the added lines are drawn. */
  const changeLine = (text: string) => text.split('\n').indexOf(REWRITTEN) + 1;

  async function evolveToSuggestion(): Promise<void> {
    const s = session();
    const { editor, ratchetPanel: panel } = s.workbench;
    await editor.clickCodeLens(/Evolve/, 60_000);
    await panel.waitForStatus('running', 60_000);
    // The panel opened beside the editor; the prompt's editor group is the first one.
    await editor.focusGroup(1);
    await editor.waitForSuggestionLink(/Accept c1/, 90_000);
  }

  /**
   * Waits until the change as the editor draws it — its blocks of added lines and its struck-through
   * lines, read from the rendered editor — passes `drawn`; `expected` says in words what it waits for.
   */
  async function waitForDrawing(drawn: (d: { blocks: Awaited<ReturnType<Editor['addedLineBlocks']>>; struck: string[] }) => boolean, expected: string): Promise<void> {
    const { editor } = session().workbench;
    let seen: unknown;
    await waitUntil(
      async () => {
        const d = { blocks: await editor.addedLineBlocks(), struck: await editor.struckThroughLines() };
        seen = d;
        return drawn(d) ? true : undefined;
      },
      () => `${expected} (drawn: ${JSON.stringify(seen)})`,
      30_000,
    );
  }

  /**
   * Waits until edit 1 is drawn whole: the rewritten line struck through, and under it one block
   * of added lines that are exactly edit 1's, every line of them visible, the long one wrapped.
   */
  async function waitForWholeChange(): Promise<void> {
    await waitForDrawing(
      ({ blocks, struck }) => blocks.length === 1 && JSON.stringify(blocks[0]!.lines) === JSON.stringify(addedLines()) && blocks[0]!.allVisible && blocks[0]!.rows[1]! > 1 && JSON.stringify(struck) === JSON.stringify([REWRITTEN]),
      `'${REWRITTEN}' struck through and one block of added lines showing ${JSON.stringify(addedLines())}, all visible, the long one on several rows`,
    );
  }

  /** VS Code's Comments panel was not summoned: the user never asked for it. */
  async function expectNoCommentsPanel(): Promise<void> {
    expect(await session().page.locator('.comments-panel').isVisible()).toBe(false);
  }

  /**
   * Waits until nothing of the change is drawn: no added lines, nothing struck through. The drawing
   * goes when the key is pressed, its links with it.
   */
  async function waitForNoChange(answer: string): Promise<void> {
    await waitForDrawing(({ blocks, struck }) => blocks.length === 0 && struck.length === 0, `no added lines and nothing struck through after ${answer}`);
  }

  /** Reloads the window and waits until the prompt's change is drawn whole again, its Accept link with it. */
  async function reloadToTheChange(): Promise<void> {
    const s = session();
    // The old page's workbench stays on screen until the reload navigates away: wait for the new page.
    const reloaded = s.page.waitForEvent('load', { timeout: 90_000 });
    await s.workbench.palette.run('Developer: Reload Window');
    await reloaded;
    await s.workbench.waitForReady();
    await s.workbench.editor.openFile(fixture.promptRelative, 60_000);
    await s.workbench.editor.waitForSuggestionLink(/Accept c1/, 90_000);
    await waitForWholeChange();
  }

  /** The process that holds the run going on (its lock.json): the run daemon. */
  async function runOwnerPid(): Promise<number> {
    const runs = join(session().folder, '.ratchet', 'runs');
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (const runId of await readdir(runs)) {
      const lock = await readFile(join(runs, runId, 'lock.json'), 'utf8').catch(() => undefined);
      const pid = lock === undefined ? undefined : (JSON.parse(lock) as { pid: number }).pid;
      if (pid !== undefined && alive(pid)) return pid;
    }
    throw new Error(`no run under ${runs} is held by a live process`);
  }

  /** Puts the cursor on the change and waits until the status bar says the keys answer it. */
  async function cursorOnChange(onDisk: string): Promise<void> {
    const s = session();
    await s.workbench.editor.goToLine(changeLine(onDisk));
    await waitVisible(s.page.locator('.statusbar-item').filter({ hasText: KEYS_HINT }), 'the status bar naming the review keys');
  }

  it('draws every added line in place without hovering; the keyboard Accepts; one Ctrl+Z restores the file; the diff tab closes', async () => {
    const s = session();
    const { editor } = s.workbench;
    const onDisk = await readFile(join(s.folder, fixture.promptRelative), 'utf8');
    await editor.openFile(fixture.promptRelative);
    await evolveToSuggestion();

    await waitForWholeChange();
    // Short links in the change; their tooltips name the keys, as the Keyboard Shortcuts editor lists
    // them. No lens of the suggestion's: the server's are left out, the change carries its own.
    expect(await editor.suggestionLinkTexts()).toEqual(['Accept c1', 'Reject', 'Diff', 'Evidence']);
    expect(await editor.suggestionLinkTooltips()).toEqual(['Accept c1 (Ctrl+Shift+Enter)', 'Reject (Ctrl+Shift+Backspace)', 'Diff', 'Evidence']);
    expect((await editor.codeLensTexts()).filter((t) => /Accept|Reject|Diff|Evidence/.test(t))).toEqual([]);
    await expectNoCommentsPanel();
    // Only drawn: the document is untouched until Accept.
    expect(await editor.text()).not.toContain(LONG_HINT);
    await s.workbench.parkMouse();
    await s.screenshot('inline-change');

    // The suggestion's diff, in a tab of its own, then back to the prompt.
    await editor.clickSuggestionLink('Diff');
    const diffTab = s.page.locator('.tab').filter({ hasText: /Ratchet suggestion c1/ });
    await waitVisible(diffTab, 'the suggestion diff tab');
    await editor.openFile(fixture.promptRelative);

    // The keyboard's way to the Evidence link (Tab does not reach into VS Code's comment widget):
    // from the palette, with the prompt's editor active, the drawn suggestion's evidence.
    await cursorOnChange(onDisk);
    await s.workbench.palette.run('Ratchet: Show Evidence');
    await waitVisible(s.workbench.ratchetPanel.locator('ratchet-evidence-view h2').filter({ hasText: /^Candidate c1: / }), "c1's Evidence in the panel, from the palette");
    await editor.focusGroup(1);

    await cursorOnChange(onDisk);
    await s.page.keyboard.press('Control+Shift+Enter');
    await editor.waitForText(LONG_HINT);
    await waitUntil(async () => ((await editor.lensAndLinkTexts()).some((t) => /Accept/.test(t)) ? undefined : true), 'the Accept link to go away after Accept');
    await waitForNoChange('Accept');
    // The answered suggestion's diff would compare the file with nothing: its tab is closed.
    await waitHidden(diffTab, 'the suggestion diff tab, closed once the suggestion was accepted');
    // Written as one edit, and only the edit: the key's own action (insert a line) did not run.
    expect(await editor.text()).toBe(accepted(onDisk));

    await editor.undo();
    await editor.waitForNoText(LONG_HINT);
    expect(await editor.text()).toBe(onDisk);
    await waitHidden(editor.activeTab().and(s.page.locator('.dirty')), 'the dirty mark after one Ctrl+Z (back to the saved text)');
    expect(await readFile(join(s.folder, fixture.promptRelative), 'utf8')).toBe(onDisk);
    await s.workbench.ratchetPanel.waitForStatus('finished', 60_000);
    await expectNoCommentsPanel();
  });

  it('after a reload, draws the waiting change before the run process answers, and holds an Accept given then until it does', async () => {
    const s = session();
    const { editor } = s.workbench;
    const onDisk = await readFile(join(s.folder, fixture.promptRelative), 'utf8');
    await evolveToSuggestion();
    await waitForWholeChange();
    // The run process is stopped (not killed) across the reload: the new language server reaches
    // it but hears nothing from it, so whatever is drawn comes from what the last window kept.
    const daemon = await runOwnerPid();
    process.kill(daemon, 'SIGSTOP');
    try {
      await reloadToTheChange();
      const keyTooltips = ['Accept c1 (Ctrl+Shift+Enter)', 'Reject (Ctrl+Shift+Backspace)'];
      await waitUntil(
        async () => {
          const tooltips = await editor.suggestionLinkTooltips();
          return keyTooltips.every((k) => tooltips.includes(k)) ? true : undefined;
        },
        `the change's links with tooltips ${JSON.stringify(keyTooltips)}`,
        30_000,
      );
      // The status bar says what the run's events and the panel's header say: it waits for you.
      await waitVisible(s.page.locator('.statusbar-item').filter({ hasText: /task\.prompt\.md · c1 waits for your Accept or Reject/ }), 'the status bar saying c1 waits for your answer', 30_000);
      await s.workbench.parkMouse();
      await s.screenshot('drawn-before-the-run-process-answers');

      // Accept now: the change goes from the screen at once, and nothing is written while the
      // server cannot say the suggestion still waits.
      await cursorOnChange(onDisk);
      await s.page.keyboard.press('Control+Shift+Enter');
      await waitForNoChange('Accept, held');
      expect(await editor.text()).toBe(onDisk);
    } finally {
      process.kill(daemon, 'SIGCONT');
    }
    // The run process answers: the server hears the suggestion still waits, and the held Accept goes through.
    await editor.waitForText(LONG_HINT, 60_000);
    expect(await editor.text()).toBe(accepted(onDisk));
    await waitUntil(async () => ((await editor.lensAndLinkTexts()).some((t) => /Accept c1|Reject/.test(t)) ? undefined : true), "the suggestion's links gone after the held Accept", 30_000);
    await s.workbench.ratchetPanel.waitForStatus('finished', 60_000);
    // Back to the text the next test starts from.
    await editor.undo();
    await editor.waitForNoText(LONG_HINT);
    await waitHidden(editor.activeTab().and(s.page.locator('.dirty')), 'the dirty mark after one Ctrl+Z');
  });

  it('draws the change again after a window reload, and the keyboard Rejects it, leaving the text as it was; its diff tab closes', async () => {
    const s = session();
    const { editor } = s.workbench;
    const onDisk = await readFile(join(s.folder, fixture.promptRelative), 'utf8');
    await evolveToSuggestion();
    await waitForWholeChange();

    await reloadToTheChange();
    await expectNoCommentsPanel();
    // The window that went away stopped the server with the editor's requests still out: none of
    // them failed in the extension host's log (each did, at every reload, before).
    expect(await providerFailures(s.server.userDataDir, ratchetExtensionId)).toEqual([]);
    // The server started again from the code Node compiled for its first start, kept in the
    // extension's own storage (serverHost.ts).
    const compileCache = join(s.server.userDataDir, 'User', 'globalStorage', ratchetExtensionId, 'node-compile-cache');
    expect((await readdir(compileCache, { recursive: true })).length).toBeGreaterThan(1);
    await s.workbench.parkMouse();
    await s.screenshot('after-reload');
    // The suggestion's diff, opened after the reload: Reject closes it too.
    await editor.clickSuggestionLink('Diff');
    const diffTab = s.page.locator('.tab').filter({ hasText: /Ratchet suggestion c1/ });
    await waitVisible(diffTab, 'the suggestion diff tab');
    await editor.openFile(fixture.promptRelative);

    await cursorOnChange(onDisk);
    await s.page.keyboard.press('Control+Shift+Backspace');
    await waitUntil(async () => ((await editor.lensAndLinkTexts()).some((t) => /Accept|Reject/.test(t)) ? undefined : true), "the suggestion's links to go away after Reject", 30_000);
    await waitForNoChange('Reject');
    await waitHidden(diffTab, 'the suggestion diff tab, closed once the suggestion was rejected');
    // Nothing was written, and the key's own action (delete to the line start) did not run.
    expect(await editor.text()).toBe(onDisk);
    expect(await readFile(join(s.folder, fixture.promptRelative), 'utf8')).toBe(onDisk);
    await waitHidden(editor.activeTab().and(s.page.locator('.dirty')), 'no dirty mark after Reject');
  });
});
