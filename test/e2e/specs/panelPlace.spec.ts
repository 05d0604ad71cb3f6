/**
 * Issue #29 item 1: the panel has one place. At the harness's default size (1400×900), Start Code
 * Search on pack.mjs opens the panel beside it; a second program opened in the panel's own group
 * and searched from there moves out of that group, and the panel stays where it was, as wide as it
 * was: two editor groups, not three, and the program is on screen beside the panel, not behind it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import { useSession } from '../harness/specSession';
import { waitUntil, waitVisible } from '../pages/waits';

const FIRST = 'code/circle-packing/pack.mjs';
const SECOND = 'code/noisy-optimiser/optimise.mjs';

/** The examples' specs with a budget a loaded machine finishes quickly; the rest as they ship. */
async function smallBudget(folder: string, program: string): Promise<void> {
  const spec = join(folder, `${program}.ratchet.yaml`);
  await writeFile(spec, (await readFile(spec, 'utf8')).replace(/budget: \{[^}]*\}/, 'budget: { proposals: 2, evaluations: 6 }'));
}

describe('the panel has one place', () => {
  let fake: FakeServer;
  const session = useSession(async () => {
    fake = await startFakeServer({});
    return {
      options: {
        name: 'panel-place',
        userSettings: { 'ratchet.endpoint.baseUrl': fake.url, 'ratchet.models.default': 'sim-proposer' },
        populate: async (folder) => {
          await smallBudget(folder, FIRST);
          await smallBudget(folder, SECOND);
        },
      },
      cleanup: () => fake.close(),
    };
  });

  it('a search started from a file in the panel’s group moves the file out; the panel keeps its group and its width', async () => {
    const s = session();
    const { editor, ratchetPanel: panel } = s.workbench;
    const groups = s.page.locator('.editor-group-container');
    const frame = s.page.locator('iframe.webview.ready');

    await editor.openFile(FIRST);
    await editor.clickCodeLens(/Start Code Search/, 90_000);
    await panel.waitForReady('ratchet-panel-app');
    await waitUntil(async () => ((await groups.count()) === 2 ? true : undefined), 'the panel in a second group beside pack.mjs', 30_000);
    const before = (await frame.boundingBox())!;

    // The second program opened in the panel's own group, and its search started from there.
    // Its tab's click makes the panel's group the active one (Quick Open then opens there).
    await panel.tab.click();
    await waitVisible(groups.nth(1).and(s.page.locator('.active')), 'the panel’s group active', 10_000);
    await editor.openFile(SECOND);
    await waitVisible(groups.nth(1).locator('.tab.active', { hasText: 'optimise.mjs' }), 'optimise.mjs active in the panel’s group', 15_000);
    await editor.clickCodeLens(/Start Code Search/, 90_000);

    // optimise.mjs moves to the first group, on screen; the panel is shown again in its own group.
    await waitVisible(groups.nth(0).locator('.tab.active', { hasText: 'optimise.mjs' }), 'optimise.mjs moved to the first group, its active tab', 30_000);
    await waitVisible(groups.nth(1).locator('.tab.active', { hasText: /^Ratchet$/ }), 'the panel active in its own (second) group', 30_000);
    await panel.waitForReady('ratchet-panel-app');
    expect(await groups.count()).toBe(2);
    const after = (await frame.boundingBox())!;
    console.log(`panel frame: ${Math.round(before.width)} px before, ${Math.round(after.width)} px after`);
    expect(after.width).toBeGreaterThanOrEqual(before.width - 2);
    expect(await groups.nth(1).locator('.tab', { hasText: 'optimise.mjs' }).count()).toBe(0);
    await s.workbench.parkMouse();
    await s.screenshot('one-place');
  }, 300_000);
});
