// The Programs view's fold over a real in-process code search (the search tests' world): every
// program the run proposed and evaluated is a node on its island with its parent, the best-so-far
// line steps only up and only at committed programs, and ring migrations and failed proposals are
// kept as the journal says them.
import { describe, expect, it } from 'vitest';
import { emptyPrograms, foldProgramEvent } from '../../../src/panelState/programs';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';
import { migratingSearchEvents } from '../code/searchWorld';

describe('Programs view fold', () => {
  it('nodes, evaluation order, best-so-far steps and migrations follow the journal', async () => {
    const events = await migratingSearchEvents(3, 40);
    const s = emptyPrograms();
    for (const e of events) foldProgramEvent(s, e);
    const proposed = events.filter((e) => e.type === 'candidate/proposed');
    expect(s.order).toEqual(proposed.map((e) => (e.type === 'candidate/proposed' ? e.candidateId : '')));
    const evaluated = events.flatMap((e) => (e.type === 'program/evaluated' ? [e] : []));
    expect(s.evaluated).toEqual(evaluated.map((e) => e.candidateId));
    for (const e of evaluated) {
      const node = s.nodes[e.candidateId]!;
      expect(node.score).toBe(e.score);
      expect(node.island).toBe(e.island);
      expect(node.evalIndex).toBe(s.evaluated.indexOf(e.candidateId) + 1);
    }
    // Every child names its proposer's kind and its parent is a node proposed before it.
    for (const id of s.order.slice(1)) {
      const node = s.nodes[id]!;
      expect(['diff', 'full', 'cross']).toContain(node.kind);
      expect(s.order.indexOf(node.parentId!)).toBeLessThan(s.order.indexOf(id));
    }
    const commits = new Set(events.flatMap((e) => (e.type === 'decision' && e.record.decision === 'commit' ? [e.record.candidateId] : [])));
    expect(commits.size).toBeGreaterThan(0);
    expect(s.bestSteps[0]!.programId).toBe('p0');
    for (let i = 1; i < s.bestSteps.length; i++) {
      const step = s.bestSteps[i]!;
      expect(commits.has(step.programId)).toBe(true);
      expect(step.score).toBeGreaterThan(s.bestSteps[i - 1]!.score);
      expect(step.evalIndex).toBeGreaterThan(s.bestSteps[i - 1]!.evalIndex);
    }
    const migrated = events.flatMap((e) => (e.type === 'program/migrated' ? e.moves : []));
    expect(migrated.length).toBeGreaterThan(0);
    expect(s.migrations.map((m) => m.programId)).toEqual(migrated.map((m) => m.programId));
    for (const m of migrated) expect(s.nodes[m.programId]!.migratedTo).toContain(m.to);
    expect(s.islands).toBe(2);
  });

  it('failed proposals are kept with their reason, and a run state folds programs only for a search', async () => {
    const events = await migratingSearchEvents(5, 12, true);
    const failed = events.flatMap((e) => (e.type === 'proposal/failed' ? [e] : []));
    expect(failed.length).toBeGreaterThan(0);
    const state = foldEvents(emptyRunState('r'), [{ type: 'run/started', runId: 'r', at: 0, info: { kind: 'search', target: 'solve.mjs', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 } }, ...events]);
    expect(state.programs.failed.map((f) => f.reason)).toEqual(failed.map((f) => f.reason));
    expect(state.programs.failedByReason.patch).toBe(failed.filter((f) => f.reason === 'patch').length);
    const prompt = foldEvents(emptyRunState('q'), [{ type: 'run/started', runId: 'q', at: 0, info: { kind: 'evolve', target: 'a.prompt.md', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 } }, ...events]);
    expect(prompt.programs.order).toEqual([]);
  });
});
