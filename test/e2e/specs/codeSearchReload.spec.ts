/**
 * Issue #16, must show: a reload mid-search keeps the search running. A code search started from
 * the lens (the circle-packing example, against the fake endpoint) has an evaluation held open
 * while the window reloads; the run daemon keeps the search — the very same evaluator process —
 * going, the reloaded window shows it again (status bar, Runs view, the panel's Programs tab), and once the evaluation is let
 * go the search goes on in its journal to the end, without a resume.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import { HELD_PROGRAM, processesMarked, startHeldEvaluator, type HeldEvaluator } from '../harness/heldEvaluator';
import { useSession } from '../harness/specSession';
import { RunsView } from '../pages/RunsView';
import { waitUntil } from '../pages/waits';

const EVALUATIONS = 20;

describe('reloading the window during a code search', () => {
  let fake: FakeServer;
  let held: HeldEvaluator;
  const session = useSession(async () => {
    fake = await startFakeServer({});
    // The seed is scored; the first child's evaluation is held until the window has reloaded.
    held = await startHeldEvaluator({ holdFrom: 2, budget: { proposals: 4, evaluations: EVALUATIONS } });
    return {
      options: {
        name: 'code-search-reload',
        // Autopilot: each new best is written as it comes, so the search ends without waiting for an Accept (codeSearchAccept.spec answers one).
        userSettings: { 'ratchet.endpoint.baseUrl': fake.url, 'ratchet.models.default': 'sim-proposer', 'ratchet.run.mode': 'autopilot' },
        populate: (folder) => held.populate(folder),
      },
      cleanup: async () => {
        await fake.close();
        await held.close();
      },
    };
  });

  const journal = async () => {
    const runsDir = join(session().folder, '.ratchet', 'runs');
    const [runId, ...others] = await readdir(runsDir);
    expect(others).toEqual([]);
    const lines = (await readFile(join(runsDir, runId!, 'events.jsonl'), 'utf8')).trim().split('\n');
    return { runId: runId!, events: lines.map((l) => JSON.parse(l) as { type: string; runId: string }) };
  };
  const statusItem = () => session().page.locator('.statusbar-item', { hasText: 'pack.mjs' }).first();
  /** The status bar's text once it matches `pattern`. */
  const statusBarSays = (pattern: RegExp, what: string, timeoutMs: number) =>
    waitUntil(
      async () => {
        const text = (
          (await statusItem()
            .textContent()
            .catch(() => null)) ?? ''
        ).trim();
        return pattern.test(text) ? text : undefined;
      },
      what,
      timeoutMs,
    );
  const searching = new RegExp(`pack\\.mjs · best [\\d.]+ · \\d+/${EVALUATIONS} evals · [12]/2 busy`);

  it('keeps the search and its held evaluation running across the reload; the status bar and the Runs view show it again', async () => {
    const s = session();
    const { editor, notifications, palette } = s.workbench;
    await editor.openFile(HELD_PROGRAM);
    await editor.waitForCodeLens(/Start Code Search/, 90_000);
    await editor.clickCodeLens(/Start Code Search/);
    await notifications.waitFor(/Searching pack\.mjs/, 60_000);
    const pids = await held.untilHeld(2, 120_000);
    await statusBarSays(searching, 'the status bar to show the search’s best score, evaluations and busy slots', 60_000);

    await palette.run('Developer: Reload Window');
    await s.workbench.waitForReady();

    // The same evaluation is still running: the reload stopped nothing of the search.
    expect((await processesMarked(held.control)).map((p) => p.pid)).toEqual(expect.arrayContaining([pids.evaluator, pids.grandchild]));
    const shown = await statusBarSays(searching, 'the status bar to show the search again after the reload', 60_000);
    expect(shown).toMatch(/pack\.mjs · best 1\.917/);
    // The panel comes back on the search's Programs tab, with the program evaluated before the reload (the seed) in its chart.
    const panel = s.workbench.ratchetPanel;
    await panel.waitForReady('ratchet-programs-view', 60_000);
    const summary = panel.locator('ratchet-programs-view ratchet-score-chart .chart-summary');
    await waitUntil(async () => (/^[1-9]\d* programs? evaluated/.test((await summary.textContent()) ?? '') ? true : undefined), 'the Programs view to show the programs evaluated before the reload', 60_000);
    const runs = new RunsView(s.page, palette);
    await runs.open();
    await runs.waitForRunLabel('pack.mjs', /^\d\d:\d\d · running · pack\.mjs$/);
    const before = await journal();
    expect(before.events.some((e) => /^run\/(finished|failed|cancelled)$/.test(e.type))).toBe(false);
    await s.workbench.parkMouse();
    await s.screenshot('running-after-reload');

    await held.release();
    await waitUntil(async () => ((await journal()).events.length > before.events.length ? true : undefined), 'the search’s journal to grow after the held evaluation is let go', 60_000);
    await statusBarSays(/pack\.mjs · finished/, 'the search to finish', 180_000);
    const after = await journal();
    expect(after.runId).toBe(before.runId);
    expect(after.events.filter((e) => e.type === 'run/started')).toHaveLength(1);
    expect(after.events.filter((e) => e.type === 'run/resumed')).toEqual([]);
    expect(after.events.at(-1)?.type).toBe('run/finished');
    expect(await held.started()).toBeGreaterThan(2);
    // Nothing was interrupted, so nothing is offered for resuming; no evaluator outlives the search.
    expect((await notifications.messages()).filter((m) => /interrupted/.test(m))).toEqual([]);
    await waitUntil(async () => ((await processesMarked(held.control)).length === 0 ? true : undefined), 'no evaluator process left after the search', 60_000);
    // Autopilot wrote each new best: the line says so ("2 applied by autopilot"), or counts commits when no best was written.
    await runs.waitForRunLabel('pack.mjs', /^\d\d:\d\d · (\d+ applied by autopilot|\d+ committed|finished) · pack\.mjs$/);
    await s.workbench.parkMouse();
    await s.screenshot('finished-after-reload');
  });
});
