/**
 * Issue #29 item 1: the panel has one place, for Configure Code Search too. At the harness's default
 * size (1400×900), with the panel beside pack.mjs, a program without a run spec opened in the
 * panel's own group and configured from there gets its run spec in the other group: two editor
 * groups, not three, and the panel keeps its group and its width instead of hiding behind the new tab.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import { useSession } from '../harness/specSession';
import { waitUntil, waitVisible } from '../pages/waits';

const FIRST = 'code/circle-packing/pack.mjs';
const SECOND = 'code/noisy-optimiser/optimise.mjs';

describe('Configure Code Search keeps the panel in its place', () => {
  let fake: FakeServer;
  const session = useSession(async () => {
    fake = await startFakeServer({});
    return {
      options: {
        name: 'panel-place-configure',
        userSettings: { 'ratchet.endpoint.baseUrl': fake.url, 'ratchet.models.default': 'sim-proposer' },
        populate: async (folder) => {
          const spec = join(folder, `${FIRST}.ratchet.yaml`);
          await writeFile(spec, (await readFile(spec, 'utf8')).replace(/budget: \{[^}]*\}/, 'budget: { proposals: 2, evaluations: 6 }'));
          await rm(join(folder, `${SECOND}.ratchet.yaml`));
        },
      },
      cleanup: () => fake.close(),
    };
  });

  it('a program configured from the panel’s group gets its run spec in the other group; the panel keeps its group and width', async () => {
    const s = session();
    const { editor, palette, ratchetPanel: panel } = s.workbench;
    const groups = s.page.locator('.editor-group-container');
    const frame = s.page.locator('iframe.webview.ready');

    await editor.openFile(FIRST);
    await editor.clickCodeLens(/Start Code Search/, 90_000);
    await panel.waitForReady('ratchet-panel-app');
    await waitUntil(async () => ((await groups.count()) === 2 ? true : undefined), 'the panel in a second group beside pack.mjs', 30_000);
    const before = (await frame.boundingBox())!;

    // The program without a run spec, opened in the panel's own group and configured from there.
    await panel.tab.click();
    await waitVisible(groups.nth(1).and(s.page.locator('.active')), 'the panel’s group active', 10_000);
    await editor.openFile(SECOND);
    await waitVisible(groups.nth(1).locator('.tab.active', { hasText: 'optimise.mjs' }), 'optimise.mjs active in the panel’s group', 15_000);
    await editor.clickCodeLens(/Configure Code Search/, 90_000);
    const step = (n: number) => s.page.locator('.quick-input-widget', { hasText: `Configure Code Search for optimise.mjs (${n}/3)` });
    await waitVisible(step(1), 'the evaluator step', 30_000);
    await palette.input.press('Enter');
    await waitVisible(step(2), 'the gate step');
    await palette.input.fill('pace+');
    await waitVisible(palette.row('pace+').and(s.page.locator('.focused')), 'the pace+ row, focused');
    await palette.input.press('Enter');
    await waitVisible(step(3), 'the budget step');
    await palette.input.fill('Short');
    await waitVisible(palette.row('Short').and(s.page.locator('.focused')), 'the Short row, focused');
    await palette.input.press('Enter');

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
    const after = (await frame.boundingBox())!;
    console.log(`panel frame: ${Math.round(before.width)} px before, ${Math.round(after.width)} px after`);
    expect(after.width).toBeGreaterThanOrEqual(before.width - 2);
    await s.workbench.parkMouse();
    await s.screenshot('configure-one-place');
  }, 300_000);
});
