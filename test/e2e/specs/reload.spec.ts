/**
 * Issue #7, spec 5: reload the window while a run is in progress. The run goes on by itself — it
 * executes in Ratchet's run daemon, which a reload does not stop — and the panel comes back by
 * itself (its webview serializer) showing the whole run, the decisions from before the reload
 * included, until it finishes. No "Resume" is needed or offered.
 *
 * And when the process running a run does die mid-run, nothing is lost: Ratchet says the run was
 * interrupted and offers to resume it; the resumed run — the same run id, the same journal —
 * carries on from where it stopped to the end.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { useSession } from '../harness/specSession';
import { waitCount, waitUntil, waitVisible } from '../pages/waits';

const CANDIDATES = 6;

describe('spec 5: reload the window during a run', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    // Slow enough to be mid-run when the reload comes: every answer waits, two calls at a time.
    fixture = await startEvolveFixture({ mode: 'autopilot', candidates: CANDIDATES, gainAt: 1, latencyMs: 60 });
    return {
      options: {
        name: 'reload',
        userSettings: { ...fixture.userSettings, 'ratchet.run.concurrency': 2 },
        populate: (folder) => fixture.populate(folder),
      },
      cleanup: () => fixture.close(),
    };
  });

  const runsDir = () => join(session().folder, '.ratchet', 'runs');
  /** Whether the panel's Resume button is enabled (only for an interrupted run). */
  const resumeEnabled = () =>
    session()
      .workbench.ratchetPanel.frame.locator('ratchet-run-header vscode-button[data-action="resume"]')
      .evaluate((b) => !(b as HTMLElement & { disabled: boolean }).disabled);
  const journalOf = async (runId: string) =>
    (await readFile(join(runsDir(), runId, 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; runId: string });

  /** Starts an evolve run from the code lens and returns its id once it is under way in the panel. */
  async function startRun(): Promise<string> {
    const { workbench } = session();
    const before = new Set(await readdir(runsDir()).catch(() => []));
    await workbench.editor.openFile(fixture.promptRelative);
    await workbench.editor.clickCodeLens(/Evolve/, 60_000);
    await workbench.ratchetPanel.waitForReady('ratchet-panel-app', 60_000);
    await workbench.ratchetPanel.waitForStatus('running', 60_000);
    const runIds = await waitUntil(async () => {
      const ids = (await readdir(runsDir()).catch(() => [])).filter((id) => !before.has(id));
      return ids.length > 0 ? ids : undefined;
    }, 'the new run folder under .ratchet/runs');
    expect(runIds).toHaveLength(1);
    return runIds[0]!;
  }

  it('keeps the run going across the reload, and the restored panel shows it to the end without a Resume', async () => {
    const s = session();
    const { workbench } = s;
    const panel = workbench.ratchetPanel;
    // The run's second proposal (after c1 is decided and committed) is held by the fake endpoint
    // until the spec lets it go, so the run is surely mid-way when the reload lands, however
    // loaded the machine.
    fixture.fake.inject({ kind: 'park', model: 'sim-proposer', skip: 1, times: Infinity });
    // The spec before ran the same prompt with the same seed, and every answer it was paid for is in
    // the response cache: when the file still reads as it did then (the autopilot's edit not yet
    // saved), this run would take every call from the cache — nothing reaches the fake, nothing is
    // parked — and finish before the panel shows it running. This run must make its calls.
    await rm(join(session().folder, '.ratchet', 'cache', 'llm'), { recursive: true, force: true });
    const runId = await startRun();
    await fixture.fake.untilParked(1);
    await waitVisible(panel.decisionRows('commit'), 'the first commit in the verdict feed', 90_000);

    await workbench.palette.run('Developer: Reload Window');
    await workbench.waitForReady();
    // The serializer brings the panel back in its editor tab, without any command, and it shows
    // the decisions made before the reload.
    await waitVisible(panel.tab, 'the Ratchet panel tab after the reload', 60_000);
    await panel.waitForReady('ratchet-panel-app', 60_000);
    await waitVisible(panel.decisionRows('commit'), 'the pre-reload commit in the restored panel', 30_000);
    // The run never stopped: it is still going in the reloaded window, the model keeps being
    // called, and the panel follows it to the end.
    const journalNow = await journalOf(runId);
    expect(journalNow.some((e) => /^run\/(finished|failed|cancelled)$/.test(e.type))).toBe(false);
    const callsAfterReload = fixture.fake.calls.length;
    fixture.fake.clearFaults();
    fixture.fake.releaseParked();
    await waitUntil(async () => (fixture.fake.calls.length > callsAfterReload + 20 ? true : undefined), 'LLM calls continuing after the reload', 60_000);
    const finished = await panel.waitForStatus('finished', 120_000);
    expect(finished).toMatch(/finished/);
    await waitCount(panel.feedRows, CANDIDATES, 'verdict feed rows (one per candidate, before and after the reload)');
    const labels = await panel.feedRows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    expect(labels.filter((l) => l.startsWith('commit c1 '))).toHaveLength(1);
    // Nothing was interrupted, so nothing is offered for resuming.
    expect((await workbench.notifications.messages()).filter((m) => /interrupted/.test(m))).toEqual([]);
    expect(await resumeEnabled()).toBe(false);
    // One run, one start, written to the end.
    const journal = await journalOf(runId);
    expect(journal.filter((e) => e.type === 'run/started')).toHaveLength(1);
    expect(journal.at(-1)).toMatchObject({ type: 'run/finished', runId, candidates: CANDIDATES });
    await workbench.parkMouse();
    await s.screenshot('continued-across-reload');
  });

  it('offers to resume a run whose process died mid-run, and the resumed run carries on to the end', async () => {
    const s = session();
    const { workbench } = s;
    const panel = workbench.ratchetPanel;
    // Nothing held over from the spec before; the new run's second proposal is held, so the run
    // is surely mid-way when its process is killed.
    fixture.fake.clearFaults();
    fixture.fake.releaseParked();
    fixture.fake.inject({ kind: 'park', model: 'sim-proposer', skip: 1, times: Infinity });
    // The spec before ran the same prompt with the same seed, and every answer it was paid for is in
    // the response cache: when the file still reads as it did then (the autopilot's edit not yet
    // saved), this run would take every call from the cache — nothing reaches the fake, nothing is
    // parked — and finish before the panel shows it running. This run must make its calls.
    await rm(join(session().folder, '.ratchet', 'cache', 'llm'), { recursive: true, force: true });
    const runId = await startRun();
    await fixture.fake.untilParked(1);
    await waitVisible(panel.feedRows.first(), 'a first verdict of the new run', 90_000);
    const callsAtCrash = fixture.fake.calls.length;
    // The run daemon (the run's owner in lock.json) dies the hard way.
    const { pid } = JSON.parse(await readFile(join(runsDir(), runId, 'lock.json'), 'utf8')) as { pid: number };
    process.kill(pid, 'SIGKILL');

    // Ratchet names the interrupted run in a notification, and the panel's Resume comes on for it.
    const offer = await workbench.notifications.waitFor(/was interrupted/, 60_000);
    expect(offer).toMatch(new RegExp(`^Ratchet: the run on task\\.prompt\\.md \\(run ${runId}\\) was interrupted`));
    await waitUntil(async () => ((await resumeEnabled()) ? true : undefined), "the panel's Resume button enabled for the interrupted run", 30_000);
    await s.screenshot('resume-offer');
    fixture.fake.clearFaults();
    fixture.fake.releaseParked();
    fixture.fake.setLatency(0);
    // The notification's Resume resumes that run: no picker, nothing else to choose.
    await workbench.notifications.clickButtonAnywhere(/was interrupted/, 'Resume', 30_000);

    // The same run carries on from its journal: what was decided before stays, the rest is
    // decided, and it finishes.
    await panel.waitForStatus('finished', 120_000);
    await waitCount(panel.feedRows, CANDIDATES, 'verdict feed rows (one per candidate, before and after the crash)');
    expect(fixture.fake.calls.length).toBeGreaterThan(callsAtCrash);
    const journal = await journalOf(runId);
    expect(journal.filter((e) => e.type === 'run/started').length).toBeGreaterThanOrEqual(1);
    expect(journal.at(-1)).toMatchObject({ type: 'run/finished', runId, candidates: CANDIDATES });
    expect(await resumeEnabled()).toBe(false);
    // The status bar too says how the run ended, not that it was interrupted.
    const statusItem = workbench.page.locator('.statusbar-item', { hasText: 'task.prompt.md' });
    const statusText = await waitUntil(async () => {
      const text = (await statusItem.textContent()) ?? '';
      return text.includes('finished') ? text : undefined;
    }, "the Ratchet status bar item saying 'finished'");
    expect(statusText).not.toMatch(/interrupted/);
    await workbench.parkMouse();
    await s.screenshot('resumed-after-crash');
  });
});
