import { describe, expect, it } from 'vitest';
import type { EngineEvent, JournaledEvent } from '../../../src/core/journal/events';
import type { LiveRunStatus } from '../../../src/core/journal/runStatus';
import type { RunListEntry, RunStatusParams } from '../../../src/protocol/lsp';
import { endNotice, resumeOffer, runNotice, runsToOffer } from '../../../src/extension/runs/runNotices';

type Body = EngineEvent extends infer E ? (E extends EngineEvent ? Omit<E, 'runId' | 'at' | 'seq'> : never) : never;
const at = (event: Body) => ({ runId: 'r1', uri: 'file:///w/my%20task.prompt.md', workspace: '/w', event: { runId: 'r1', at: 1, seq: 1, ...event } as JournaledEvent });

describe('endNotice', () => {
  const status = (over: Partial<LiveRunStatus>): RunStatusParams => ({
    uri: 'file:///w/my%20task.prompt.md',
    workspace: '/w',
    status: { runId: 'r1', state: 'running', tested: 3, commits: 1, line: 'testing v4', ...over },
  });
  const going = status({}).status;

  it('shows a failure once, with what failed, even one whose journal never said so', () => {
    const failed = status({ state: 'failed', error: 'Could not reach the endpoint http://x/v1.' });
    expect(endNotice(failed, going)).toEqual({
      level: 'error',
      message: 'Ratchet: the run on my task.prompt.md (run r1) failed — Could not reach the endpoint http://x/v1.',
      show: true,
    });
    expect(endNotice(failed, failed.status)).toBeUndefined();
  });

  it('offers Test Connection and Use a VS Code Model when the endpoint failed (unknown model, unreachable), and nothing more for other failures', () => {
    const message = 'The endpoint http://x/v1 answered 404 Not Found: the model "gpt-4o-mini" is named at t.ratchet.yaml:6.';
    expect(endNotice(status({ state: 'failed', error: message, errorCode: 'llmHttp' }), going)?.actions).toEqual([
      { title: 'Test Connection', command: 'testConnection' },
      { title: 'Use a VS Code Model', command: 'selectModel' },
    ]);
    expect(endNotice(status({ state: 'failed', error: 'Could not reach the endpoint http://x/v1.', errorCode: 'llmNetwork' }), going)?.actions).toHaveLength(2);
    expect(endNotice(status({ state: 'failed', error: 't.ratchet.yaml:3:1: unknown key', errorCode: 'badInput' }), going)?.actions).toBeUndefined();
  });

  it('only logs a normal end, a cancel and a run that stopped mid-way', () => {
    expect(endNotice(status({ state: 'finished', line: '3 tested · 1 committed' }), going)).toEqual({
      level: 'info',
      message: 'Run on my task.prompt.md (run r1) finished: 3 tested, 1 committed.',
      show: false,
    });
    expect(endNotice(status({ state: 'cancelled' }), going)).toEqual({ level: 'info', message: 'Run on my task.prompt.md (run r1) was cancelled (3 tested, 1 committed).', show: false });
    expect(endNotice(status({ state: 'interrupted' }), undefined)?.show).toBe(false);
  });

  it('says nothing while the run goes on', () => {
    expect(endNotice(status({}), undefined)).toBeUndefined();
    expect(endNotice(status({ state: 'waiting-for-you', line: 'v4 waits for your Accept or Reject' }), going)).toBeUndefined();
  });
});

