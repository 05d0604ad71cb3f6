/**
 * Issue #16, in the editor: in Restricted Mode a program with EVOLVE-BLOCK markers gets a lens that
 * says why no code search can run (its evaluator is workspace code) and opens Manage Workspace
 * Trust; Start Code Search from the palette is refused with the reason, and nothing runs.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSession } from '../harness/specSession';
import { waitVisible } from '../pages/waits';

const PROGRAM = 'code/circle-packing/pack.mjs';

describe('code search in Restricted Mode', () => {
  const session = useSession(async () => ({ options: { name: 'code-search-restricted', workspaceTrust: true } }));

  it('the lens explains and offers Manage Workspace Trust; Start Code Search is refused with the reason', async () => {
    const s = session();
    const { workbench, page } = s;
    await waitVisible(page.locator('.statusbar-item', { hasText: 'Restricted Mode' }), 'the Restricted Mode status bar item', 30_000);
    const runsDir = join(s.folder, '.ratchet', 'runs');
    const runsBefore = await readdir(runsDir).catch(() => []);

    await workbench.editor.openFile(PROGRAM);
    await workbench.editor.waitForCodeLens(/trust the workspace/, 90_000);
    expect(await workbench.editor.codeLensTexts()).toEqual([expect.stringMatching(/Code search runs this workspace's evaluator: trust the workspace to start one — Manage Workspace Trust/)]);
    await workbench.parkMouse();
    await s.screenshot('code-search-restricted');

    await workbench.palette.run('Ratchet: Start Code Search');
    const refused = await workbench.notifications.waitFor(/trust the workspace/, 30_000);
    expect(refused).toMatch(/^Ratchet: Start Code Search.*evaluator, which is workspace code; trust the workspace first/);
    expect(await readdir(runsDir).catch(() => [])).toEqual(runsBefore);

    await workbench.editor.clickCodeLens(/Manage Workspace Trust/);
    // The Workspace Trust editor (code-server opens it over the workbench, not as a tab).
    await waitVisible(page.getByText('You are in Restricted Mode'), 'the Workspace Trust editor', 30_000);
  });
});
