/**
 * Issue #16, "Configure Code Search": a marked program with no run spec (the circle-packing example
 * with its sidecar taken away) gets a Configure Code Search lens; the three-step flow (evaluator
 * command, gate, budget) writes a commented `pack.mjs.ratchet.yaml` that the language server takes
 * without a problem, the lens row turns into Start Code Search / Test Evaluator, and the Test
 * Evaluator action the flow offers runs the seed once and says its parsed score.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import { useSession } from '../harness/specSession';
import { waitUntil, waitVisible } from '../pages/waits';

const PROGRAM = 'code/circle-packing/pack.mjs';

describe('configuring a code search from the editor', () => {
  let fake: FakeServer;
  const session = useSession(async () => {
    fake = await startFakeServer({});
    return {
      options: {
        name: 'code-search-configure',
        userSettings: { 'ratchet.endpoint.baseUrl': fake.url, 'ratchet.models.default': 'sim-proposer' },
        populate: (folder) => rm(join(folder, `${PROGRAM}.ratchet.yaml`)),
      },
      cleanup: () => fake.close(),
    };
  });

  it('asks for the evaluator, the gate and the budget, writes the sidecar, and its Test Evaluator says the seed’s score', async () => {
    const s = session();
    const { editor, notifications, palette } = s.workbench;
    await editor.openFile(PROGRAM);
    await editor.clickCodeLens(/Configure Code Search/, 90_000);

    // 1/3: the evaluator command, prefilled from the evaluator beside the program.
    const step = (n: number) => s.page.locator('.quick-input-widget', { hasText: `Configure Code Search for pack.mjs (${n}/3)` });
    await waitVisible(step(1), 'the evaluator step', 30_000);
    expect(await palette.input.inputValue()).toBe('node evaluate.mjs {program} {results}');
    // A command without {program} is refused where it is typed.
    await palette.input.fill('node evaluate.mjs');
    await waitVisible(s.page.locator('.quick-input-widget .quick-input-message', { hasText: 'needs {program}' }), 'the {program} check');
    await palette.input.fill('node evaluate.mjs {program} {results}');
    await palette.input.press('Enter');

    // 2/3: the gate; 3/3: the budget.
    await waitVisible(step(2), 'the gate step');
    await palette.pick('pace+');
    await waitVisible(step(3), 'the budget step');
    await palette.pick('Short');

    // The sidecar is on disk, open, and says what was chosen.
    const specPath = join(s.folder, `${PROGRAM}.ratchet.yaml`);
    // The workspace edit creates the file empty and fills it in the editor; the flow then saves it.
    const text = await waitUntil(
      async () => {
        const t = await readFile(specPath, 'utf8').catch(() => '');
        return t.includes('kind: code') ? t : undefined;
      },
      'the sidecar saved with its text',
      30_000,
    );
    expect(text).toMatch(/^#/m);
    expect(parse(text)).toMatchObject({
      kind: 'code',
      evaluator: { command: 'node evaluate.mjs {program} {results}', supportFiles: ['evaluate.mjs'] },
      gate: 'pace+',
      budget: { proposals: 20, evaluations: 60 },
    });
    await waitVisible(editor.activeTab().filter({ hasText: 'pack.mjs.ratchet.yaml' }), 'the sidecar’s tab', 30_000);
    await editor.waitForText('kind: code');
    await notifications.waitFor(/wrote pack\.mjs\.ratchet\.yaml/, 30_000);
    await s.screenshot('code-search-configured');

    // Test Evaluator, as the flow offers it: the seed's parsed result.
    await notifications.clickButton(/wrote pack\.mjs\.ratchet\.yaml/, 'Test Evaluator', 30_000);
    const said = await notifications.waitFor(/the evaluator works/, 60_000);
    expect(said).toContain('combined_score 1.917');

    // Back on the program, the lens row is now the one of a configured search.
    await editor.openFile(PROGRAM);
    await editor.waitForCodeLens(/Start Code Search/, 60_000);
    expect(await editor.codeLensTexts()).not.toEqual(expect.arrayContaining([expect.stringMatching(/Configure Code Search/)]));
  });
});
