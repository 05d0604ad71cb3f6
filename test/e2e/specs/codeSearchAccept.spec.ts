/**
 * Issue #16, the best program as a suggestion: Start Code Search on the circle-packing example
 * against the fake endpoint; once the search is done its best program waits in the editor, drawn
 * whole in place with Accept / Reject / Diff / Evidence, and the status bar says the search waits
 * for you. Accept writes the program the search journaled, the frozen code outside the EVOLVE-BLOCK
 * byte for byte (read from the file once saved), and a hover on a line it brought names the program
 * and its code search; one Ctrl+Z gives the file back exactly; the search then finishes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import { frozenSegments, parseBlocks } from '../../../src/core/code/blocks';
import { useSession } from '../harness/specSession';
import { Provenance } from '../pages/Provenance';
import { waitUntil, waitVisible } from '../pages/waits';

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
  'budget: { proposals: 8, evaluations: 40 }',
  'concurrency: 2',
  'islands: 1',
  '',
].join('\n');

const frozen = (text: string) => frozenSegments(text, parseBlocks(text));

/** The whole program the search offered as `candidateId`, as its journal holds it. */
function journaledProgram(folder: string, candidateId: string): string {
  const runs = join(folder, '.ratchet', 'runs');
  for (const run of readdirSync(runs)) {
    const lines = readFileSync(join(runs, run, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const offered = lines.map((l) => JSON.parse(l) as { type: string; candidateId?: string; newText?: string }).find((e) => e.type === 'suggestion' && e.candidateId === candidateId);
    if (offered?.newText !== undefined) return offered.newText;
  }
  throw new Error(`No suggestion ${candidateId} in any journal under ${runs}.`);
}

describe('the best program of a code search, offered inline', () => {
  let fake: FakeServer;
  const session = useSession(async () => {
    fake = await startFakeServer({});
    return {
      options: {
        name: 'code-search-accept',
        userSettings: { 'ratchet.endpoint.baseUrl': fake.url, 'ratchet.models.default': 'sim-proposer' },
        populate: (folder) => writeFile(join(folder, `${PROGRAM}.ratchet.yaml`), SPEC),
      },
      cleanup: () => fake.close(),
    };
  });

  it('shows the best program in place once the search is done; Accept writes it, frozen code intact; one Ctrl+Z restores the file', async () => {
    const s = session();
    const { editor } = s.workbench;
    const onDisk = await readFile(join(s.folder, PROGRAM), 'utf8');
    const dirty = () => editor.activeTab().and(s.page.locator('.dirty'));
    await editor.openFile(PROGRAM);
    await editor.clickCodeLens(/Start Code Search/, 90_000);

    // Done with its budget, the search waits for the answer to its best program.
    const item = s.page.locator('.statusbar-item', { hasText: 'pack.mjs' }).first();
    const waiting = await waitUntil(
      async () => {
        const text = (await item.textContent().catch(() => null)) ?? '';
        return /the search is done; p\d+ waits for your Accept or Reject/.test(text) ? text : undefined;
      },
      'the status bar to say the done search waits for your answer',
      240_000,
    );
    const best = /(p\d+) waits/.exec(waiting)![1]!;
    // Start Code Search opened the panel beside the program (its Programs tab); back to the program's group.
    await editor.focusGroup(1);
    await editor.waitForSuggestionLink(`Accept ${best}`, 30_000);
    expect(await editor.suggestionLinkTexts()).toEqual(expect.arrayContaining([`Accept ${best}`, 'Reject', 'Diff', 'Evidence']));
    const program = journaledProgram(s.folder, best);
    expect(frozen(program)).toEqual(frozen(onDisk));
    // Drawn, not written: the added lines are on screen, the document is still the file on disk.
    await waitUntil(async () => ((await editor.addedLineBlocks()).length > 0 ? true : undefined), 'the best program’s lines drawn in place', 30_000);
    expect(await dirty().count()).toBe(0);
    // The picture (the README's) shows the panel beside the program with the search as it ended: a
    // panel opened for the first time in a fresh browser profile stays blank until VS Code's webview
    // service worker is installed, which under the search's load took longer than the search.
    await waitVisible(s.workbench.ratchetPanel.status.filter({ hasText: `the search is done; ${best} waits for your Accept or Reject` }), "the panel's header saying the search waits for the answer", 60_000);
    await s.workbench.parkMouse();
    await s.screenshot('inline-best');

    // Accept writes it into the editor (the file on disk waits for a save): the program the search journaled, frozen code intact.
    await editor.clickSuggestionLink(`Accept ${best}`);
    await waitVisible(dirty(), 'the program tab dirty with the accepted program', 30_000);
    await editor.save();
    const accepted = await readFile(join(s.folder, PROGRAM), 'utf8');
    expect(accepted).toBe(program);
    expect(frozen(accepted)).toEqual(frozen(onDisk));
    // A line the program brought says where it came from: the program, its code search, the gate's evidence.
    const brought = program.split('\n').find((l) => l.trim() !== '' && !onDisk.split('\n').includes(l))!;
    const said = await new Provenance(s.page, editor, s.workbench.palette).hoverLine(brought.trim());
    expect(said).toMatch(new RegExp(`this line came from program ${best} of code search \\d{8}-\\d{6}-\\w+`));
    expect(said).toMatch(/Accepted by you/);
    await s.workbench.parkMouse();

    // One Ctrl+Z gives the file back exactly.
    await editor.undo();
    await waitVisible(dirty(), 'the program tab dirty after Ctrl+Z');
    await editor.save();
    expect(await readFile(join(s.folder, PROGRAM), 'utf8')).toBe(onDisk);
    await waitVisible(s.page.locator('.statusbar-item', { hasText: /pack\.mjs · finished/ }), 'the search to finish once answered', 60_000);
  });
});
