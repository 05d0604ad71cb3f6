// The one vocabulary of run states (issue #27): each face's words are the table's rows that face
// can tell, and the table's facts (over, resumable, label) are the ones the faces used before.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { RUN_STATE_NAMES, isTerminalRunState, runStateLabel, runStateRow } from '../../../src/core/journal/runStates';
import type { ListedRunStatus, LiveRunState, PanelRunStatus, RunStateName, TerminalRunState } from '../../../src/core/journal/runStates';

describe('the run-state table', () => {
  it('derives each face’s words (checked by the type checker)', () => {
    expectTypeOf<RunStateName>().toEqualTypeOf<'pending' | 'running' | 'waiting-for-you' | 'finished' | 'failed' | 'cancelled' | 'interrupted' | 'corrupt'>();
    expectTypeOf<LiveRunState>().toEqualTypeOf<'running' | 'waiting-for-you' | 'finished' | 'failed' | 'cancelled' | 'interrupted'>();
    expectTypeOf<ListedRunStatus>().toEqualTypeOf<'running' | 'finished' | 'failed' | 'cancelled' | 'interrupted' | 'corrupt'>();
    expectTypeOf<PanelRunStatus>().toEqualTypeOf<'pending' | 'running' | 'finished' | 'failed' | 'cancelled'>();
    expectTypeOf<TerminalRunState>().toEqualTypeOf<'finished' | 'failed' | 'cancelled' | 'interrupted' | 'corrupt'>();
  });

  it('names each state once', () => {
    expect(new Set(RUN_STATE_NAMES).size).toBe(RUN_STATE_NAMES.length);
  });

  it('says which states are over', () => {
    expect(RUN_STATE_NAMES.filter(isTerminalRunState)).toEqual(['finished', 'failed', 'cancelled', 'interrupted', 'corrupt']);
  });

  it('says which states can be resumed: interrupted always, failed when the endpoint failed', () => {
    expect(RUN_STATE_NAMES.filter((n) => runStateRow(n).resumable !== 'never').map((n) => [n, runStateRow(n).resumable])).toEqual([
      ['failed', 'if-endpoint-failed'],
      ['interrupted', 'always'],
    ]);
  });

  it('shows each state by its name, but waiting-for-you in words', () => {
    expect(RUN_STATE_NAMES.filter((n) => runStateLabel(n) !== n).map(runStateLabel)).toEqual(['waiting for you']);
  });
});
