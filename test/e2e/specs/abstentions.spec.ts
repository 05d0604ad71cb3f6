/**
 * Issue #25: a judge that does not always answer, and models that reason before they answer, as
 * the panel shows them. The fake judge writes no verdict for half of its requests (asked again in
 * the same chat, it draws again) and thinks in <think> sections, as the proposer does. In the
 * light theme at the panel's default width: the header says how often the judge did not answer,
 * naming its model, and warns; the feed counts the missing answers apart from ties; a decision's
 * evidence shows the items left out as such, and each model's reasoning folded, opened on demand.
 * Screenshots: the header and feed, the evidence with a folded reasoning, and the same opened.
 */
import { describe, expect, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { useSession } from '../harness/specSession';
import { waitUntil, waitVisible } from '../pages/waits';

describe('a judge that does not always answer, and reasoning models, in the panel', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    fixture = await startEvolveFixture({
      mode: 'autopilot',
      gate: 'pace-rf',
      // Each candidate tested on the dev set (the default schedule's screen may stop the second
      // before it): every row then has the judge's counts to show.
      gateLines: ['schedule: per-candidate'],
      labels: false,
      candidates: 2,
      gainAt: 1,
      seed: 3,
      scenario: (base) => ({
        ...base,
        validator: { ...base.validator, accuracy: 1, abstain: 0.5 },
        realistic: { roles: ['validator', 'proposer'], shapes: ['think'] },
      }),
    });
    return {
      options: { name: 'abstentions', userSettings: { ...fixture.userSettings, 'workbench.colorTheme': 'Default Light Modern' }, populate: (folder) => fixture.populate(folder) },
      cleanup: () => fixture.close(),
    };
  });

  it("says the judge did not answer, never as ties, and folds each model's reasoning", async () => {
    const s = session();
    const { workbench } = s;
    const panel = workbench.ratchetPanel;
    await workbench.editor.openFile(fixture.promptRelative);
    await workbench.editor.clickCodeLens(/Evolve/, 60_000);
    await panel.waitForReady('ratchet-panel-app');
    await panel.waitForStatus('finished', 180_000);
    const frameBox = await s.page.locator('iframe.webview.ready').boundingBox();
    expect(frameBox?.width ?? 0).toBeLessThan(700);

    // The header: how often, which model, and that those items are no ties.
    const judge = panel.locator('ratchet-run-header [data-part="judge"]');
    await waitVisible(judge, 'the header’s line on the judge');
    const said = (await judge.textContent()) ?? '';
    // (The sentence is one of two header lines about the judge: the warning names the test.)
    const m = /The judge did not answer (\d+) of (\d+) times \(model sim-validator\), even when asked again: those items were left out of the tests, not counted as ties\./.exec(said);
    expect(m, said).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThan(0);
    const warning = (await panel.locator('ratchet-run-header .run-warning').textContent()) ?? '';
    expect(warning).toMatch(/The judge \(model sim-validator\) did not answer \d+ of \d+ times in c\d's test/);

    // The feed: missing answers counted apart from ties, in the statistic and in the items used.
    const labels = await panel.feedRows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    expect(labels).toHaveLength(2);
    for (const label of labels) expect(label).toMatch(/verdicts child \d+ · parent \d+ · tie \d+ · no answer \d+/);
    // The status bar says it too, in short; its hover in full.
    const bar = workbench.page.locator('.statusbar-item', { hasText: 'task.prompt.md' });
    await waitUntil(async () => /judge: no answer \d+ of \d+/.test((await bar.textContent()) ?? '') || undefined, 'the status bar’s word on the judge');
    await s.workbench.parkMouse();
    await s.screenshot('judge-abstentions-header-feed');

    // The evidence of the rejected candidate: items the judge did not answer for, and folded reasoning.
    await panel.decisionRows('reject').click();
    const evidence = panel.locator('ratchet-evidence-view');
    await waitVisible(evidence.getByText(/reject \(futile\)/), 'the rejected candidate’s evidence');
    await waitVisible(evidence.getByText(/the judge did not answer for \(left out, not ties\)/), 'the heading counting items left out');
    const unjudged = evidence.locator('.evidence-item.winner-unjudged');
    await waitVisible(unjudged.first(), 'an item the judge did not answer for');
    await waitVisible(unjudged.first().getByText(/did not answer, asked twice/), 'the order without a verdict');

    // Every reasoning section starts folded: its summary shows, its text does not.
    const proposer = evidence.locator('details.thinking', { hasText: 'The proposer model’s thinking' });
    await waitVisible(proposer.locator('summary'), 'the proposer’s folded thinking');
    const folds = evidence.locator('details.thinking');
    const open = await folds.evaluateAll((els) => els.filter((e) => (e as HTMLDetailsElement).open).length);
    expect(await folds.count()).toBeGreaterThan(1);
    expect(open).toBe(0);
    expect(await proposer.locator('pre').isVisible()).toBe(false);
    await s.workbench.parkMouse();
    await s.screenshot('evidence-reasoning-folded');

    // Opened from the keyboard, it shows what the model thought — never what was read as its answer.
    await proposer.locator('summary').focus();
    await s.page.keyboard.press('Enter');
    await waitUntil(async () => (await proposer.locator('pre').isVisible()) || undefined, 'the proposer’s thinking, opened');
    expect(await proposer.locator('pre').textContent()).toContain('Let me think about this carefully before answering.');
    const judgeFold = unjudged.first().locator('details.thinking').first();
    await judgeFold.locator('summary').click();
    await waitUntil(async () => (await judgeFold.locator('pre').isVisible()) || undefined, 'the judge’s thinking, opened');
    expect(await judgeFold.locator('pre').textContent()).toContain('At first sight');
    await s.workbench.parkMouse();
    await s.screenshot('evidence-reasoning-open');
  });
});
