// The Evidence command (a suggestion's code lens, a decision in the Runs view): it opens the panel
// on that decision, loading the run's journal first when the panel does not hold the run.
import { describe, expect, it, vi } from 'vitest';
import type { CommandContext } from '../../../src/extension/commands/context';

vi.mock('vscode', () => ({ Uri: class {}, window: {}, commands: {} }));

const { reviewCommands } = await import('../../../src/extension/commands/reviewCommands');

function setup(held: string[]) {
  const calls: string[] = [];
  const ctx = {
    feed: {
      has: (runId: string) => held.includes(runId),
      load: async (workspace: string, runId: string) => void calls.push(`load ${workspace} ${runId}`),
    },
    runsView: { listedRuns: () => [{ runId: 'r-old', workspace: '/w' }] },
    panel: {
      show: () => void calls.push('show'),
      focus: (runId: string, candidateId: string) => void calls.push(`focus ${runId} ${candidateId}`),
    },
  } as unknown as CommandContext;
  return { showEvidence: reviewCommands(ctx).showEvidence, calls };
}

describe('Show Evidence', () => {
  it('focuses the decision a code lens names', async () => {
    const { showEvidence, calls } = setup(['r1']);
    await showEvidence('file:///w/a.prompt.md', 'r1', 'c3');
    expect(calls).toEqual(['focus r1 c3']);
  });

  it('reads a listed run’s journal before focusing a decision the Runs view names', async () => {
    const { showEvidence, calls } = setup([]);
    await showEvidence(undefined, 'r-old', 'c2');
    expect(calls).toEqual(['load /w r-old', 'focus r-old c2']);
  });

  it('only opens the panel when no decision is named', async () => {
    const { showEvidence, calls } = setup(['r1']);
    await showEvidence();
    await showEvidence({ runId: 'r1' });
    expect(calls).toEqual(['show', 'show']);
  });
});