describe('endNotice of a code search', () => {
  const search = (over: Partial<LiveRunStatus>): RunStatusParams => ({
    uri: 'file:///w/step.mjs',
    workspace: '/w',
    status: { runId: 'r2', state: 'running', kind: 'search', tested: 6, commits: 2, line: 'testing p7', search: { start: 0.18, best: { candidateId: 'p4', score: 0.7244 }, committed: {} }, ...over },
  });
  const going = search({}).status;

  it('shows how a finished search did: the best program against the start, and the run', () => {
    expect(endNotice(search({ state: 'finished' }), going)).toEqual({
      level: 'info',
      message: 'Ratchet: the code search on step.mjs (run r2) finished: 6 programs tested, 2 committed; best 0.7244 (p4), up from 0.18 at the start.',
      show: true,
    });
  });

  it('says why a search stopped early, in the words of its first failure', () => {
    const why = '10 proposals in a row came to nothing (search.stopAfterFailedProposals); the first could not be read: the answer has no <DIFF> block.';
    const none = search({ state: 'finished', tested: 0, commits: 0, stopped: why, search: { start: 0.18, committed: {} } });
    expect(endNotice(none, going)).toEqual({ level: 'info', message: `Ratchet: the code search on step.mjs (run r2) stopped early: ${why.slice(0, -1)} (0 programs tested, 0 committed).`, show: true });
  });

  it('says so when nothing beat the starting program', () => {
    const none = search({ state: 'finished', tested: 1, commits: 0, search: { start: 0.18, best: { candidateId: 'p0', score: 0.18 }, committed: {} } });
    expect(endNotice(none, going)?.message).toBe("Ratchet: the code search on step.mjs (run r2) finished: 1 program tested, 0 committed; nothing beat the starting program's 0.18.");
  });

  it('shows a failure as an error, and only logs a cancel or an interruption', () => {
    expect(endNotice(search({ state: 'failed', error: 'The starting program is incorrect by its evaluator.' }), going)).toMatchObject({ level: 'error', show: true });
    expect(endNotice(search({ state: 'cancelled' }), going)).toEqual({ level: 'info', message: 'Code search on step.mjs (run r2) was cancelled (6 programs tested, 2 committed; best 0.7244 (p4), up from 0.18 at the start).', show: false });
    expect(endNotice(search({ state: 'interrupted' }), going)?.show).toBe(false);
  });
});

describe('runNotice', () => {
  it('logs the engine’s warnings and waits, and nothing else', () => {
    expect(runNotice(at({ type: 'log', level: 'warn', message: 'small dev set' }))?.message).toBe('Run on my task.prompt.md (run r1): small dev set');
    expect(runNotice(at({ type: 'log', level: 'info', message: 'x' }))).toBeUndefined();
    expect(runNotice(at({ type: 'cost/update', cost: {} as never, llmCalls: 1 }))).toBeUndefined();
    expect(runNotice(at({ type: 'run/finished', commits: 1, candidates: 3, incumbentId: 'c1' }))).toBeUndefined();
    expect(runNotice(at({ type: 'llm/waiting', role: 'agent', model: 'm', why: 'rate-limited', waitMs: 12_000, status: 429, message: 'The endpoint answered 429.' }))).toEqual({
      level: 'info',
      message: 'Run on my task.prompt.md (run r1): rate limited (agent), waiting 12 s: The endpoint answered 429.',
      show: false,
    });
  });
});

describe('resumeOffer', () => {
  const interrupted = (runId: string, target?: string): RunListEntry => ({
    runId,
    kind: 'evolve',
    target,
    status: 'interrupted',
    started: 1,
    lastEventAt: 2,
    events: 10,
    candidates: 2,
    commits: 1,
    cost: undefined,
    gate: 'pace+',
    alpha: 0.05,
    tornTail: false,
    workspace: '/w',
    hosted: false,
    resumable: true,
  });

  it('names the one interrupted run, and its button resumes that run', () => {
    expect(resumeOffer([interrupted('r1', '/w/arith/task.prompt.md')], 1)).toEqual({
      message: 'Ratchet: the run on task.prompt.md (run r1) was interrupted: the process running it stopped mid-run. Resume continues it from its journal.',
      button: 'Resume',
      runId: 'r1',
    });
  });

  it('leaves the runs the user dismissed alone when a window opens, not when their process just died', () => {
    const runs = [interrupted('r1'), interrupted('r2')];
    expect(runsToOffer(runs, new Set(['r1']), false).map((r) => r.runId)).toEqual(['r2']);
    expect(runsToOffer(runs, new Set(['r1', 'r2']), false)).toEqual([]);
    expect(runsToOffer(runs, new Set(['r1', 'r2']), true).map((r) => r.runId)).toEqual(['r1', 'r2']);
  });

  it('counts several, and lets the user pick; a listing that lags the count still counts them all', () => {
    expect(resumeOffer([interrupted('r1'), interrupted('r2')], 2)).toEqual({ message: 'Ratchet: 2 runs were interrupted (the process running them stopped mid-run).', button: 'Resume…' });
    expect(resumeOffer([], 3)).toMatchObject({ message: expect.stringMatching(/^Ratchet: 3 runs were interrupted/), button: 'Resume…' });
    expect(resumeOffer([], 3).runId).toBeUndefined();
  });
});
