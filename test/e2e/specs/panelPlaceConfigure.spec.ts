/**
 * Issue #29 item 1: the panel has one place, for Configure Code Search too. At the harness's default
 * size (1400×900), with the panel beside pack.mjs, a program without a run spec opened in the
 * panel's own group and configured from there gets its run spec in the other group: two editor
 * groups, not three, and the panel keeps its group and its width instead of hiding behind the new tab.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectPanelWidthKept, FIRST, openSecondInPanelGroup, SECOND, smallBudget, usePanelPlaceSession } from '../harness/panelPlace';
import { waitVisible } from '../pages/waits';

describe('Configure Code Search keeps the panel in its place', () => {
  const session = usePanelPlaceSession('panel-place-configure', async (folder) => {
    await smallBudget(folder, FIRST);
    await rm(join(folder, `${SECOND}.ratchet.yaml`));
  });

  it('a program configured from the panel’s group gets its run spec in the other group; the panel keeps its group and width', async () => {
    const s = session();
    const { editor, palette, ratchetPanel: panel } = s.workbench;
    // The program without a run spec, opened in the panel's own group and configured from there.
    const { groups, frame, before } = await openSecondInPanelGroup(s);
    await editor.clickCodeLens(/Configure Code Search/, 90_000);
    const step = (n: number) => s.page.locator('.quick-input-widget', { hasText: `Configure Code Search for optimise.mjs (${n}/3)` });
    await waitVisible(step(1), 'the evaluator step', 30_000);
    await palette.input.press('Enter');
    await waitVisible(step(2), 'the gate step');
    await palette.pick('pace+');
    await waitVisible(step(3), 'the budget step');
    await palette.pick('Short');

    // The run spec opens in the first group, not over the panel; no third group.
    await waitVisible(groups.nth(0).locator('.tab.active', { hasText: 'optimise.mjs.ratchet.yaml' }), 'the run spec active in the first group', 30_000);
    expect(await groups.count()).toBe(2);
    expect(await groups.nth(1).locator('.tab', { hasText: 'optimise.mjs.ratchet.yaml' }).count()).toBe(0);
    expect(
      await groups
        .nth(1)
        .locator('.tab', { hasText: /^Ratchet$/ })
        .count(),
    ).toBe(1);
    // The panel shown again in its group: as wide as it was.
    await panel.tab.click();
    await panel.waitForReady('ratchet-panel-app');
    await expectPanelWidthKept(frame, before);
    await s.workbench.parkMouse();
    await s.screenshot('configure-one-place');
  }, 300_000);
});
