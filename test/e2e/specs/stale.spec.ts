/**
 * Issue #7, spec 3: the user types in the prompt while a gated suggestion waits for them. The
 * suggestion inserts after the last line, and the user rewrites that line: the edit no longer
 * applies, so the suggestion is marked stale (an inline note, no more Accept link) and is never
 * written over the user's text; everything they typed is still there when the run is over.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { useSession } from '../harness/specSession';
import { waitUntil, waitVisible } from '../pages/waits';

describe('spec 3: typing while a suggestion is pending', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    // Latency on every LLM answer, as a real endpoint has: the run is in flight while the user types.
    fixture = await startEvolveFixture({ mode: 'suggest', candidates: 1, gainAt: 1, latencyMs: 30 });
    return {
      options: { name: 'stale', userSettings: fixture.userSettings, populate: (folder) => fixture.populate(folder) },
      cleanup: () => fixture.close(),
    };
  });

  it('marks the suggestion stale and keeps every character the user typed', async () => {
    const s = session();
    const { editor, ratchetPanel: panel, page } = { ...s.workbench, page: s.page };
    const onDisk = await readFile(join(s.folder, fixture.promptRelative), 'utf8');
    await editor.openFile(fixture.promptRelative);
    await editor.clickCodeLens(/Evolve/, 60_000);
    await panel.waitForReady('ratchet-panel-app');
    await editor.focusGroup(1);
    await editor.waitForSuggestionLink(/Accept c1/, 90_000);
    await waitUntil(async () => ((await editor.addedLineBlocks()).some((b) => b.lines.includes('<!-- edit:1 -->')) ? true : undefined), "the edit's added lines drawn in place", 30_000);

    // The user rewrites the end of the last line, right where the suggestion inserts its lines.
    const typed = ' Show your working first.';
    await editor.focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('End');
    await page.keyboard.type(typed, { delay: 20 });
    const expected = onDisk.replace('End with "The answer is N".', `End with "The answer is N".${typed}`);
    await editor.waitForText(typed.trim());

    const note = await editor.waitForDecorationText('suggestion is stale');
    expect(note).toMatch(/^Ratchet: suggestion is stale — /);
    await waitUntil(async () => ((await editor.lensAndLinkTexts()).some((t) => /Accept|Reject/.test(t)) ? undefined : true), 'the Accept / Reject links to go away once stale');
    // The edit's lines are not drawn any more: nothing is shown over the user's text.
    expect((await editor.addedLineBlocks()).some((b) => b.lines.includes('<!-- edit:1 -->'))).toBe(false);
    // The panel says it too, in words.
    await waitVisible(panel.locator('ratchet-run-header .run-warning').getByText(/changed since c1 was computed; the edit was not written over it/), 'the panel’s stale warning');
    await s.screenshot('stale-suggestion');

    // The run carries on (the engine counts the edit as not applied) and ends; the text is the user's.
    await panel.waitForStatus('finished', 90_000);
    expect(await editor.text()).toBe(expected);
    expect(await editor.text()).not.toContain(fixture.hint(1));
    await waitVisible(editor.activeTab().and(page.locator('.dirty')), 'the prompt tab still dirty with the user’s unsaved typing');
    // Nothing reached the disk behind the user's back either.
    expect(await readFile(join(s.folder, fixture.promptRelative), 'utf8')).toBe(onDisk);
  });
});
