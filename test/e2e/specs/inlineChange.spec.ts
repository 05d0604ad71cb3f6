/**
 * Issue #15, part 2: a suggestion is drawn whole, in place. The line it rewrites is struck through
 * and every line it adds is on screen under it without hovering — read from the rendered editor,
 * not from the extension's state — with Accept / Reject lenses that name their keys. The keys answer it with the cursor on
 * the change; one Ctrl+Z after Accept gives the file back byte for byte, Reject leaves it as it
 * was, the drawing comes back after a window reload, and the suggestion's diff tab closes when the
 * suggestion is answered.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { useSession } from '../harness/specSession';
import { waitHidden, waitUntil, waitVisible } from '../pages/waits';

/** The prompt's last line, which the proposer's edit 1 rewrites. */
const REWRITTEN = 'End with "The answer is N".';
const KEYS_HINT = /Accept Ctrl\+Shift\+Enter · Reject Ctrl\+Shift\+Backspace/;

describe('issue #15: the whole change drawn in place, answered by keyboard', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    // One candidate per run: each run ends once its suggestion is answered. Its edit rewrites the
    // prompt's last line: one line removed, two added in its place.
    fixture = await startEvolveFixture({ mode: 'suggest', candidates: 1, gainAt: 1, gainReplaces: REWRITTEN });
    return {
      options: { name: 'inlineChange', userSettings: fixture.userSettings, populate: (folder) => fixture.populate(folder) },
      cleanup: () => fixture.close(),
    };
  });

  /** What the proposer's edit 1 puts in place of the rewritten line: its marker and its hint. */
  const addedLines = () => ['<!-- edit:1 -->', fixture.hint(1)];
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
    await editor.waitForCodeLens(/Accept c1/, 90_000);
  }

  /**
   * Waits until edit 1 is drawn whole: the rewritten line struck through, and under it one block
   * of added lines that are exactly edit 1's, every line of them visible.
   */
  async function waitForWholeChange(): Promise<void> {
    const { editor } = session().workbench;
    let seen: unknown;
    await waitUntil(
      async () => {
        const blocks = await editor.addedLineBlocks();
        const struck = await editor.struckThroughLines();
        seen = { blocks, struck };
        const whole = blocks.length === 1 && JSON.stringify(blocks[0]!.lines) === JSON.stringify(addedLines()) && blocks[0]!.allVisible;
        return whole && JSON.stringify(struck) === JSON.stringify([REWRITTEN]) ? true : undefined;
      },
      () => `'${REWRITTEN}' struck through and one block of added lines showing ${JSON.stringify(addedLines())}, all visible (drawn: ${JSON.stringify(seen)})`,
      30_000,
    );
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
    // The lenses name their keys, as the Keyboard Shortcuts editor lists them.
    expect(await editor.codeLensTexts()).toEqual(expect.arrayContaining(['Accept c1 (Ctrl+Shift+Enter)', 'Reject (Ctrl+Shift+Backspace)', 'Diff', 'Evidence']));
    // Only drawn: the document is untouched until Accept.
    expect(await editor.text()).not.toContain(fixture.hint(1));
    await s.workbench.parkMouse();
    await s.screenshot('inline-change');

    // The suggestion's diff, in a tab of its own, then back to the prompt.
    await editor.clickCodeLens('Diff');
    const diffTab = s.page.locator('.tab').filter({ hasText: /Ratchet suggestion c1/ });
    await waitVisible(diffTab, 'the suggestion diff tab');
    await editor.openFile(fixture.promptRelative);

    await cursorOnChange(onDisk);
    await s.page.keyboard.press('Control+Shift+Enter');
    await editor.waitForText(fixture.hint(1));
    await waitUntil(async () => ((await editor.codeLensTexts()).some((t) => /Accept/.test(t)) ? undefined : true), 'the Accept lens to go away after Accept');
    expect(await editor.addedLineBlocks()).toEqual([]);
    expect(await editor.struckThroughLines()).toEqual([]);
    // The answered suggestion's diff would compare the file with nothing: its tab is closed.
    await waitHidden(diffTab, 'the suggestion diff tab, closed once the suggestion was accepted');
    // Written as one edit, and only the edit: the key's own action (insert a line) did not run.
    expect(await editor.text()).toBe(accepted(onDisk));

    await editor.undo();
    await editor.waitForNoText(fixture.hint(1));
    expect(await editor.text()).toBe(onDisk);
    await waitHidden(editor.activeTab().and(s.page.locator('.dirty')), 'the dirty mark after one Ctrl+Z (back to the saved text)');
    expect(await readFile(join(s.folder, fixture.promptRelative), 'utf8')).toBe(onDisk);
    await s.workbench.ratchetPanel.waitForStatus('finished', 60_000);
  });

  it('draws the change again after a window reload, and the keyboard Rejects it, leaving the text as it was; its diff tab closes', async () => {
    const s = session();
    const { editor, palette } = s.workbench;
    const onDisk = await readFile(join(s.folder, fixture.promptRelative), 'utf8');
    await evolveToSuggestion();
    await waitForWholeChange();

    // The old page's workbench stays on screen until the reload navigates away: wait for the new page.
    const reloaded = s.page.waitForEvent('load', { timeout: 90_000 });
    await palette.run('Developer: Reload Window');
    await reloaded;
    await s.workbench.waitForReady();
    await editor.openFile(fixture.promptRelative, 60_000);
    await editor.waitForCodeLens(/Accept c1/, 90_000);
    await waitForWholeChange();
    // The suggestion's diff, opened after the reload: Reject closes it too.
    await editor.clickCodeLens('Diff');
    const diffTab = s.page.locator('.tab').filter({ hasText: /Ratchet suggestion c1/ });
    await waitVisible(diffTab, 'the suggestion diff tab');
    await editor.openFile(fixture.promptRelative);

    await cursorOnChange(onDisk);
    await s.page.keyboard.press('Control+Shift+Backspace');
    await waitUntil(async () => ((await editor.codeLensTexts()).some((t) => /Accept|Reject/.test(t)) ? undefined : true), 'the suggestion lenses to go away after Reject', 30_000);
    expect(await editor.addedLineBlocks()).toEqual([]);
    expect(await editor.struckThroughLines()).toEqual([]);
    await waitHidden(diffTab, 'the suggestion diff tab, closed once the suggestion was rejected');
    // Nothing was written, and the key's own action (delete to the line start) did not run.
    expect(await editor.text()).toBe(onDisk);
    expect(await readFile(join(s.folder, fixture.promptRelative), 'utf8')).toBe(onDisk);
    await waitHidden(editor.activeTab().and(s.page.locator('.dirty')), 'no dirty mark after Reject');
  });
});
