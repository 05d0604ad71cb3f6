/**
 * Issue #7, spec 1: evolve a prompt from the command palette. With the fake LLM on the controlled
 * scenario (the first scripted edit is a real +30 % gain, the next ones only churn), "Ratchet:
 * Evolve Prompt" opens the panel; verdict rows appear as the gate decides; the wealth chart draws
 * the committed candidate's wealth crossing the 1/α line.
 */
import { describe, expect, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { useSession } from '../harness/specSession';
import { waitCount, waitUntil, waitVisible } from '../pages/waits';

describe('spec 1: evolve a prompt from the command palette', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    // Autopilot: the run goes on after the commit, so the feed gets rejections too, and finishes.
    fixture = await startEvolveFixture({ mode: 'autopilot', candidates: 3, gainAt: 1 });
    return {
      options: { name: 'evolve', userSettings: fixture.userSettings, populate: (folder) => fixture.populate(folder) },
      cleanup: () => fixture.close(),
    };
  });

  it('opens the panel, fills the verdict feed and draws the wealth crossing 1/α', async () => {
    const s = session();
    const { workbench } = s;
    const panel = workbench.ratchetPanel;
    await workbench.editor.openFile(fixture.promptRelative);
    // The Evolve lens comes from the language server: it is up and knows the file.
    await workbench.editor.waitForCodeLens(/Evolve/, 60_000);

    await workbench.palette.run('Ratchet: Evolve Prompt');
    await panel.waitForReady('ratchet-panel-app');
    await waitVisible(panel.tab, 'the Ratchet panel tab');

    // The first decision is the real edit's commit; rejections of the churning edits follow.
    await waitVisible(panel.decisionRows('commit'), 'a commit row in the verdict feed', 90_000);
    const finished = await panel.waitForStatus('finished', 120_000);
    expect(finished).toMatch(/finished/);
    await waitCount(panel.feedRows, 3, 'verdict feed rows (one per candidate)');
    const labels = await panel.feedRows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    expect(labels.filter((l) => l.startsWith('commit c1 '))).toHaveLength(1);
    // The run-level default: the first candidate to reach the dev set needs ×40 (1·2/α), and the
    // header says what the run guarantees.
    expect(labels.find((l) => l.startsWith('commit'))).toMatch(/evidence reached ×40/);
    expect(await panel.locator('ratchet-run-header .run-guarantee').textContent()).toBe('guarantee this run: P(any false commit) ≤ 0.05');
    expect(labels.filter((l) => l.startsWith('reject'))).toHaveLength(2);

    // Select the commit: its evidence opens; back on Verdicts the chart shows its trace. The two
    // later candidates were screened out on feedback items and have no trace, so c1 is also the
    // last one tested: one trace, "Under test".
    await panel.decisionRows('commit').click();
    await waitVisible(panel.locator('ratchet-evidence-view').getByText(/commit \(evidence\)/), 'the evidence of the commit');
    await panel.showTab('verdicts');
    const traces = await panel.waitForWealth((t) => t.some((x) => x.candidate === 'c1' && x.outcome === 'committed'), 'the committed c1');
    const c1 = traces.find((x) => x.candidate === 'c1')!;
    expect(c1.outcome).toBe('committed');
    expect(c1.threshold).toBe(40); // the first dev-set test of the run-level default: 1·2/α with α = 0.05
    expect(c1.wealth).toBeGreaterThanOrEqual(c1.threshold);

    // The canvas really drew: uPlot sized it to the panel and drew the legend with the threshold.
    await waitVisible(panel.chartCanvas, 'the wealth chart canvas');
    const box = await panel.chartCanvas.first().boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(100);
    await waitVisible(panel.chart.locator('.u-legend').getByText('1/α line'), 'the chart legend entry for the 1/α line');
    // The status bar item says the same as the panel.
    await waitUntil(async () => ((await workbench.page.locator('.statusbar-item', { hasText: 'task.prompt.md' }).textContent()) ?? '').includes('1 commit') || undefined, 'the Ratchet status bar item reporting 1 commit');
    await workbench.parkMouse();
    await s.screenshot('wealth-crosses-threshold');
  });
});
