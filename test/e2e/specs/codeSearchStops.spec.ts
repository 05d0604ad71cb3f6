/**
 * Issue #29 item 3: a search whose proposals all fail stops and says why. Start Code Search on the
 * ShinkaEvolve sorting-network example as it ships (no run spec: the defaults) against the fake
 * endpoint, whose proposer finds no decimal literal to nudge in that block and so answers with a
 * name and no edit: every proposal fails on format. After search.stopAfterFailedProposals (default
 * 10) in a row the search stops, far short of its 100 proposals, and the notification and the
 * panel's header each say why in one sentence, with the first failure's words.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import { useSession } from '../harness/specSession';
import { RatchetPanel } from '../pages/RatchetPanel';

const PROGRAM = 'code/shinka-sorting-network/initial.py';
const WHY = /10 proposals in a row came to nothing \(search\.stopAfterFailedProposals\); the first could not be read: The answer has neither a <DIFF> nor a <CODE> section/;

describe('a code search whose proposals all fail', () => {
  let fake: FakeServer;
  const session = useSession(async () => {
    fake = await startFakeServer({});
    return {
      options: { name: 'code-search-stops', userSettings: { 'ratchet.endpoint.baseUrl': fake.url, 'ratchet.models.default': 'sim-proposer' } },
      cleanup: () => fake.close(),
    };
  });

  it('stops after 10 failed proposals in a row; the notification and the header say why with the first failure’s words', async () => {
    const s = session();
    const { editor, notifications } = s.workbench;
    await editor.openFile(PROGRAM);
    await editor.clickCodeLens(/Start Code Search/, 90_000);

    const said = await notifications.waitFor(/stopped early/, 240_000);
    expect(said).toMatch(/the code search on initial\.py \(run [\w-]+\) stopped early: /);
    expect(said).toMatch(WHY);

    const panel = new RatchetPanel(s.page);
    const status = await panel.waitForStatus('finished', 60_000);
    expect(status).toMatch(/^stopped early: 0 commits of 0 candidates\. /);
    expect(status).toMatch(WHY);
    await s.workbench.parkMouse();
    await s.screenshot('stopped-early');

    // The journal says the same, and the search spent a small part of its 100 proposals.
    const runsDir = join(s.folder, '.ratchet', 'runs');
    const [runId] = await readdir(runsDir);
    const events = (await readFile(join(runsDir, runId!, 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; stopped?: string });
    expect(events.at(-1)).toMatchObject({ type: 'run/finished', stopped: expect.stringMatching(WHY) });
    expect(fake.calls.filter((c) => c.role === 'proposer').length).toBeLessThan(60);
  }, 420_000);
});
