import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src/core/run/events';
import { runNotice } from '../../../src/extension/runs/runNotices';

type Body = EngineEvent extends infer E ? (E extends EngineEvent ? Omit<E, 'runId' | 'at'> : never) : never;
const at = (event: Body) => ({ runId: 'r1', uri: 'file:///w/my%20task.prompt.md', workspace: '/w', event: { runId: 'r1', at: 1, ...event } as EngineEvent });

describe('runNotice', () => {
  it('shows a failure once, with what failed and its code', () => {
    expect(runNotice(at({ type: 'run/failed', error: { code: 'llmNetwork', message: 'Could not reach the endpoint http://x/v1.' } }))).toEqual({
      level: 'error',
      message: 'Ratchet: the run on my task.prompt.md (run r1) failed — Could not reach the endpoint http://x/v1 [llmNetwork].',
      show: true,
    });
  });

  it('only logs a normal end, a cancel and the engine’s warnings', () => {
    expect(runNotice(at({ type: 'run/finished', commits: 1, candidates: 3, incumbentId: 'c1' }))).toEqual({
      level: 'info',
      message: 'Run on my task.prompt.md (run r1) finished: 1 of 3 candidates committed.',
      show: false,
    });
    expect(runNotice(at({ type: 'run/cancelled' }))?.show).toBe(false);
    expect(runNotice(at({ type: 'log', level: 'warn', message: 'small dev set' }))?.message).toBe('Run on my task.prompt.md (run r1): small dev set');
    expect(runNotice(at({ type: 'log', level: 'info', message: 'x' }))).toBeUndefined();
    expect(runNotice(at({ type: 'cost/update', cost: {} as never, llmCalls: 1 }))).toBeUndefined();
  });
});
