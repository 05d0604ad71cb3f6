/**
 * Issue #16, must show: Cancel stops the evaluators. A code search started from the lens (the
 * circle-packing example, against the fake endpoint) is cancelled from its progress notification
 * while an evaluation is held open — its evaluator and a grandchild it started both running —, and
 * no process of that evaluation is left afterwards; the run shows as cancelled in the status bar,
 * the Runs view and its journal.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import { HELD_PROGRAM, processesMarked, startHeldEvaluator, type HeldEvaluator } from '../harness/heldEvaluator';
import { useSession } from '../harness/specSession';
import { RunsView } from '../pages/RunsView';
import { waitUntil } from '../pages/waits';

describe('cancelling a code search', () => {
  let fake: FakeServer;
  let held: HeldEvaluator;
  const session = useSession(async () => {
    fake = await startFakeServer({});
    // The seed is scored; the first child's evaluation is held until the spec is done.
    held = await startHeldEvaluator({ holdFrom: 2, budget: { proposals: 6, evaluations: 30 } });
    return {
      options: {
        name: 'code-search-cancel',
        userSettings: { 'ratchet.endpoint.baseUrl': fake.url, 'ratchet.models.default': 'sim-proposer' },
        populate: (folder) => held.populate(folder),
      },
      cleanup: async () => {
        await fake.close();
        await held.close();
      },
    };
  });

  it('Cancel in the progress notification stops the held evaluation’s whole process group, and the run shows cancelled', async () => {
    const s = session();
    const { editor, notifications, palette } = s.workbench;
    await editor.openFile(HELD_PROGRAM);
    await editor.waitForCodeLens(/Start Code Search/, 90_000);
    await editor.clickCodeLens(/Start Code Search/);
    await notifications.waitFor(/Searching pack\.mjs/, 60_000);

    const pids = await held.untilHeld(2, 120_000);
    const running = await processesMarked(held.control);
    // Not vacuous: the evaluation's processes are there to be stopped.
    expect(running.map((p) => p.pid)).toEqual(expect.arrayContaining([pids.evaluator, pids.grandchild]));
    await s.workbench.parkMouse();
    await s.screenshot('held-evaluation');

    await notifications.clickButton(/Searching pack\.mjs/, 'Cancel');
    let left = running;
    await waitUntil(
      async () => {
        left = await processesMarked(held.control);
        return left.length === 0 ? true : undefined;
      },
      () => `no process of the cancelled evaluation left; still running: ${JSON.stringify(left)}`,
      60_000,
    );

    const item = s.page.locator('.statusbar-item', { hasText: 'pack.mjs' }).first();
    const said = await waitUntil(
      async () => {
        const text = (await item.textContent().catch(() => null)) ?? '';
        return /pack\.mjs · cancelled/.test(text) ? text : undefined;
      },
      'the status bar to say the search was cancelled',
      60_000,
    );
    expect(said).not.toMatch(/busy/);
    await waitUntil(async () => ((await notifications.toast(/Searching pack\.mjs/).count()) === 0 ? true : undefined), 'the progress notification to close', 30_000);

    // The journal ends with the cancellation, and the evaluation it cut short was never released.
    const runsDir = join(s.folder, '.ratchet', 'runs');
    const [runId, ...others] = await readdir(runsDir);
    expect(others).toEqual([]);
    const events = (await readFile(join(runsDir, runId!, 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(events.at(-1)?.type).toBe('run/cancelled');
    expect(events.filter((e) => e.type === 'run/finished')).toEqual([]);

    const runs = new RunsView(s.page, palette);
    await runs.open();
    await runs.waitForRunLabel('pack.mjs', /^\d\d:\d\d · cancelled · pack\.mjs$/);
    await s.workbench.parkMouse();
    await s.screenshot('cancelled');
  });
});
