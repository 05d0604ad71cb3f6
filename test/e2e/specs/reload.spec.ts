/**
 * Issue #7, spec 5: reload the window while a run is in progress. The panel comes back by itself
 * (its webview serializer), and the run is not lost: its journal has every event up to the
 * reload, Ratchet offers to resume it, and the resumed run — the same run id — carries on from
 * the journal to the end, with the decisions made before the reload still in the panel.
 *
 * What does NOT hold today (the second test, skipped — see its comment): the run does not keep
 * going by itself across the reload, and the restored panel is empty until the user resumes.
 */
import { readdir, readFile } from 'node:fs/promises';
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

  it('restores the panel and resumes the interrupted run from its journal to the end', async () => {
    const s = session();
    const { workbench } = s;
    const panel = workbench.ratchetPanel;
    const runsDir = join(s.folder, '.ratchet', 'runs');
    const runsBefore = new Set(await readdir(runsDir).catch(() => []));

    await workbench.editor.openFile(fixture.promptRelative);
    await workbench.editor.clickCodeLens(/Evolve/, 60_000);
    await panel.waitForReady('ratchet-panel-app');
    await waitVisible(panel.decisionRows('commit'), 'the first commit in the verdict feed', 90_000);
    await panel.waitForStatus('running', 5_000);
    const runIds = (await readdir(runsDir)).filter((id) => !runsBefore.has(id));
    expect(runIds).toHaveLength(1);
    const runId = runIds[0]!;
    const callsAtReload = fixture.fake.calls.length;

    await workbench.palette.run('Developer: Reload Window');
    await workbench.waitForReady();
    // The serializer brings the panel back in its editor tab, without any command.
    await waitVisible(panel.tab, 'the Ratchet panel tab after the reload', 60_000);
    await panel.waitForReady('ratchet-panel-app', 60_000);

    // The reload stopped the run mid-way; Ratchet says so and offers to resume it.
    const offer = await workbench.notifications.clickButtonAnywhere(/1 run was interrupted/, 'Resume…', 60_000);
    expect(offer).toMatch(/^Ratchet: 1 run was interrupted/);
    const pick = s.page.locator('.quick-input-list .monaco-list-row').filter({ hasText: runId });
    await waitVisible(pick, `the interrupted run ${runId} in the Resume picker`, 15_000);
    await pick.first().click();

    // The same run carries on from its journal: the commit from before the reload is still there,
    // the remaining candidates are decided, and it finishes.
    const finished = await panel.waitForStatus('finished', 120_000);
    expect(finished).toMatch(/finished/);
    await waitCount(panel.feedRows, CANDIDATES, 'verdict feed rows (one per candidate, before and after the reload)', 15_000);
    const labels = await panel.feedRows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    expect(labels.filter((l) => l.startsWith('commit c1 '))).toHaveLength(1);
    expect(fixture.fake.calls.length).toBeGreaterThan(callsAtReload);
    // One run, resumed in place (no second journal), ending with run/finished.
    expect((await readdir(runsDir)).filter((id) => !runsBefore.has(id))).toEqual([runId]);
    const journal = (await readFile(join(runsDir, runId, 'events.jsonl'), 'utf8')).trim().split('\n');
    expect(JSON.parse(journal.at(-1)!)).toMatchObject({ type: 'run/finished', runId, candidates: CANDIDATES });
    await s.workbench.parkMouse();
    await s.screenshot('resumed-after-reload');
  });

  // BUG (product, not a minimal fix): Reload Window kills the run. Ratchet's language server is a
  // child of the extension host (vscode-languageclient, TransportKind.ipc, --clientProcessId), and
  // VS Code restarts the extension host on reload, so the server and its run die mid-way: the
  // journal is left `interrupted`, the fake LLM gets no further call, and the new server only
  // offers "Resume…". Until then the panel, restored by its serializer, shows "No run yet": the
  // client's catch-up after a (re)start (main.ts afterReady) loads only runs the *new* server
  // hosts. For the run to keep going it would have to live outside the extension host (a detached
  // server the client reconnects to), which is an architecture change.
  it.skip('keeps the run going in the server across the reload, and the restored panel shows it without a Resume', async () => {
    const s = session();
    const { workbench } = s;
    const panel = workbench.ratchetPanel;
    await workbench.editor.openFile(fixture.promptRelative);
    await workbench.editor.clickCodeLens(/Evolve/, 60_000);
    await waitVisible(panel.decisionRows('commit'), 'the first commit in the verdict feed', 90_000);
    const callsAtReload = fixture.fake.calls.length;
    await workbench.palette.run('Developer: Reload Window');
    await workbench.waitForReady();
    await panel.waitForReady('ratchet-panel-app', 60_000);
    await waitVisible(panel.decisionRows('commit'), 'the pre-reload commit in the restored panel', 30_000);
    await waitUntil(async () => (fixture.fake.calls.length > callsAtReload + 20 ? true : undefined), 'LLM calls continuing after the reload', 60_000);
    await panel.waitForStatus('finished', 120_000);
  });
});
