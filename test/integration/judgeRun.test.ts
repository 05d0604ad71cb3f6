// The judge run's Node face as a pull-request check calls it: the base's text given as the
// incumbent, the head's as the candidate, the run spec read where the file is — against the fake
// endpoint over HTTP, journaled in the workspace.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { judgePromptEdit } from '../../src/node/runs/judgeRun';
import { journalSoFar } from './evolveCli';
import { scenario, withMarker, workspace } from './judgeWorld';

describe('judgePromptEdit with the incumbent given', () => {
  it('judges head against base, whatever the file holds, and leaves the file alone', async () => {
    const w = workspace(1);
    const fake = await startFakeServer({ scenario: scenario(w, 1) });
    try {
      const onDisk = readFileSync(w.promptPath, 'utf8');
      const base = withMarker('worse');
      const o = await judgePromptEdit({
        path: w.promptPath,
        workspace: w.dir,
        incumbentText: base,
        candidateText: onDisk,
        endpointDefaults: { baseURL: fake.url, apiKey: 'k' },
        onEvent: () => undefined,
        signal: new AbortController().signal,
        version: 'test',
      });
      // Against base (two thirds of its right answers turned wrong) the file's text is far better.
      expect(o).toMatchObject({ status: 'finished', verdict: 'commit', gate: 'pace+', testsOnText: 1, evidence: { losses: 0 } });
      expect(o.pairs.length).toBe(o.record!.itemsConsumed);
      const proposed = journalSoFar(w.dir, o.runId).filter((e) => e.type === 'candidate/proposed');
      expect(proposed.map((e) => (e.type === 'candidate/proposed' ? e.text.includes('edit:worse') : undefined))).toEqual([true, false]);
      expect(readFileSync(w.promptPath, 'utf8')).toBe(onDisk);
    } finally {
      await fake.close();
    }
  });
});
