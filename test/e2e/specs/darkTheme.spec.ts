/**
 * Issue #29, item 9: the README's pictures again, in VS Code's default dark theme (Dark Modern) at
 * the harness's default size. The colours Ratchet draws with come from its theme-colour table
 * (src/extension/themeColors.ts, whose contrast a unit test checks): here, that the workbench and
 * the panel really draw with the table's dark defaults — the added and removed lines, the
 * EVOLVE-BLOCK shading and its edge, each island's points — and the pictures, to look at.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISLAND_COLORS, THEME_COLORS, cssVariable } from '../../../src/extension/themeColors';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { useSession } from '../harness/specSession';
import { waitUntil, waitVisible } from '../pages/waits';

const DARK = { 'workbench.colorTheme': 'Default Dark Modern' };

/** `#rrggbb[aa]` as the browser's computed style writes it: `rgb(r, g, b)` or `rgba(r, g, b, a)`. */
function cssColor(hex: string): string {
  const n = parseInt(hex.slice(1, 7), 16);
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255].join(', ');
  if (hex.length === 7) return `rgb(${rgb})`;
  const alpha = Math.round((parseInt(hex.slice(7, 9), 16) / 255) * 1000) / 1000;
  return `rgba(${rgb}, ${alpha})`;
}

/** Equal colours, the alpha compared to two decimals (the browser rounds it its own way). */
function sameColor(seen: string, hex: string): boolean {
  const nums = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
  const [a, b] = [nums(seen), nums(cssColor(hex))];
  return a.length === b.length && a.every((x, i) => (i < 3 ? x === b[i] : Math.abs(x - b[i]!) < 0.01));
}

describe('in the dark theme: a prompt run', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    fixture = await startEvolveFixture({ mode: 'suggest', candidates: 1, gainAt: 1, gainReplaces: 'End with "The answer is N".' });
    return {
      options: { name: 'dark-theme', userSettings: { ...fixture.userSettings, ...DARK }, populate: (folder) => fixture.populate(folder) },
      cleanup: () => fixture.close(),
    };
  });

  it("draws the suggestion and the panel with the table's dark colours", async () => {
    const s = session();
    const { editor, ratchetPanel: panel } = s.workbench;
    await editor.openFile(fixture.promptRelative);
    await editor.clickCodeLens(/Evolve/, 60_000);
    await panel.waitForStatus('running', 60_000);
    await editor.focusGroup(1);
    await editor.waitForSuggestionLink(/Accept c1/, 90_000);
    await waitUntil(async () => ((await editor.addedLineBlocks()).length === 1 ? true : undefined), 'the added lines drawn in place', 30_000);
    await waitVisible(panel.decisionRows('commit'), 'the commit in the verdict feed', 60_000);

    // The workbench is dark, and draws the suggestion with the table's dark defaults.
    expect(await s.page.locator('.monaco-workbench').evaluate((w) => w.classList.contains('vs-dark'))).toBe(true);
    const added = await editor.active
      .locator('.review-widget .comment-body div > code span')
      .first()
      .evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(sameColor(added, THEME_COLORS.addedLineBackground.defaults.dark), `added line background ${added}`).toBe(true);
    // The panel (a webview) is given the island colours as variables.
    const islands = await panel.app.evaluate(
      (_, names) => names.map((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim().toLowerCase()),
      ISLAND_COLORS.map((c) => cssVariable(c.id)),
    );
    expect(islands).toEqual(ISLAND_COLORS.map((c) => c.defaults.dark));

    await s.workbench.parkMouse();
    await s.screenshot('inline-change');
    await panel.showTab('results');
    await waitVisible(panel.locator('ratchet-results-view .results-version').first(), 'the Results columns', 30_000);
    await s.workbench.parkMouse();
    await s.screenshot('results');
  });
});

describe('in the dark theme: a code search', () => {
  const FOLDER = 'code/circle-packing';
  const PROGRAM = `${FOLDER}/pack.mjs`;
  /** The example's own evaluator, on two islands, a short search. */
  const SPEC = [
    'kind: code',
    'evaluator:',
    '  command: node evaluate.mjs {program}',
    '  supportFiles: [evaluate.mjs]',
    '  timeoutSeconds: 30',
    '  deterministic: true',
    'gate: pace+',
    'budget: { proposals: 6, evaluations: 20 }',
    'concurrency: 2',
    'islands: 2',
    '',
  ].join('\n');
  let fake: FakeServer;
  const session = useSession(async () => {
    fake = await startFakeServer({});
    return {
      options: {
        name: 'dark-theme-code',
        userSettings: { 'ratchet.endpoint.baseUrl': fake.url, 'ratchet.models.default': 'sim-proposer', 'ratchet.run.mode': 'autopilot', ...DARK },
        populate: (folder) => writeFile(join(folder, `${PROGRAM}.ratchet.yaml`), SPEC),
      },
      cleanup: () => fake.close(),
    };
  });

  it("shades the EVOLVE-BLOCK with its edge, and draws each island's points in the table's dark colours", async () => {
    const s = session();
    const { editor, ratchetPanel: panel } = s.workbench;
    await editor.openFile(PROGRAM);
    await editor.waitForCodeLens(/Start Code Search/, 90_000);
    // The block's lines: the table's dark shading, and its 2 px edge in the table's dark border colour.
    const shaded = editor.active.locator('.view-overlays > div > div').filter({ hasNot: s.page.locator('.current-line') });
    const styles = await waitUntil(
      async () => {
        const all = await shaded.evaluateAll((els) => els.map((e) => ({ bg: getComputedStyle(e).backgroundColor, edge: getComputedStyle(e).borderLeftColor, width: getComputedStyle(e).borderLeftWidth })));
        const block = all.filter((x) => x.width === '2px' && x.bg !== 'rgba(0, 0, 0, 0)');
        return block.length > 0 ? block : undefined;
      },
      'the EVOLVE-BLOCK lines drawn',
      30_000,
    );
    expect(sameColor(styles[0]!.bg, THEME_COLORS.evolveBlockBackground.defaults.dark), `block shading ${styles[0]!.bg}`).toBe(true);
    expect(sameColor(styles[0]!.edge, THEME_COLORS.evolveBlockBorder.defaults.dark), `block edge ${styles[0]!.edge}`).toBe(true);
    await s.workbench.parkMouse();
    await s.screenshot('code-blocks');

    await editor.clickCodeLens(/Start Code Search/);
    await panel.waitForReady('ratchet-programs-view');
    const view = panel.locator('ratchet-programs-view');
    await panel.waitForStatus('finished', 240_000);
    await waitVisible(view.locator('ratchet-score-chart canvas'), 'the chart canvas', 10_000);
    // Each island's points, as uPlot was given them: the table's dark colours, in island order.
    const strokes = await view.locator('ratchet-score-chart').evaluate((el) => {
      const u = (el as unknown as { plot: { series: { label: string; _stroke?: unknown; stroke?: unknown }[] } }).plot;
      return u.series.filter((x) => x.label.startsWith('island ')).map((x) => String(typeof x.stroke === 'function' ? (x.stroke as () => unknown)() : x.stroke).toLowerCase());
    });
    expect(strokes.length).toBeGreaterThan(1);
    expect(strokes).toEqual(ISLAND_COLORS.slice(0, strokes.length).map((c) => c.defaults.dark));
    await s.workbench.palette.run('Notifications: Clear All Notifications');
    await s.workbench.parkMouse();
    await panel.app.evaluate(() => document.scrollingElement?.scrollTo(0, 0));
    await s.screenshot('programs-view');
  });
});
