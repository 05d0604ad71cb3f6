// The Evidence command (a suggestion's link, a decision in the Runs view, the palette): it opens the panel
// on that decision, loading the run's journal first when the panel does not hold the run.
import { describe, expect, it, vi } from 'vitest';
import type { CommandContext } from '../../../src/extension/commands/context';

const editor: { activeTextEditor?: { document: { uri: { toString(): string } } } } = {};
vi.mock('vscode', () => ({ Uri: class {}, window: editor, commands: {} }));

const { reviewCommands } = await import('../../../src/extension/commands/reviewCommands');

/** The suggestions drawn, by file: what `book.current` finds for the active editor. */
function setup(held: string[], drawn: Record<string, { uri: string; runId: string; candidateId: string }> = {}) {
  const calls: string[] = [];
  const ctx = {
    review: { book: { current: (uri: string) => drawn[uri] } },
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

  it('only opens the panel when no decision is named and none is drawn in the active editor', async () => {
    const { showEvidence, calls } = setup(['r1'], { 'file:///w/b.prompt.md': { uri: 'file:///w/b.prompt.md', runId: 'r1', candidateId: 'c1' } });
    editor.activeTextEditor = { document: { uri: { toString: () => 'file:///w/a.prompt.md' } } };
    await showEvidence();
    editor.activeTextEditor = undefined;
    await showEvidence();
    await showEvidence({ runId: 'r1' });
    expect(calls).toEqual(['show', 'show', 'show']);
  });

  it('from the palette, focuses the suggestion drawn in the active editor (the keyboard’s way to its Evidence link)', async () => {
    const { showEvidence, calls } = setup(['r1'], { 'file:///w/a.prompt.md': { uri: 'file:///w/a.prompt.md', runId: 'r1', candidateId: 'c4' } });
    editor.activeTextEditor = { document: { uri: { toString: () => 'file:///w/a.prompt.md' } } };
    await showEvidence();
    editor.activeTextEditor = undefined;
    expect(calls).toEqual(['focus r1 c4']);
  });
});
