/**
 * Issue #15, section 4: the Results view. "Ratchet: Evaluate Prompt" scores the prompt on the
 * test split against the fake server; the panel opens on the Results tab (not an empty Evolve run)
 * with one row per test item, a click on a cell shows the model's output with the expected answer,
 * and "Only failures" keeps exactly the failing rows.
 */
import { describe, expect, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { useSession } from '../harness/specSession';
import { waitCount, waitUntil, waitVisible } from '../pages/waits';

/** 62 items: 10 feedback, 40 dev, 12 test — every test row fits on screen (the list is virtual). */
const TEST_ITEMS = 12;

describe('the Results view after Evaluate', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    fixture = await startEvolveFixture({ items: 50 + TEST_ITEMS });
    return {
      options: { name: 'results', userSettings: fixture.userSettings, populate: (folder) => fixture.populate(folder) },
      cleanup: () => fixture.close(),
    };
  });

  it("lists every test item, shows a cell's output on click, and filters to the failures", async () => {
    const s = session();
    const { workbench } = s;
    const panel = workbench.ratchetPanel;
    await workbench.editor.openFile(fixture.promptRelative);
    await workbench.editor.waitForCodeLens(/Evolve/, 60_000);

    await workbench.palette.run('Ratchet: Evaluate Prompt');
    await panel.waitForReady('ratchet-panel-app');
    const status = await panel.waitForStatus('finished', 120_000);
    // The header says what was evaluated, not "0 commits of 0 candidates".
    expect(status).toMatch(new RegExp(`evaluated v0 on ${TEST_ITEMS} test items: mean score`));
    expect(status).not.toMatch(/commit/);

    // The panel opened on the Results tab by itself.
    const results = panel.locator('ratchet-results-view');
    await waitVisible(results, 'the Results tab');
    const rows = results.locator('.results-row:not([hidden])');
    await waitCount(rows, TEST_ITEMS, 'one results row per test item');
    expect(await results.locator('.results-count').textContent()).toBe(`${TEST_ITEMS} of ${TEST_ITEMS} items`);
    const cells = await rows.evaluateAll((els) => els.map((e) => e.querySelector('.result')?.textContent ?? ''));
    const failures = cells.filter((c) => c === 'fail').length;
    expect(cells.every((c) => c === 'pass' || c === 'fail')).toBe(true);
    // The simulated agent gets some wrong: the filter below has something to keep and something to drop.
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThan(TEST_ITEMS);
    await waitVisible(results.locator('.results-version').getByText(/\d+% \(\d+%–\d+%\)/), "the baseline column's accuracy with its interval");

    // A click on a failing cell shows what the model answered, with the expected answer.
    const failing = rows.filter({ has: panel.locator('.result-fail') }).first();
    const itemId = ((await failing.locator('.cell').first().textContent()) ?? '').trim();
    await failing.locator('.result-fail').click();
    const output = results.locator('.results-detail .results-output');
    await waitVisible(output, 'the output of the clicked cell');
    expect(await results.locator('.results-detail h3').textContent()).toBe(`${itemId} (test) · v0 (baseline) · fail`);
    expect((await output.textContent())?.trim().length ?? 0).toBeGreaterThan(0);
    expect(await output.textContent()).not.toContain('did not record');
    expect(await results.locator('.results-detail .results-expected').textContent()).toMatch(/^\d+$/);
    await workbench.parkMouse();
    await s.screenshot('results-view');

    // Only failures: exactly the failing rows stay.
    await results.locator('#results-only-failures').check();
    await waitUntil(async () => ((await results.locator('.results-count').textContent()) === `${failures} of ${TEST_ITEMS} items` ? true : undefined), 'the count of failing rows');
    await waitCount(rows, failures, 'rows left by "Only failures"');
    const left = await rows.evaluateAll((els) => els.map((e) => e.querySelector('.result')?.textContent ?? ''));
    expect(left.every((c) => c === 'fail')).toBe(true);
  });
});
