/**
 * Issue #7, spec 2: suggest mode. The gate commits the real edit; it waits inline (links
 * Accept / Reject / Diff / Evidence in the change drawn in place) instead of reaching the file. Accept
 * writes it through the editor (so Ctrl+Z takes it back); a second run's suggestion is rejected,
 * which leaves the text alone, and the panel's lineage says the user rejected it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { useSession } from '../harness/specSession';
import { waitHidden, waitUntil, waitVisible } from '../pages/waits';

describe('spec 2: suggest mode — Accept, Undo, Reject', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    // One candidate per run: each run ends once its suggestion is answered.
    fixture = await startEvolveFixture({ mode: 'suggest', candidates: 1, gainAt: 1 });
    return {
      options: { name: 'suggest', userSettings: fixture.userSettings, populate: (folder) => fixture.populate(folder) },
      cleanup: () => fixture.close(),
    };
  });

  it('shows a gated suggestion inline with Accept / Reject links; Accept changes the file, Ctrl+Z restores it', async () => {
    const s = session();
    const { editor, ratchetPanel: panel } = s.workbench;
    const onDisk = await readFile(join(s.folder, fixture.promptRelative), 'utf8');
    await editor.openFile(fixture.promptRelative);
    await editor.clickCodeLens(/Evolve/, 60_000);
    await panel.waitForReady('ratchet-panel-app');
    // The panel opened beside the editor; the prompt's editor group is the first one.
    await editor.focusGroup(1);

    await editor.waitForSuggestionLink(/Accept c1/, 90_000);
    expect(await editor.suggestionLinkTexts()).toEqual(['Accept c1', 'Reject', 'Diff', 'Evidence']);
    // Not written yet: the edit is only drawn, every line it adds shown under the prompt's last line.
    await waitUntil(async () => ((await editor.addedLineBlocks()).some((b) => b.lines.includes('<!-- edit:1 -->') && b.lines.includes(fixture.hint(1))) ? true : undefined), "the edit's added lines drawn in place", 30_000);
    expect(await editor.text()).not.toContain(fixture.hint(1));
    await s.workbench.parkMouse();
    await s.screenshot('inline-suggestion');

    await editor.clickSuggestionLink(/Accept c1/);
    await editor.waitForText(fixture.hint(1));
    await editor.waitForText('<!-- edit:1 -->');
    // Written through the editor (a dirty buffer on the undo stack), not behind its back on disk.
    await waitVisible(editor.activeTab().and(s.page.locator('.dirty')), 'the prompt tab marked dirty after Accept');
    expect(await readFile(join(s.folder, fixture.promptRelative), 'utf8')).toBe(onDisk);
    await waitUntil(async () => ((await editor.lensAndLinkTexts()).some((t) => /Accept/.test(t)) ? undefined : true), 'the Accept link to go away after Accept');

    await editor.undo();
    await editor.waitForNoText(fixture.hint(1));
    expect(await editor.text()).toBe(onDisk);
    await waitHidden(editor.activeTab().and(s.page.locator('.dirty')), 'the dirty mark after Ctrl+Z (back to the saved text)');
    await panel.waitForStatus('finished', 60_000);
  });

  it('Reject leaves the file untouched and the panel shows the rejection', async () => {
    const s = session();
    const { editor, ratchetPanel: panel } = s.workbench;
    const before = await editor.text();
    // A second run: the proposer offers the same real edit again (the prompt lacks it after the undo).
    await editor.clickCodeLens(/Evolve/, 30_000);
    // The panel follows the new run once the command is done (it reveals the panel, taking focus).
    await panel.waitForStatus('running', 30_000);
    await editor.focusGroup(1);
    await editor.clickSuggestionLink(/Reject/, 90_000);
    await waitUntil(async () => ((await editor.lensAndLinkTexts()).some((t) => /Accept|Reject/.test(t)) ? undefined : true), "the suggestion's links to go away after Reject");
    await panel.waitForStatus('finished', 60_000);
    expect(await editor.text()).toBe(before);
    expect(await editor.text()).not.toContain(fixture.hint(1));
    expect(await readFile(join(s.folder, fixture.promptRelative), 'utf8')).toBe(before);

    await panel.showTab('lineage');
    await waitUntil(async () => ((await panel.lineageLabels()).some((l) => /^c1 committed.*rejected by you/.test(l)) ? true : undefined), `a lineage row 'c1 committed, … rejected by you' (${String(panel.lineageRows)})`);
    await s.screenshot('rejected-in-panel');
  });
});
