/**
 * Issue #29 item 1, the panel's one place: what the panelPlace specs share. A session on the
 * examples with the fake endpoint, Start Code Search on pack.mjs (the panel opens beside it, a
 * second editor group), then optimise.mjs opened in the panel's own group — where each spec then
 * starts or configures its search — and the panel's width checked against what it was.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import { waitUntil, waitVisible } from '../pages/waits';
import type { Session } from './session';
import { useSession } from './specSession';

export const FIRST = 'code/circle-packing/pack.mjs';
export const SECOND = 'code/noisy-optimiser/optimise.mjs';

/** The examples' spec of `program` with a budget a loaded machine finishes quickly; the rest as it ships. */
export async function smallBudget(folder: string, program: string): Promise<void> {
  const spec = join(folder, `${program}.ratchet.yaml`);
  await writeFile(spec, (await readFile(spec, 'utf8')).replace(/budget: \{[^}]*\}/, 'budget: { proposals: 2, evaluations: 6 }'));
}

/** The spec file's session against a fake endpoint; `populate` readies the workspace's copy of the examples. */
export function usePanelPlaceSession(name: string, populate: (folder: string) => Promise<void>): () => Session {
  let fake: FakeServer;
  return useSession(async () => {
    fake = await startFakeServer({});
    return {
      options: {
        name,
        userSettings: { 'ratchet.endpoint.baseUrl': fake.url, 'ratchet.models.default': 'sim-proposer' },
        populate,
      },
      cleanup: () => fake.close(),
    };
  });
}

/**
 * Starts a search on FIRST (the panel opens beside it: two groups), then opens SECOND in the
 * panel's own group. Returns the groups, the panel's frame and its box before SECOND opened.
 */
export async function openSecondInPanelGroup(s: Session) {
  const { editor, ratchetPanel: panel } = s.workbench;
  const groups = s.page.locator('.editor-group-container');
  const frame = s.page.locator('iframe.webview.ready');

  await editor.openFile(FIRST);
  await editor.clickCodeLens(/Start Code Search/, 90_000);
  await panel.waitForReady('ratchet-panel-app');
  await waitUntil(async () => ((await groups.count()) === 2 ? true : undefined), 'the panel in a second group beside pack.mjs', 30_000);
  const before = (await frame.boundingBox())!;

  // Its tab's click makes the panel's group the active one (Quick Open then opens there).
  await panel.tab.click();
  await waitVisible(groups.nth(1).and(s.page.locator('.active')), 'the panel’s group active', 10_000);
  await editor.openFile(SECOND);
  await waitVisible(groups.nth(1).locator('.tab.active', { hasText: 'optimise.mjs' }), 'optimise.mjs active in the panel’s group', 15_000);
  return { groups, frame, before };
}

/** The panel's frame is as wide as it was (`before`), give or take 2 px. */
export async function expectPanelWidthKept(frame: Awaited<ReturnType<typeof openSecondInPanelGroup>>['frame'], before: { width: number }): Promise<void> {
  const after = (await frame.boundingBox())!;
  console.log(`panel frame: ${Math.round(before.width)} px before, ${Math.round(after.width)} px after`);
  expect(after.width).toBeGreaterThanOrEqual(before.width - 2);
}
