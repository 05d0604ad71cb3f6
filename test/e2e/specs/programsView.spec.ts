/**
 * Issue #16, the Programs view: Start Code Search from the lens on the circle-packing example
 * (examples/code) against the fake endpoint opens the panel on the search's Programs tab; the
 * Score-over-time chart fills with a point per evaluated program and the best-so-far line; a click
 * on a committed program's point opens it: its diff from its parent, its paired scores against its
 * parent and its evidence curve to 1/α.
 *
 * The example's evaluator says one score per program, which the gate compares once (no evidence
 * curve); here a wrapper around it reports per-instance scores (each instance a slightly different
 * bar on the sum of radii), so PACE tests each child instance by instance.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import { useSession } from '../harness/specSession';
import { waitUntil, waitVisible } from '../pages/waits';

const FOLDER = 'code/circle-packing';
const PROGRAM = `${FOLDER}/pack.mjs`;

const SPEC = [
  'kind: code',
  'evaluator:',
  '  command: node evaluate-instances.mjs {program}',
  '  supportFiles: [evaluate.mjs, evaluate-instances.mjs]',
  '  timeoutSeconds: 30',
  '  deterministic: true',
  'gate: pace+',
  'budget: { proposals: 10, evaluations: 60 }',
  'concurrency: 2',
  'islands: 2',
  '',
].join('\n');

/**
 * The example's evaluator, then 24 instances: instance i passes (1) when the sum of radii clears
 * its bar, bars packed just around the seed's 1.917, so a child that packs better passes the
 * instances the seed failed and the gate sees discordant pairs; combined_score is their mean (the
 * engine scores a child by its instances' mean, so the seed is put on the same scale).
 */
const INSTANCE_EVALUATOR = `import { execFileSync } from 'node:child_process';
// Without a results folder it only prints its answer (a metrics.json there would be read instead of this one's).
const out = execFileSync(process.execPath, ['evaluate.mjs', process.argv[2]], { encoding: 'utf8', env: { ...process.env, RATCHET_RESULTS: '' } });
const result = JSON.parse(out.trim().split('\\n').at(-1));
if (result.correct) {
  const sum = result.combined_score;
  result.instances = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [\`bar-\${i + 1}\`, sum > 1.917 + (i - 11.5) * 0.0003 ? 1 : 0]));
  result.combined_score = Object.values(result.instances).reduce((a, b) => a + b, 0) / 24;
}
process.stdout.write(JSON.stringify(result) + '\\n');
`;

