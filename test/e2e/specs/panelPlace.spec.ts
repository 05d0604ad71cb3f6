/**
 * Issue #29 item 1: the panel has one place. At the harness's default size (1400×900), Start Code
 * Search on pack.mjs opens the panel beside it; a second program opened in the panel's own group
 * and searched from there moves out of that group, and the panel stays where it was, as wide as it
 * was: two editor groups, not three, and the program is on screen beside the panel, not behind it.
 */
import { describe, expect, it } from 'vitest';
import { expectPanelWidthKept, FIRST, openSecondInPanelGroup, SECOND, smallBudget, usePanelPlaceSession } from '../harness/panelPlace';
import { waitVisible } from '../pages/waits';

describe('the panel has one place', () => {
  const session = usePanelPlaceSession('panel-place', async (folder) => {
    await smallBudget(folder, FIRST);
    await smallBudget(folder, SECOND);
  });

  it('a search started from a file in the panel’s group moves the file out; the panel keeps its group and its width', async () => {
    const s = session();
    const { editor, ratchetPanel: panel } = s.workbench;
    // The second program opened in the panel's own group, and its search started from there.
    const { groups, frame, before } = await openSecondInPanelGroup(s);
    await editor.clickCodeLens(/Start Code Search/, 90_000);

    // optimise.mjs moves to the first group, on screen; the panel is shown again in its own group.
    await waitVisible(groups.nth(0).locator('.tab.active', { hasText: 'optimise.mjs' }), 'optimise.mjs moved to the first group, its active tab', 30_000);
    await waitVisible(groups.nth(1).locator('.tab.active', { hasText: /^Ratchet$/ }), 'the panel active in its own (second) group', 30_000);
    await panel.waitForReady('ratchet-panel-app');
    expect(await groups.count()).toBe(2);
    await expectPanelWidthKept(frame, before);
    expect(await groups.nth(1).locator('.tab', { hasText: 'optimise.mjs' }).count()).toBe(0);
    await s.workbench.parkMouse();
    await s.screenshot('one-place');
  }, 300_000);
});
