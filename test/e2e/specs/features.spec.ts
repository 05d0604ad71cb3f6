/**
 * Issue #7, specs 1–6: the user-facing flows, driven through the real workbench. They are `todo`
 * until the features land — the next engineer fills each one in with the page objects in ../pages
 * (CommandPalette, Editor code lenses, RatchetPanel webview, ProblemsPanel, Notifications). Nothing
 * here is faked: a spec that cannot drive the real feature stays a todo.
 *
 * ─── Where the fake LLM starts ────────────────────────────────────────────────────────────────
 * Specs that evolve need the fake OpenAI-compatible server from test/fixtures/fakeOpenAI/
 * (`startFakeServer()`, owned by the integration tests). Start it in `beforeAll` BEFORE the session,
 * and hand its address to code-server through the session's `env` (inherited by the extension
 * host and Ratchet's language server) or `userSettings` (`ratchet.*`), whichever the provider
 * settings end up reading, e.g.:
 *
 *   fake = await startFakeServer({ ... });                       // test/fixtures/fakeOpenAI
 *   session = await openSession({
 *     name: 'evolve from the palette',
 *     env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test' },
 *     userSettings: { 'ratchet.…': fake.url },
 *   });
 *   …
 *   afterAll: await session.dispose({ keepLogs: failed }); await fake.close();
 *
 * Each spec saves a screenshot with `session.screenshot(...)` (test/e2e/artifacts/).
 */
import { describe, it } from 'vitest';

describe('issue #7 — Ratchet in the real VS Code', () => {
  it.todo(
    '1. evolve from the palette: with examples/ open and the fake LLM, "Ratchet: Evolve" on a prompt file opens the Ratchet panel; verdicts appear in its feed and the wealth chart draws the wealth curve against the 1/α line',
  );
  it.todo(
    '2. suggest mode: a gated suggestion shows inline with Accept / Reject / Evidence; Accept applies it to the file, Undo (Ctrl+Z) restores the previous text, Reject leaves the file unchanged',
  );
  it.todo(
    '3. stale suggestion: when the user types in the file while a suggestion is pending, the suggestion is marked stale and is not applied over the user\'s edit',
  );
  it.todo(
    '4. diagnostics: a broken run spec (invalid *.ratchet.yaml) shows a located diagnostic (file, line, field) in the Problems panel',
  );
  it.todo(
    '5. reload during a run: reloading the window while a run is in progress keeps the run going in the language server, and the panel shows it again (resumed from its journal) after the reload',
  );
  it.todo(
    '6. untrusted workspace: with Workspace Trust on and the folder not trusted (openSession({ workspaceTrust: true })), Ratchet refuses to run evaluator commands and says why',
  );
});
