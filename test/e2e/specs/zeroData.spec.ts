/**
 * Issue #17 in the editor: examples/mental-math has no dataset. Its Generate Dev Set lens runs the
 * zero-data rounds against the fake endpoint (its challenger writes `<question>` blocks — a few
 * malformed or repeated —, its agent answers them, its judge scores answers and orders known pairs,
 * each role by the model the user set for it); a notification with Cancel says the round and the
 * estimate; the dev set is written and opened, the message names the held-out split; the panel
 * opens on the Zero-data tab with the judge's two reliability curves. A second Generate Dev Set
 * asks before replacing (Open Existing opens the file and runs nothing); Replace, then Cancel,
 * leaves the dev set as it was.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import { useSession } from '../harness/specSession';
import { waitCount, waitUntil, waitVisible } from '../pages/waits';

const PROMPT = 'mental-math/mental-math.prompt.md';
const DEV = 'mental-math.dev.jsonl';
const TOAST = /Generating a dev set for mental-math\.prompt\.md/;

describe('Generate Dev Set on a prompt without a dataset', () => {
  let fake: FakeServer;
  const session = useSession(async () => {
    // A noisy Solver (so tasks have spread) and a judge with a position bias (so some known-order pairs split and become exemplars).
    fake = await startFakeServer({ scenario: { seed: 3, agent: { baseAccuracy: 0.5, noise: 1 }, validator: { accuracy: 0.85, positionBias: 0.3, tieRate: 1 } } });
    return {
      options: {
        name: 'zero-data',
        // The example names no model: the user's settings say which model plays each role.
        userSettings: {
          'ratchet.endpoint.baseUrl': fake.url,
          'ratchet.models.agent': 'sim-agent',
          'ratchet.models.validator': 'sim-validator',
          'ratchet.models.challenger': 'sim-challenger',
        },
      },
      cleanup: () => fake.close(),
    };
  });
  const devPath = () => join(session().folder, 'mental-math', DEV);
  const runCount = () => readdirSync(join(session().folder, '.ratchet', 'runs')).length;

  it('writes the dev set and opens it; the panel’s Zero-data tab draws the two reliability curves', async () => {
    const s = session();
    const { editor, notifications, ratchetPanel: panel } = s.workbench;
    await editor.openFile(PROMPT);
    // Held at the Challenger's first call, so the notification is on screen to be read.
    fake.inject({ kind: 'park', model: 'sim-challenger', times: 1 });
    await editor.clickCodeLens(/Generate Dev Set/, 90_000);
    await fake.untilParked(1);
    const progress = await notifications.waitFor(TOAST, 30_000);
    expect(progress).toMatch(/round 1 of 2: writing and judging tasks · estimate ≈ \d+ calls, ≈ [\d.]+k tok, cost unknown \(models sim-agent, sim-validator, sim-challenger unpriced\)/);
    expect(await notifications.toast(TOAST).first().getByRole('button', { name: 'Cancel' }).isVisible()).toBe(true);
    fake.releaseParked();

    // Done: the dev set is the active editor, and the message says where the held-out split is.
    await waitVisible(editor.activeTab().filter({ hasText: DEV }), `the ${DEV} editor`, 180_000);
    const said = await notifications.waitFor(/^Ratchet: wrote mental-math\.dev\.jsonl/, 30_000);
    const [, dev, held] = /\((\d+) dev tasks and (\d+) held-out from 2 rounds\)/.exec(said) ?? [];
    expect(said).toContain('The held-out tasks are in mental-math.test.jsonl');
    const lines = readFileSync(devPath(), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(Number(dev));
    expect(
      readFileSync(join(s.folder, 'mental-math', 'mental-math.test.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(Number(held));
    await waitUntil(async () => ((await editor.text()).includes('{"vars":{"question":"What is') ? true : undefined), 'the generated tasks in the editor');

    // The panel is on the run's Zero-data tab, beside Cost only.
    await panel.waitForReady('ratchet-zero-data-view');
    const view = panel.locator('ratchet-zero-data-view');
    await waitVisible(view, 'the Zero-data tab', 30_000);
    expect(await panel.waitForStatus('finished', 30_000)).toBe(`finished: ${dev} dev tasks and ${held} held-out from 2 rounds`);
    const shownTabs = await panel.locator('vscode-tab-header').evaluateAll((els) => els.filter((e) => !(e as HTMLElement).hidden).map((e) => e.getAttribute('data-tab')));
    expect(shownTabs).toEqual(['zero', 'cost']);

    // Both curves, one point per round, as uPlot holds them, and in words.
    const chart = view.locator('ratchet-reliability-chart');
    await waitVisible(chart.locator('canvas'), 'the reliability chart canvas');
    const drawn = await chart.evaluate((el) => {
      const u = (el as unknown as { plot: { data: (number | null)[][]; series: { label: string }[] } }).plot;
      const col = (label: string) => u.data[u.series.findIndex((x) => x.label === label)]!;
      return { rounds: u.data[0], role: col('Role asymmetry'), amplification: col('Subtask amplification'), width: (el.querySelector('canvas') as HTMLCanvasElement).clientWidth };
    });
    expect(drawn.rounds).toEqual([1, 2]);
    for (const curve of [drawn.role, drawn.amplification]) {
      expect(curve).toHaveLength(2);
      for (const v of curve) if (v !== null) expect(v).toBeGreaterThanOrEqual(0);
      expect(curve.some((v) => v !== null)).toBe(true);
    }
    expect(drawn.width).toBeGreaterThan(200);
    expect(await chart.locator('.chart-summary').textContent()).toMatch(/role asymmetry \S+ \(n \d+[^)]*\) → \S+ \(n \d+[^)]*\); subtask amplification \S+ \(n \d+[^)]*\) → /);
    await waitCount(view.locator('.zero-reliability tbody tr'), 2, 'a reliability row per round');

    // Each round's tasks add up to what the Challenger wrote, the fake's malformed blocks among them.
    await waitCount(view.locator('.zero-round-row'), 2, 'a bar per round');
    const labels = await view.locator('.zero-round-row').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    for (const label of labels) expect(label).toMatch(/^Round \d: \d+ written of 12 asked — \d+ kept, \d+ held out, .*\d+ format \(1 unclosed tag, 1 empty\)/);
    // Round 1's misjudged pairs are the judge's exemplars from round 2 on: their texts, from the host.
    await view.locator('.zero-round-row[data-round="1"]').click();
    await waitVisible(view.locator('article.exemplar').first(), 'round 1’s exemplars');
    expect(await view.locator('article.exemplar .exemplar-text').first().textContent()).toMatch(/What is \d+ [+\-×] \d+\?/);
    await s.workbench.palette.run('Notifications: Clear All Notifications');
    await s.workbench.parkMouse();
    await view.locator('.zero-round').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await s.screenshot('zero-data-round');
    await view.locator('.zero-round-row[data-round="2"]').click();
    await s.workbench.parkMouse();
    await panel.app.evaluate(() => document.scrollingElement?.scrollTo(0, 0));
    await s.screenshot('zero-data-tab');
  });

  it('a second Generate Dev Set asks first: Open Existing opens the dev set and runs nothing — beside the panel, never over it', async () => {
    const s = session();
    const { editor, dialog, ratchetPanel: panel } = s.workbench;
    const groups = s.page.locator('.editor-group-container');
    const calls = fake.calls.length;
    const runs = runCount();
    // #29 item 1: the prompt opened in the panel's own (second) group, and Generate Dev Set run from there.
    await waitUntil(async () => ((await groups.count()) === 2 ? true : undefined), 'the panel in a second group beside the prompt', 30_000);
    await panel.tab.click();
    await waitVisible(groups.nth(1).and(s.page.locator('.active')), 'the panel’s group active', 10_000);
    await editor.openFile(PROMPT);
    await waitVisible(groups.nth(1).locator('.tab.active', { hasText: 'mental-math.prompt.md' }), 'the prompt active in the panel’s group', 15_000);
    await editor.clickCodeLens(/Generate Dev Set/, 30_000);
    const asked = await dialog.waitFor(/already exist/, 30_000);
    expect(asked).toBe('mental-math.dev.jsonl and mental-math.test.jsonl already exist. Replace them with a new dev set?');
    await dialog.choose('Open Existing');
    // The dev set opens in the first group, not over the panel; no third group.
    await waitVisible(groups.nth(0).locator('.tab.active', { hasText: DEV }), `the ${DEV} editor, active in the first group`, 30_000);
    expect(await groups.count()).toBe(2);
    expect(await groups.nth(1).locator('.tab', { hasText: DEV }).count()).toBe(0);
    expect([fake.calls.length, runCount()]).toEqual([calls, runs]);
  });

  it('Replace, then Cancel: the run stops, says nothing was written, and the dev set is as it was', async () => {
    const s = session();
    const { editor, dialog, notifications } = s.workbench;
    const before = readFileSync(devPath(), 'utf8');
    await editor.openFile(PROMPT);
    // An edited prompt asks the Challenger anew (the same one would be answered from the cache).
    await editor.goToLine(16);
    await s.page.keyboard.type('Be brief. ');
    fake.inject({ kind: 'park', model: 'sim-challenger', times: 1 });
    await editor.clickCodeLens(/Generate Dev Set/, 30_000);
    await dialog.waitFor(/already exist/, 30_000);
    await dialog.choose('Replace');
    await fake.untilParked(1);
    await notifications.clickButton(TOAST, 'Cancel', 30_000);
    await notifications.waitFor(/Generate Dev Set was cancelled; nothing was written/, 30_000);
    fake.clearFaults();
    expect(readFileSync(devPath(), 'utf8')).toBe(before);
    const newest = readdirSync(join(s.folder, '.ratchet', 'runs'))
      .sort()
      .at(-1)!;
    const events = readFileSync(join(s.folder, '.ratchet', 'runs', newest, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(events.at(-1)!)).toMatchObject({ type: 'run/cancelled' });
    expect(existsSync(join(s.folder, 'mental-math', 'mental-math.test.jsonl'))).toBe(true);
  });
});