describe('the Programs view of a code search', () => {
  let fake: FakeServer;
  const session = useSession(async () => {
    fake = await startFakeServer({});
    return {
      options: {
        name: 'programs',
        // Autopilot: each new best is written as it comes, so the search ends without waiting for an Accept (codeSearchAccept.spec answers one).
        userSettings: { 'ratchet.endpoint.baseUrl': fake.url, 'ratchet.models.default': 'sim-proposer', 'ratchet.run.mode': 'autopilot' },
        populate: async (folder) => {
          await writeFile(join(folder, `${PROGRAM}.ratchet.yaml`), SPEC);
          await writeFile(join(folder, FOLDER, 'evaluate-instances.mjs'), INSTANCE_EVALUATOR);
        },
      },
      cleanup: () => fake.close(),
    };
  });

  it('Start Code Search opens it; the chart fills; a committed program opens with its diff, paired scores and evidence curve', async () => {
    const s = session();
    const { editor, ratchetPanel: panel } = s.workbench;
    await editor.openFile(PROGRAM);
    await editor.waitForCodeLens(/Start Code Search/, 90_000);
    await editor.clickCodeLens(/Start Code Search/);

    // The panel opens on the search, on its Programs tab.
    await panel.waitForReady('ratchet-programs-view');
    const view = panel.locator('ratchet-programs-view');
    await waitVisible(view, 'the Programs tab', 60_000);
    expect(await panel.locator('vscode-tab-header[data-tab="results"]').isHidden()).toBe(true);
    const summary = view.locator('ratchet-score-chart .chart-summary');
    // It fills while the search runs.
    await waitUntil(async () => (/^[1-9]\d* programs? evaluated/.test((await summary.textContent()) ?? '') ? true : undefined), 'the first evaluated program in the chart', 90_000);
    await panel.waitForStatus('finished', 240_000);
    const said = (await summary.textContent()) ?? '';
    const evaluatedCount = Number(/^(\d+) programs? evaluated/.exec(said)?.[1]);
    expect(evaluatedCount).toBeGreaterThanOrEqual(4);
    expect(said).toMatch(/best [\d.]+ \(p\d+, evaluation \d+/);
    await waitVisible(view.locator('ratchet-score-chart canvas'), 'the chart canvas');

    // The points and the best line as uPlot holds them; a committed child's point to click.
    const chart = view.locator('ratchet-score-chart');
    const drawn = await chart.evaluate((el) => {
      const u = (el as unknown as { plot: { data: (number | null)[][]; series: { label: string }[]; valToPos(v: number, scale: string): number } }).plot;
      const col = (label: string) => u.data[u.series.findIndex((s) => s.label === label)]!;
      const islands = u.series.flatMap((s, i) => (s.label.startsWith('island ') ? [u.data[i]!] : []));
      const points = islands.reduce((n, c) => n + c.filter((v) => v !== null).length, 0) + col('incorrect').filter((v) => v !== null).length;
      const committed = col('committed');
      const at = committed.findLastIndex((v, i) => v !== null && i > 0);
      const best = col('best so far').filter((v) => v !== null).length;
      return { points, best, at, left: at < 0 ? 0 : u.valToPos(u.data[0]![at]!, 'x'), top: at < 0 ? 0 : u.valToPos(committed[at]!, 'y') };
    });
    expect(drawn.points).toBe(evaluatedCount);
    expect(drawn.best).toBe(evaluatedCount);
    expect(drawn.at, 'a child the gate committed').toBeGreaterThan(0);

    await chart.locator('.u-over').click({ position: { x: drawn.left, y: drawn.top } });
    const detail = view.locator('ratchet-program-detail');
    await waitUntil(
      async () =>
        /^p\d+: commit \(evidence\)/.test(
          (await detail
            .locator('h2')
            .textContent()
            .catch(() => null)) ?? '',
        )
          ? true
          : undefined,
      'the committed program’s detail',
    );
    const heading = (await detail.locator('h2').textContent()) ?? '';
    const programId = /^(p\d+)/.exec(heading)![1]!;
    // Its diff from its parent, a nudged constant.
    await waitVisible(detail.locator('ratchet-diff-view .diff-add').first(), 'an added line in the diff');
    expect(await detail.locator('ratchet-diff-view .diff-del').count()).toBeGreaterThan(0);
    // Paired scores: every row the child's and its parent's score on one instance.
    const pairs = detail.locator('.pairs-table tbody tr');
    expect(await pairs.count()).toBeGreaterThan(0);
    expect(await pairs.first().locator('td').nth(1).textContent()).toMatch(/^bar-\d+$/);
    // How its evaluation was isolated (#26), in the words of the run's pre-flight.
    expect(await detail.locator('.program-isolation').textContent()).toMatch(
      /^Sandbox: (isolated: no network, no home, own process tree|partly isolated: own process tree, no network; the program can read your files|not isolated: the program can read your files, see your processes and reach the network)\.$/,
    );
    // The evidence curve crossed 1/α.
    const curve = detail.locator('ratchet-wealth-chart');
    await waitVisible(curve.locator('canvas'), 'the evidence curve');
    expect(await curve.locator('.chart-summary').textContent()).toMatch(new RegExp(`Selected ${programId}: evidence ×[\\d.k]+ \\(needs ×20\\) after \\d+ discordant pairs? and \\d+ ties?; committed\\.`));
    // The readout names it, under the pointer or as the one open.
    expect(await view.locator('ratchet-score-chart .chart-readout').textContent()).toMatch(new RegExp(`^(Open: )?${programId} · `));
    await s.workbench.palette.run('Notifications: Clear All Notifications');
    await s.workbench.parkMouse();
    await panel.app.evaluate(() => document.scrollingElement?.scrollTo(0, 0));
    await s.screenshot('programs-view');
    await detail.locator('.program-evidence').scrollIntoViewIfNeeded();
    await s.screenshot('programs-evidence');
  });
});
