/**
 * Issue #15, part 5: provenance on the file. After the user accepts a gated suggestion, a hover on
 * a line the edit added says which run and candidate it came from, the gate's evidence, who
 * accepted it and when; the Prompt History view lists the accepted version, and opens its diff.
 */
import { describe, expect, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { useSession } from '../harness/specSession';
import { Provenance } from '../pages/Provenance';
import { waitUntil, waitVisible } from '../pages/waits';

describe('provenance: the blame hover and the Prompt History', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    fixture = await startEvolveFixture({ mode: 'suggest', candidates: 1, gainAt: 1 });
    return {
      options: { name: 'provenance', userSettings: fixture.userSettings, populate: (folder) => fixture.populate(folder) },
      cleanup: () => fixture.close(),
    };
  });

  it('a line from an accepted edit tells its run, candidate, evidence and who accepted it; the history lists the version', async () => {
    const s = session();
    const { editor, ratchetPanel: panel } = s.workbench;
    const provenance = new Provenance(s.page, editor, s.workbench.palette);
    await editor.openFile(fixture.promptRelative);
    await editor.clickCodeLens(/Evolve/, 60_000);
    await panel.waitForReady('ratchet-panel-app');
    await editor.focusGroup(1);
    await editor.clickSuggestionLink(/Accept c1/, 90_000);
    await editor.waitForText(fixture.hint(1));
    // The record is written before the run hears its edit landed, so before the run can finish.
    await panel.waitForStatus('finished', 60_000);
    await editor.focusGroup(1);

    const hover = await provenance.hoverLine(fixture.hint(1));
    expect(hover).toMatch(/this line came from candidate c1 of run \d{8}-\d{6}-[0-9a-f]+/);
    expect(hover).toMatch(/evidence ×[\d.]+ after \d+ discordant pairs? \(needs ×40\)/);
    expect(hover).toMatch(/Accepted by you (just now|\d+ minutes? ago)/);
    expect(hover).toContain('Show its Evidence');
    await s.screenshot('provenance-hover');

    // Its link opens that decision's Evidence in the panel.
    await provenance.hover.first().locator('a', { hasText: 'Show its Evidence' }).click();
    await waitVisible(panel.locator('ratchet-evidence-view').getByText(/commit \(evidence\)/), 'the Evidence of c1 in the panel');
    await editor.focusGroup(1);

    await provenance.openHistory();
    const labels = await waitUntil(async () => {
      const l = await provenance.historyLabels();
      return l.length > 0 ? l : undefined;
    }, 'a row in the Prompt History view');
    expect(labels).toEqual([expect.stringMatching(/^c1 · accepted by you — (just now|\d+ minutes? ago) · run \d{8}-\d{6}-[0-9a-f]+$/)]);
    await s.workbench.parkMouse();
    await s.screenshot('prompt-history');

    await provenance.historyRows.first().click();
    await waitVisible(s.page.locator('.tab.active', { hasText: /before ↔ after/ }), 'the diff tab of the accepted edit');
    await waitVisible(s.page.locator('.editor-group-container.active .monaco-diff-editor .view-line', { hasText: fixture.hint(1) }), 'the added hint in the diff');
  });
});
