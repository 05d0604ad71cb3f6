/**
 * Issue #29 item 7: labels that tell the truth. A code search on pack.mjs (several commits, only its
 * best offered in the editor) at the harness's default size:
 * - once the search is done and its best waits for the answer, the header says so (not a bare
 *   "running"), its Cancel is disabled, and the progress notification with Cancel is gone: Reject
 *   is how to end the run without the best (runStatus.ts `waitsOnlyForYou`);
 * - after Accept, the header reads "finished: 1 accepted by you of N candidates": no commit the
 *   run never offered is "awaiting your answer";
 * - the Runs view's line says what became of it, "1 accepted by you", not a leftover "waits for your Accept";
 * - Ctrl+Z in the editor after Accept reads "1 applied, then undone" in the header and the Runs
 *   view's line; redo, "accepted by you" again.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import { useSession } from '../harness/specSession';
import { RunsView } from '../pages/RunsView';
import { waitUntil, waitVisible } from '../pages/waits';

const PROGRAM = 'code/circle-packing/pack.mjs';
const SPEC = [
  'kind: code',
  'evaluator:',
  '  command: node evaluate.mjs {program} {results}',
  '  supportFiles: [evaluate.mjs]',
  '  timeoutSeconds: 30',
  '  deterministic: true',
  'gate: greedy',
  'budget: { proposals: 6, evaluations: 30 }',
  'concurrency: 2',
  'islands: 1',
  '',
].join('\n');

describe('labels that tell the truth about a search', () => {
  let fake: FakeServer;
  const session = useSession(async () => {
    fake = await startFakeServer({});
    return {
      options: {
        name: 'state-labels',
        userSettings: { 'ratchet.endpoint.baseUrl': fake.url, 'ratchet.models.default': 'sim-proposer' },
        populate: (folder) => writeFile(join(folder, `${PROGRAM}.ratchet.yaml`), SPEC),
      },
      cleanup: () => fake.close(),
    };
  });

  it('says the best waits for you while it does, counts only what was offered after Accept, and leaves no Cancel behind', async () => {
    const s = session();
    const { editor, notifications, ratchetPanel: panel } = s.workbench;
    await editor.openFile(PROGRAM);
    await editor.clickCodeLens(/Start Code Search/, 90_000);
    await panel.waitForReady('ratchet-panel-app');

    // Done, the search waits for the answer to its best: the header says so and offers no Cancel; no progress offers Cancel.
    const waiting = await waitUntil(
      async () => {
        const text = (await panel.status.textContent().catch(() => null))?.trim() ?? '';
        return /^the search is done; p\d+ waits for your Accept or Reject$/.test(text) ? text : undefined;
      },
      'the header to say the search is done and its best waits for you',
      240_000,
    );
    const cancel = panel.locator('ratchet-run-header [data-action="cancel"]');
    expect(await cancel.evaluate((b) => (b as HTMLElement & { disabled: boolean }).disabled)).toBe(true);
    const best = /(p\d+)/.exec(waiting)![1]!;
    const item = s.page.locator('.statusbar-item', { hasText: 'pack.mjs' }).first();
    await waitVisible(item.filter({ hasText: 'the search is done' }), 'the status bar to say the search is done', 60_000);
    await waitUntil(async () => ((await notifications.toast(/Searching pack\.mjs/).count()) === 0 ? true : undefined), 'the progress notification (with Cancel) to close', 30_000);
    await s.workbench.parkMouse();
    await s.screenshot('best-waits');

    await editor.focusGroup(1);
    await editor.clickSuggestionLink(new RegExp(`Accept ${best}`), 30_000);
    const finished = await panel.waitForStatus('finished', 60_000);
    expect(finished).toMatch(/^finished: 1 accepted by you of \d+ candidates?$/);
    expect(finished).not.toMatch(/awaiting|applied/);
    console.log(`header after Accept: "${finished}"`);

    const runs = new RunsView(s.page, s.workbench.palette);
    await runs.open();
    const label = await runs.waitForRunLabel('pack.mjs', /^\d\d:\d\d · 1 accepted by you · pack\.mjs$/, 60_000);
    expect(label).not.toMatch(/waits/);
    await s.workbench.parkMouse();
    await s.screenshot('accepted');

    // Ctrl+Z in the editor takes the accepted edit back: the header says so; Ctrl+Shift+Z (redo) brings it back.
    const header = async (pattern: RegExp, what: string) =>
      waitUntil(
        async () => {
          const text = (await panel.status.textContent().catch(() => null))?.trim() ?? '';
          return pattern.test(text) ? text : undefined;
        },
        what,
        60_000,
      );
    await editor.focusGroup(1);
    await editor.focus();
    await s.page.keyboard.press('Control+Z');
    const undone = await header(/^finished: 1 applied, then undone of \d+ candidates?$/, 'the header to say the edit was undone');
    console.log(`header after Ctrl+Z: "${undone}"`);
    await runs.waitForRunLabel('pack.mjs', /^\d\d:\d\d · 1 applied, then undone · pack\.mjs$/, 30_000);
    await s.workbench.parkMouse();
    await s.screenshot('undone');
    await editor.focus();
    await s.page.keyboard.press('Control+Shift+Z');
    await header(/^finished: 1 accepted by you of \d+ candidates?$/, 'the header to say accepted again after redo');
  }, 420_000);
});
