/**
 * Issue #29, item 6: the Results view of an Evolve run at the harness's default size (1400×900,
 * the panel beside the editor). Many candidates were scored, on different numbers of items (the
 * gate stops testing a candidate once it has decided): the table starts on the baseline, the
 * committed and the best candidates, all on screen; each column says how many items it was scored
 * on; the Columns picker, worked by the keyboard, shows another; a rejected candidate is never
 * labelled "(committed)"; and a row's output opens where it is seen.
 */
import { describe, expect, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { useSession } from '../harness/specSession';
import { waitCount, waitUntil, waitVisible } from '../pages/waits';

describe('the Results view of an Evolve run at the default width', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    // Per-candidate tests: every candidate reaches the dev set, and each stops when its test decides.
    fixture = await startEvolveFixture({ mode: 'autopilot', candidates: 6, gainAt: 2, gateLines: ['schedule: per-candidate'] });
    return {
      options: { name: 'results-columns', userSettings: fixture.userSettings, populate: (folder) => fixture.populate(folder) },
      cleanup: () => fixture.close(),
    };
  });

  it('starts on baseline, committed and best, each saying its item count; the picker adds a column; the detail opens in sight', async () => {
    const s = session();
    const { workbench } = s;
    const panel = workbench.ratchetPanel;
    await workbench.editor.openFile(fixture.promptRelative);
    await workbench.editor.waitForCodeLens(/Evolve/, 60_000);
    await workbench.palette.run('Ratchet: Evolve Prompt');
    await panel.waitForReady('ratchet-panel-app');
    await panel.waitForStatus('finished', 180_000);
    const verdicts = await panel.feedRows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    const rejected = verdicts.filter((l) => l.startsWith('reject ')).map((l) => l.split(' ')[1]!);

    await panel.showTab('results');
    const results = panel.locator('ratchet-results-view');
    const headers = results.locator('.results-version');
    const summary = results.locator('.results-columns summary');
    await waitVisible(summary, 'the Columns picker', 30_000);
    const [, shown, all] = /^Columns: (\d+) of (\d+)$/.exec((await summary.textContent()) ?? '') ?? [];
    // More versions than fit: the default is three of them.
    expect(Number(all)).toBeGreaterThan(3);
    expect(Number(shown)).toBe(3);
    await waitCount(headers, 3, 'three version columns', 10_000);
    const labels = await headers.locator('.results-version-id').allTextContents();
    expect(labels[0]).toMatch(/\(baseline\)$/);
    // The committed column says what became of the commit (an autopilot run writes it: panelState/answers.ts).
    expect(labels.filter((l) => /\((committed|applied by autopilot)\)$/.test(l))).toHaveLength(1);
    for (const id of rejected) expect(labels).not.toContain(`${id} (committed)`);
    // Each column says how many items it was scored on.
    for (const text of await headers.locator('.results-scored').allTextContents()) expect(text).toMatch(/^\d+ (of \d+ )?items$/);
    // Every column is on screen: none runs off to the right of the panel.
    const offRight = await headers.evaluateAll((els) => els.filter((e) => e.getBoundingClientRect().right > window.innerWidth).length);
    expect(offRight).toBe(0);

    // The picker, by keyboard: focus its summary, Enter opens it, Space ticks a version not shown.
    await summary.focus();
    await s.page.keyboard.press('Enter');
    const unticked = results.locator('.results-columns input[type="checkbox"]:not(:checked)').first();
    await waitVisible(unticked, 'a version not shown, in the picker', 10_000);
    // The open picker fits the panel at its default width: no choice runs off to the right (#29 item 6).
    const choices = results.locator('.results-columns-choices');
    const box = await choices.evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { left: Math.round(r.left), right: Math.round(r.right), width: window.innerWidth, scrolls: e.scrollWidth > e.clientWidth };
    });
    console.log(`Columns picker open: ${box.left}–${box.right} px in a ${box.width} px panel`);
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(box.width);
    expect(box.scrolls).toBe(false);
    await s.screenshot('results-columns-picker');
    const added = (await unticked.getAttribute('data-version')) ?? '';
    await unticked.focus();
    await s.page.keyboard.press('Space');
    await waitCount(headers, 4, 'four version columns after ticking one', 10_000);
    expect(await headers.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.version))).toContain(added);
    expect(await summary.textContent()).toBe(`Columns: 4 of ${all}`);
    await summary.focus();
    await s.page.keyboard.press('Enter');

    // The last row, by keyboard (End, Enter): its output opens in sight, not below the fold.
    const list = results.locator('ratchet-virtual-list');
    await waitUntil(async () => ((await results.locator('.results-row:not([hidden])').count()) > 0 ? true : undefined), 'results rows', 10_000);
    await list.focus();
    await s.page.keyboard.press('End');
    await s.page.keyboard.press('Enter');
    const heading = results.locator('.results-detail h3');
    const detail = results.locator('.results-detail');
    let reads = '';
    await waitUntil(
      async () => {
        if ((await results.locator('.results-detail .results-output').count()) > 0) return true;
        reads = (await detail.textContent().catch(() => '')) ?? '';
        return undefined;
      },
      () => `the output of the last row's cell (the detail reads: ${JSON.stringify(reads)})`,
      15_000,
    );
    const inSight = await heading.evaluate((h) => {
      const r = h.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    });
    expect(inSight).toBe(true);
    await workbench.parkMouse();
    await s.screenshot('results-columns');
  });
});
