/**
 * Issue #15, section 3: the panel at the width it opens with, in plain words. In code-server at
 * 1400×900, Evolve opens the panel beside the editor at its default width; the header's title, run
 * picker and buttons lie inside the panel's frame; a commit the user rejects in the editor reads
 * "rejected by you" in the feed and the header's counts; a statistical term shows what it means
 * for this candidate on hover. Screenshots: the panel at its default width, and a glossary hover.
 */
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { useSession } from '../harness/specSession';
import { waitUntil, waitVisible } from '../pages/waits';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The element's box in page coordinates (Playwright reports frames' elements in the main frame's). */
async function boxOf(locator: Locator, what: string): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${what} has no box: it is not on screen`);
  return box;
}

/** Whether `inner` lies wholly inside `outer` (a pixel of rounding allowed). */
function inside(inner: Box, outer: Box): boolean {
  return inner.x >= outer.x - 1 && inner.y >= outer.y - 1 && inner.x + inner.width <= outer.x + outer.width + 1 && inner.y + inner.height <= outer.y + outer.height + 1;
}

describe('the panel at its default width, in plain words', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    // Suggest mode, one candidate a run: each run ends once its one suggestion is answered.
    fixture = await startEvolveFixture({ mode: 'suggest', candidates: 1, gainAt: 1 });
    return {
      options: { name: 'panel-width', userSettings: fixture.userSettings, populate: (folder) => fixture.populate(folder) },
      cleanup: () => fixture.close(),
    };
  });

  it('keeps the header inside the frame, says "rejected by you", and explains a term on hover', async () => {
    const s = session();
    const { editor, ratchetPanel: panel } = s.workbench;
    await editor.openFile(fixture.promptRelative);
    await editor.clickCodeLens(/Evolve/, 60_000);
    await panel.waitForReady('ratchet-panel-app');
    const frame = s.page.locator('iframe.webview.ready');
    const frameBox = await boxOf(frame, 'the panel’s frame');
    // Beside the editor, at the width VS Code gives it: the 350–520 px the issue reports.
    console.log(`panel frame at its default width: ${Math.round(frameBox.width)} × ${Math.round(frameBox.height)} px`);
    expect(frameBox.width).toBeLessThan(700);

    // The run waits for the user's answer: Cancel is live, the title is the prompt's name.
    await editor.focusGroup(1);
    await editor.waitForSuggestionLink(/Reject/, 90_000);
    const header = panel.locator('ratchet-run-header');
    for (const [selector, what] of [
      ['.run-target', 'the run’s title'],
      ['[data-action="cancel"]', 'the Cancel button'],
      ['[data-action="resume"]', 'the Resume button'],
      ['.docs-link', 'the “How Ratchet decides” link'],
    ] as const) {
      const box = await boxOf(header.locator(selector), what);
      expect(inside(box, frameBox), `${what} ${JSON.stringify(box)} inside the panel's frame ${JSON.stringify(frameBox)}`).toBe(true);
    }
    expect(await header.locator('.run-target').textContent()).toBe('task.prompt.md');

    // Reject in the editor: the gate's commit now reads "rejected by you", in the feed and the counts.
    await editor.clickSuggestionLink(/Reject/);
    await panel.waitForStatus('finished', 60_000);
    const rejected = panel.feedRows.and(panel.locator('.user-rejected'));
    await waitVisible(rejected, 'a feed row for the commit the user rejected');
    expect((await rejected.locator('.cell.decision').textContent())?.trim()).toBe('rejected by you');
    expect(await panel.status.textContent()).toBe('finished: 1 rejected by you of 1 candidate');

    // A second run on the same file: the panel shows it at once, and its run picker appears.
    await editor.clickCodeLens(/Evolve/, 30_000);
    const picker = header.locator('.run-picker');
    await waitVisible(picker, 'the run picker (two runs)', 30_000);
    // Back to the first run through the picker: the one with the user's answer.
    await picker.selectOption({ index: 1 });
    await panel.waitForStatus('finished', 30_000);
    await waitVisible(rejected, 'the first run’s “rejected by you” row again');
    for (const [selector, what] of [
      ['.run-target', 'the run’s title'],
      ['.run-picker', 'the run picker'],
      ['[data-action="cancel"]', 'the Cancel button'],
      ['[data-action="resume"]', 'the Resume button'],
    ] as const) {
      const box = await boxOf(header.locator(selector), what);
      expect(inside(box, frameBox), `${what} ${JSON.stringify(box)} inside the panel's frame ${JSON.stringify(frameBox)}`).toBe(true);
    }
    // A finished run has nothing to cancel, and the button's hover says so.
    expect(await header.locator('.button-slot', { has: panel.locator('[data-action="cancel"]') }).getAttribute('title')).toBe('Nothing to cancel: the run has finished.');
    await s.workbench.parkMouse();
    await s.screenshot('panel-default-width');

    // A statistical term, one hover away: what "needs ×40" means for this candidate (the run-level
    // default's first line, its share of the run's α).
    const needs = rejected.locator('.term', { hasText: /needs ×40/ });
    await needs.hover();
    const card = panel.locator('.term-hover');
    await waitVisible(card, 'the hover card of “needs ×40”');
    const words = await waitUntil(async () => (await card.textContent()) || undefined, 'the hover card’s words');
    expect(words).toMatch(/^needs ×40: c1’s evidence must reach ×40 \(its share of the run’s α = 0\.05\) to be committed; it is at ×[\d.]+\.$/);
    expect(inside(await boxOf(card, 'the hover card'), frameBox)).toBe(true);
    await s.screenshot('glossary-hover');
  });
});
