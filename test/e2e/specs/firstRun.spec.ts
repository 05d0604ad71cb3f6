/**
 * Issue #15, part 1: the first ten minutes. A new user sets only `ratchet.endpoint.baseUrl` and
 * `ratchet.models.default` (one local model for every role: the fake server's `llama3.1`), opens
 * the walkthrough, and follows it on the shipped examples/math: a key, Test Connection (which
 * lists the endpoint's models), the example's prompt, Evolve, Accept. The run finishes with no
 * error — the example names no model, so the user's is used, and the Evolve lens and the panel
 * header say so and where it came from — and every walkthrough step is checked off.
 */
import { describe, expect, it } from 'vitest';
import { startMathExampleFixture, type MathExampleFixture } from '../harness/mathExampleFixture';
import { useSession } from '../harness/specSession';
import { waitHidden, waitUntil, waitVisible } from '../pages/waits';

const WALKTHROUGH = 'Evolve a prompt with Ratchet';
const MODELS = 'agent, proposer: llama3.1 (setting ratchet.models.default)';

describe('first run: the walkthrough on examples/math with only an endpoint and a default model', () => {
  let fixture: MathExampleFixture;
  const session = useSession(async () => {
    fixture = await startMathExampleFixture();
    return {
      options: { name: 'first-run', userSettings: fixture.userSettings, populate: (folder) => fixture.populate(folder) },
      cleanup: () => fixture.close(),
    };
  });

  it('evolves the example with the user’s model, says where the model came from, and checks off every walkthrough step', async () => {
    const s = session();
    const { palette, editor, notifications, ratchetPanel: panel } = s.workbench;
    const step = (id: string) => s.page.locator(`button.getting-started-step[data-step-id$="${id}"]`);
    const checked = async (id: string) => (await step(id).getAttribute('aria-checked')) === 'true';

    const quickInput = (text: string) => s.page.locator('.quick-input-widget', { hasText: text });

    // The walkthrough, as the Welcome page offers it.
    await palette.runInto('Welcome: Open Walkthrough...', palette.row(WALKTHROUGH).first(), 'the walkthrough list');
    await palette.row(WALKTHROUGH).first().click();
    await waitVisible(step('model'), 'the walkthrough’s first step', 30_000);
    for (const id of ['model', 'connection', 'example', 'evolve', 'accept']) expect(await checked(id), `${id} unchecked at first`).toBe(false);

    // Step 1: an OpenAI-style key (the fake endpoint takes any).
    await palette.runInto('Ratchet: Set API Key', quickInput('Stored in the OS keychain'), 'the API key input box');
    await palette.input.fill('sk-first-run');
    await palette.input.press('Enter');
    await notifications.waitFor('Ratchet: API key stored.');
    await waitUntil(async () => ((await checked('model')) ? true : undefined), 'walkthrough step ‘model’ checked once the key is stored');

    // Step 2: Test Connection lists the endpoint's models; the user keeps theirs.
    await palette.runInto('Ratchet: Test Connection', quickInput(`connected to ${fixture.fake.url}`), 'the model list of Test Connection');
    const listed = (await palette.rows.locator('.label-name').allTextContents()).map((t) => t.trim());
    expect(listed).toEqual(expect.arrayContaining(['llama3.1', 'sim-agent']));
    await s.screenshot('test-connection');
    await palette.input.fill(fixture.model);
    await palette.input.press('Enter');
    await waitHidden(palette.widget, 'the model list after the pick');
    await notifications.waitFor(`runs will use ${fixture.model} (setting ratchet.models.default)`);

    // Step 3: the example's prompt. Its lens says which model each role will call, and why.
    await editor.openFile(fixture.promptRelative);
    const lens = await editor.waitForCodeLens(/Evolve/, 60_000);
    await waitUntil(async () => ((await lens.getAttribute('title')) === `Models: ${MODELS}` ? true : undefined), `the Evolve lens’s tooltip 'Models: ${MODELS}'`, 30_000);

    // Step 4: Evolve. The panel header says the same before the first call's answer matters.
    await lens.click();
    await panel.waitForReady('ratchet-panel-app');
    const header = panel.locator('ratchet-run-header .run-models');
    await waitVisible(header, 'the panel header’s models line', 30_000);
    expect((await header.textContent())?.trim()).toBe(`models ${MODELS}`);
    await s.workbench.parkMouse();
    await s.screenshot('model-origin');

    // Step 5: the gate commits the first (real) edit; Accept it.
    await editor.focusGroup(1);
    await editor.clickSuggestionLink(/Accept c1/, 120_000);
    await editor.waitForText('<!-- edit:1 -->');
    await panel.waitForStatus('finished', 180_000);
    expect((await notifications.messages()).filter((m) => /failed|error/i.test(m))).toEqual([]);

    // Every step checked off, as the user sees it back on the walkthrough's tab.
    await s.page
      .locator('.tabs-container .tab', { hasText: /^Welcome$/ })
      .first()
      .click();
    await waitVisible(step('accept'), 'the walkthrough’s last step');
    for (const id of ['model', 'connection', 'example', 'evolve', 'accept']) {
      await waitUntil(async () => ((await checked(id)) ? true : undefined), `walkthrough step '${id}' checked`);
    }
    await s.workbench.parkMouse();
    await s.screenshot('walkthrough-checked');
  });
});
