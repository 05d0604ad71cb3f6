/**
 * Issue #29 item 8: Evaluate talks like Evaluate. "Ratchet: Evaluate Prompt" on the arithmetic
 * prompt against the fake server, at the harness's default size: the header names no gate, α or
 * mode, shows no "v0 → v0; difference 0.000" report, no guarantee and no estimate once it is done
 * (its meters say what it spent), and the Runs view says it evaluated, not "0 committed".
 */
import { describe, expect, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { useSession } from '../harness/specSession';
import { RunsView } from '../pages/RunsView';

const TEST_ITEMS = 8;

describe('Evaluate talks like Evaluate', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    fixture = await startEvolveFixture({ items: 50 + TEST_ITEMS });
    return {
      options: { name: 'evaluate-talk', userSettings: fixture.userSettings, populate: (folder) => fixture.populate(folder) },
      cleanup: () => fixture.close(),
    };
  });

  it('says what it scored, with no gate, α, mode, self-comparison or "0 committed"', async () => {
    const s = session();
    const { workbench } = s;
    const panel = workbench.ratchetPanel;
    await workbench.editor.openFile(fixture.promptRelative);
    await workbench.editor.waitForCodeLens(/Evolve/, 60_000);
    await workbench.palette.run('Ratchet: Evaluate Prompt');
    await panel.waitForReady('ratchet-panel-app');
    const status = await panel.waitForStatus('finished', 120_000);
    expect(status).toMatch(new RegExp(`^evaluated v0 on ${TEST_ITEMS} test items: mean score`));

    const header = panel.locator('ratchet-run-header');
    expect(await header.locator('.run-facts .fact').count()).toBe(0);
    expect(await header.locator('.run-report').isHidden()).toBe(true);
    expect(await header.locator('.run-guarantee').isVisible()).toBe(false);
    expect(await header.locator('.run-estimate').isHidden()).toBe(true);
    const calls = ((await header.locator('.run-meters [data-meter="calls"]').textContent()) ?? '').trim();
    console.log(`header: "${status}"; meter: "${calls}"`);
    expect(await header.locator('.run-title, .run-line').allInnerTexts()).not.toEqual(expect.arrayContaining([expect.stringMatching(/difference|gate|α/)]));

    const runs = new RunsView(s.page, workbench.palette);
    await runs.open();
    const label = await runs.waitForRunLabel('task.prompt.md', /^\d\d:\d\d · evaluated · /, 60_000);
    expect(label).not.toMatch(/committed/);
    await workbench.parkMouse();
    await s.screenshot('evaluated');
  }, 300_000);
});
