/**
 * Issue #16, in the editor: the circle-packing example's program (examples/code) opened in the
 * real VS Code has its EVOLVE-BLOCK shaded and a Start Code Search lens; Test Evaluator runs the
 * seed in the sandbox and says its score; Start Code Search runs against the fake endpoint (its
 * code proposer nudges the program's constants), with a progress notification and the status bar
 * showing the best score, evaluations of the budget and slots busy, until the search finishes.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import { useSession } from '../harness/specSession';
import { waitUntil } from '../pages/waits';

const PROGRAM = 'code/circle-packing/pack.mjs';

/** The example's spec with a budget an e2e run can finish: the rest as the example has it. */
const SPEC = [
  'kind: code',
  'evaluator:',
  '  command: node evaluate.mjs {program} {results}',
  '  supportFiles: [evaluate.mjs]',
  '  timeoutSeconds: 30',
  '  deterministic: true',
  'gate: pace+',
  'budget: { proposals: 6, evaluations: 30 }',
  'concurrency: 2',
  'islands: 1',
  '',
].join('\n');

describe('code search from the editor', () => {
  let fake: FakeServer;
  const session = useSession(async () => {
    fake = await startFakeServer({});
    return {
      options: {
        name: 'code-search',
        // Not workspace settings: an untrusted workspace ignores those, and these are the user's.
        // Autopilot: each new best is written as it comes, so the search runs to its end without an
        // answer (codeSearchAccept.spec.ts answers the suggestion suggest mode shows).
        userSettings: { 'ratchet.endpoint.baseUrl': fake.url, 'ratchet.models.default': 'sim-proposer', 'ratchet.run.mode': 'autopilot' },
        populate: (folder) => writeFile(join(folder, `${PROGRAM}.ratchet.yaml`), SPEC),
      },
      cleanup: () => fake.close(),
    };
  });

  it('offers Start Code Search on the marked program; Test Evaluator says the seed’s score', async () => {
    const s = session();
    const { editor, notifications } = s.workbench;
    await editor.openFile(PROGRAM);
    await editor.waitForCodeLens(/Start Code Search/, 90_000);
    expect(await editor.codeLensTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/Start Code Search/), expect.stringMatching(/Test Evaluator/)]));
    // The block's lines are shaded, the frozen ones carry the left border: whole-line decorations
    // in the editor's overlay layer, styled from the contributed theme colours.
    const drawn = await waitUntil(
      async () => {
        const d = await s.page.evaluate(() => {
          const layers = [...document.querySelectorAll('.monaco-editor .view-overlays .cdr')].map((e) => getComputedStyle(e));
          return { bordered: layers.filter((c) => c.borderLeftWidth === '2px' && c.borderLeftStyle === 'solid').length, shaded: layers.filter((c) => c.backgroundColor !== 'rgba(0, 0, 0, 0)').length };
        });
        return d.bordered > 0 && d.shaded > 0 ? d : undefined;
      },
      'the EVOLVE-BLOCK shading and the frozen lines’ border',
      30_000,
    );
    expect(drawn.bordered).toBeGreaterThan(0);
    await s.workbench.parkMouse();
    await s.screenshot('code-search-lens');

    await editor.clickCodeLens(/Test Evaluator/);
    const said = await notifications.waitFor(/the evaluator works/, 60_000);
    expect(said).toContain('combined_score 1.917');
  });

  it('Start Code Search runs it with a progress notification offering Cancel, the status bar following it to its end', async () => {
    const s = session();
    const { editor, notifications } = s.workbench;
    await editor.clickCodeLens(/Start Code Search/);
    await notifications.waitFor(/Searching pack\.mjs/, 60_000);
    expect(
      await notifications
        .toast(/Searching pack\.mjs/)
        .first()
        .getByRole('button', { name: 'Cancel' })
        .isVisible(),
    ).toBe(true);
    const item = s.page.locator('.statusbar-item', { hasText: 'pack.mjs' }).first();
    const running = await waitUntil(
      async () => {
        const text = (await item.textContent().catch(() => null)) ?? '';
        return /pack\.mjs · best [\d.]+ · \d+\/30 evals · \d\/2 busy/.test(text) ? text : undefined;
      },
      'the status bar to show the search’s best score, evaluations of 30 and slots busy of 2',
      90_000,
    );
    // Its spend so far: the proposer's calls (the fake endpoint has no price).
    await waitUntil(async () => (/ · [1-9]\d* calls$/.test(((await item.textContent().catch(() => null)) ?? '').trim()) ? true : undefined), 'the status bar to count the proposer’s calls', 60_000);
    expect(running).toMatch(/ calls$/);
    await s.screenshot('code-search-running');
    await waitUntil(async () => (/pack\.mjs · finished/.test((await item.textContent().catch(() => null)) ?? '') ? true : undefined), 'the search to finish', 180_000);
  });
});
