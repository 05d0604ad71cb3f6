/**
 * Issue #7, spec 6: in a workspace the user has not trusted (Workspace Trust on; code-server opens
 * a new folder in Restricted Mode, with a banner, and asks nothing), a run whose scorer is a command from the workspace is refused before anything
 * runs, and the user is told why and what to do.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { useSession } from '../harness/specSession';
import { waitVisible } from '../pages/waits';

describe('spec 6: an untrusted workspace refuses a command scorer', () => {
  let fixture: EvolveFixture;
  const session = useSession(async () => {
    fixture = await startEvolveFixture({ mode: 'suggest', candidates: 1 });
    return {
      options: {
        name: 'untrusted',
        workspaceTrust: true,
        userSettings: fixture.userSettings,
        populate: async (folder) => {
          await fixture.populate(folder);
          // The scorer runs a program from the workspace: exactly what trust is about.
          await writeFile(join(folder, fixture.subdir, 'score.mjs'), 'console.log(1);\n');
          const spec = join(folder, fixture.specRelative);
          const text = await readFile(spec, 'utf8');
          if (!text.includes('scorer:\n  type: numeric\n')) throw new Error(`${fixture.specRelative}: no numeric scorer to replace`);
          await writeFile(spec, text.replace('scorer:\n  type: numeric\n', 'scorer:\n  type: command\n  command: node score.mjs\n'));
        },
      },
      cleanup: () => fixture.close(),
    };
  });

  it('refuses to evolve, says why, and runs nothing', async () => {
    const s = session();
    const { workbench, page } = s;
    await waitVisible(page.locator('.statusbar-item', { hasText: 'Restricted Mode' }), 'the Restricted Mode status bar item', 30_000);

    const runsDir = join(s.folder, '.ratchet', 'runs');
    const runsBefore = await readdir(runsDir).catch(() => []);
    await workbench.editor.openFile(fixture.promptRelative);
    await workbench.editor.waitForCodeLens(/Evolve/, 60_000);
    await workbench.palette.run('Ratchet: Evolve Prompt');

    const message = await workbench.notifications.waitFor(/command scorer executes code from the workspace/, 30_000);
    console.log(`[e2e] refusal shown: ${message}`);
    expect(message).toMatch(
      /^Ratchet: Evolve.* — This run's command scorer executes code from the workspace, which is not trusted; trust the workspace \(Workspace Trust in the editor, or ratchet mcp --trust\) or use a scorer that runs no code/,
    );
    await s.workbench.parkMouse();
    await s.screenshot('refused');

    // Refused before anything ran: no LLM call, no journal.
    expect(fixture.fake.calls).toEqual([]);
    expect(await readdir(runsDir).catch(() => [])).toEqual(runsBefore);
  });
});
