// The status bar's words and the Runs tree's nodes, from runs' statuses (as the daemon pushes them)
// and runs folded by the panel's RunStore.
import { describe, expect, it } from 'vitest';
import type { LiveRunStatus } from '../../../src/core/journal/runStatus';
import { RunStore } from '../../../src/extension/runs/runStore';
import { candidateNodes, decisionNodes, groupedRunNodes, runNodes, startClock } from '../../../src/extension/views/runsTree';
import { compact, statusView } from '../../../src/extension/views/statusText';
import type { ShownRun } from '../../../src/extension/views/statusText';
import type { RunListEntry, RunStatusParams } from '../../../src/protocol/lsp';
import { RUN, cost, decided, ev, proposed, started, step } from '../webview/events';
import type { RunState } from '../../../src/panelState/types';

function fold(...events: ReturnType<typeof started>[]): RunState {
  const store = new RunStore();
  store.appendAll(events);
  return store.get(RUN)!.state;
}

const STARTED = Date.UTC(2026, 10, 29, 10, 0);

const running = () => fold(started(), proposed('c0', undefined), proposed('c1abcdef99', 'c0'), step('c1abcdef99', 1, 1, Math.log(1.5)), step('c1abcdef99', 2, 1, Math.log(3.2)), ev('cost/update', { cost: cost(12), llmCalls: 12 }));

const status = (over: Partial<LiveRunStatus> = {}): RunStatusParams => ({
  uri: 'file:///w/p/x.prompt.md',
  workspace: '/w',
  status: { runId: RUN, state: 'running', tested: 0, commits: 0, line: 'testing c1abcdef99', ...over },
});

const shown = (over: Partial<LiveRunStatus> = {}, state: RunState | undefined = running()): ShownRun => ({ runId: RUN, status: status(over), state });

describe('statusView', () => {
  it('shows the run, its status line and the cost; the candidate’s evidence against 1/α in the tooltip', () => {
    expect(statusView(shown(), 'running', { health: 'ok', message: 'Ready.' })).toEqual({
      text: '$(sync~spin) x.prompt.md · testing c1abcdef99 · $0.01',
      tooltip: ['Run run-1 — evolve p/x.prompt.md, gate pace+ (α = 0.05)', 'Candidate c1abcdef99: evidence ×3.2, committed at ×20 (1/α).', '12 LLM calls, 1320 tokens, $0.0120.', 'Click to open the Ratchet panel.'].join('\n'),
      severity: 'normal',
    });
  });

  it('under the run-level default the tooltip calls a line above 1/α the candidate’s share of the run’s α', () => {
    const state = fold(
      started({ schedule: 'fwer-screened' }),
      proposed('c0', undefined),
      proposed('c2', 'c0'),
      ev('wealth/step', { candidateId: 'c2', k: 1, itemId: 'i1', delta: 1, logWealth: Math.log(1.6), logThreshold: Math.log(120), logBest: 10 }),
    );
    expect(statusView(shown({}, state), 'running', undefined).tooltip).toContain('Candidate c2: evidence ×1.6, committed at ×120 (its share of the run’s α).');
  });

  it('says what the daemon says while a call waits, and what the run waits for from the user', () => {
    const state = fold(started(), proposed('c0', undefined), ev('llm/waiting', { role: 'agent', model: 'm', why: 'rate-limited', waitMs: 12_000, status: 429, message: 'The endpoint answered 429.' }));
    const during = statusView(shown({ line: 'rate limited, waiting 12 s', wait: { ms: 12_000, then: 'scoring the starting prompt' } }, state), 'running', undefined);
    expect(during.text).toBe('$(sync~spin) x.prompt.md · rate limited, waiting 12 s · 0 calls');
    expect(during.tooltip).toContain('An LLM call is waiting before it tries again: The endpoint answered 429.');
    expect(statusView(shown({ line: 'scoring the starting prompt' }, state), 'running', undefined).text).toBe('$(sync~spin) x.prompt.md · scoring the starting prompt · 0 calls');
    const asking = statusView(shown({ state: 'waiting-for-you', tested: 4, commits: 1, line: 'v4 waits for your Accept or Reject' }), 'running', undefined);
    expect(asking.text).toBe('$(bell) x.prompt.md · v4 waits for your Accept or Reject · $0.01');
    expect(asking.tooltip).toContain('Accept or Reject the suggestion in the editor');
  });

  it('says what an Evaluate found (its mean test score), not a commit count', () => {
    const evaluated = fold(
      started({ kind: 'evaluate', budget: { candidates: 0 } }),
      ev('report/test', { n: 3, baseline: { candidateId: 'v0', mean: 2 / 3, lo: 0.21, hi: 0.94 }, final: { candidateId: 'v0', mean: 2 / 3, lo: 0.21, hi: 0.94 }, difference: { mean: 0, lo: 0, hi: 0 } }),
    );
    const view = statusView(shown({ state: 'finished', tested: 0, commits: 0, line: 'finished' }, evaluated), 'running', undefined);
    expect(view.text).toBe('$(check) x.prompt.md · evaluated, mean 0.667 · 0 calls');
    expect(view.tooltip).toContain('Mean score 0.667 on 3 test items (95% interval 0.210–0.940).');
  });

  it('shows how a run ended from its last status, even when its events never said so', () => {
    expect(statusView(shown({ state: 'finished', tested: 3, commits: 1, line: '3 tested · 1 committed' }), 'running', undefined).text).toBe('$(check) x.prompt.md · finished, 1 commit · $0.01');
    const failed = statusView(shown({ state: 'failed', tested: 2, line: 'testing v3', error: 'The dataset is gone.' }), 'running', undefined);
    expect(failed.text).toBe('$(error) x.prompt.md · failed, 0 commits · $0.01');
    expect(failed.tooltip).toContain('Failed: The dataset is gone.');
    expect(statusView(shown({ state: 'interrupted' }), 'running', undefined).text).toBe('$(debug-pause) x.prompt.md · interrupted · $0.01');
  });

  it('says in short how often the judge did not answer once the run is over, and in full in the tooltip (#25)', () => {
    const view = statusView(shown({ state: 'finished', tested: 3, commits: 1, line: '3 tested · 1 committed', judge: { answers: 96, abstained: 22 } }), 'running', undefined);
    expect(view.text).toBe('$(check) x.prompt.md · finished, 1 commit · judge: no answer 22 of 96 · $0.01');
    expect(view.tooltip).toContain('The judge did not answer 22 of 96 times, even when asked again: those items were left out of the tests, not counted as ties.');
  });

  it('names the run from its status before any event came', () => {
    expect(statusView({ runId: RUN, status: status({ line: 'starting' }) }, 'running', undefined).text).toBe('$(sync~spin) x.prompt.md · starting');
  });

  it('shows a run no daemon reports on from its events: how its journal ends, in calls when dollars are unknown', () => {
    const run = fold(started(), proposed('c1', undefined), decided('c1', 'commit'), ev('cost/update', { cost: cost(3, false), llmCalls: 3 }), ev('run/finished', { commits: 1, candidates: 1, incumbentId: 'c1' }));
    expect(statusView({ runId: RUN, state: run }, 'running', undefined).text).toBe('$(check) x.prompt.md · finished, 1 commit · 3 calls');
  });

  it('says a run no daemon reports on waits for the user when its events say a suggestion waits, as the panel’s header does', () => {
    const run = fold(started(), proposed('c1', undefined), decided('c1', 'commit'), ev('suggestion', { candidateId: 'c1', file: '/w/p/x.prompt.md', baseText: 'a', newText: 'b' }));
    const view = statusView({ runId: RUN, state: run }, 'running', undefined);
    expect(view.text).toBe('$(bell) x.prompt.md · c1 waits for your Accept or Reject · 0 calls');
    expect(view.tooltip).toContain('Accept or Reject the suggestion in the editor; the run waits until you do.');
  });

  it('puts the server’s trouble first', () => {
    expect(statusView(shown(), 'running', { health: 'error', message: 'uncaught exception' })).toMatchObject({ severity: 'error' });
    expect(statusView(shown(), 'running', { health: 'error', message: 'uncaught exception' }).text.startsWith('$(error)')).toBe(true);
    expect(statusView(undefined, 'failed', undefined)).toMatchObject({ text: '$(error) Ratchet', severity: 'error' });
    expect(statusView(undefined, 'starting', undefined).text).toBe('$(loading~spin) Ratchet');
  });

  it('compacts numbers for the status bar', () => {
    expect([0.5, 3.14, 20, 1234, Infinity].map(compact)).toEqual(['0.5', '3.1', '20', '1.2k', '∞']);
  });
});

function listed(over: Partial<RunListEntry>): RunListEntry {
  return {
    runId: 'r-old',
    kind: 'evolve',
    target: 'math/word-problems.prompt.md',
    status: 'finished',
    started: STARTED,
    lastEventAt: undefined,
    events: 40,
    candidates: 5,
    commits: 2,
    cost: { dollars: 0.5, tokens: 1000, llmCalls: 40 },
    gate: 'pace+',
    alpha: 0.05,
    tornTail: false,
    workspace: '/w',
    hosted: false,
    resumable: false,
    ...over,
  };
}

describe('runsTree', () => {
  it('lists live runs the server has not listed yet first, then the listed ones, with their state', () => {
    const nodes = runNodes([listed({}), listed({ runId: 'r-int', status: 'interrupted', resumable: true })], [running()], []);
    expect(nodes.map((n) => [n.runId, n.label, n.icon, n.contextValue, n.loaded])).toEqual([
      [RUN, expect.stringMatching(/^\d\d:\d\d · running · x\.prompt\.md$/), 'running', 'run.hosted', true],
      ['r-old', `${startClock(STARTED)} · 2 committed · word-problems.prompt.md`, 'finished', 'run', false],
      ['r-int', `${startClock(STARTED)} · interrupted · word-problems.prompt.md`, 'interrupted', 'run.resumable', false],
    ]);
    expect(nodes[1]!.description).toBe('finished · 2/5 committed · 2026-11-29 10:00');
  });

  it('says what a dev-set generation found on disk wrote, not a commit count', () => {
    const gen = listed({ runId: 'r-gen', kind: 'gen-data', target: 'mental-math.prompt.md', candidates: 0, commits: 0, gate: 'none', generated: { rounds: 2, dev: 7, test: 4 } });
    const empty = listed({ runId: 'r-none', kind: 'gen-data', target: 'mental-math.prompt.md', candidates: 0, commits: 0, gate: 'none' });
    const [node, none] = runNodes([gen, empty], [], []);
    expect([node!.label, node!.description]).toEqual([`${startClock(STARTED)} · 7 dev tasks · mental-math.prompt.md`, 'finished · 7 dev tasks and 4 held-out from 2 rounds · 2026-11-29 10:00']);
    expect([none!.label, none!.description]).toEqual([`${startClock(STARTED)} · 0 dev tasks · mental-math.prompt.md`, 'finished · no round finished: nothing written · 2026-11-29 10:00']);
  });

  it('says an Evaluate run evaluated, never "0 committed", from the listing or its status', () => {
    const mcp = listed({ runId: 'r-eval', kind: 'evaluate', candidates: 0, commits: 0 });
    const [node] = runNodes([mcp], [], []);
    expect([node!.label, node!.description]).toEqual([`${startClock(STARTED)} · evaluated · word-problems.prompt.md`, 'finished · 2026-11-29 10:00']);
    // The editor's Evaluate journals as an evolve run; its status says what it is.
    const done = status({ state: 'finished', kind: 'evaluate', tested: 0, commits: 0, line: 'test split: 0.667 (n = 3)' });
    const [live] = runNodes([listed({ runId: RUN, candidates: 0, commits: 0 })], [], [done]);
    expect([live!.label, live!.description]).toEqual([`${startClock(STARTED)} · evaluated · word-problems.prompt.md`, 'finished · test split: 0.667 (n = 3) · 2026-11-29 10:00']);
    expect(live!.tooltip).not.toMatch(/committed/);
  });

  it('shows a listed run that is live in the store as running, from the store', () => {
    const [node] = runNodes([listed({ runId: RUN, status: 'running', hosted: true })], [running()], []);
    expect(node).toMatchObject({ icon: 'running', contextValue: 'run.hosted', loaded: true });
  });

  it('shows a listed run no daemon reports on, whose events say a suggestion waits, as waiting for you (as the panel’s header does)', () => {
    const waiting = fold(started(), proposed('c1', undefined), decided('c1', 'commit'), ev('suggestion', { candidateId: 'c1', file: '/w/p/x.prompt.md', baseText: 'a', newText: 'b' }));
    const [node] = runNodes([listed({ runId: RUN, status: 'running', hosted: true })], [waiting], []);
    expect(node).toMatchObject({ icon: 'waiting' });
    expect(node!.label).toContain(' · waiting for you · ');
    expect(node!.description.startsWith('waiting for you · ')).toBe(true);
    // Heard of by its events alone (the server has not listed it yet): the same.
    const [unlisted] = runNodes([], [waiting], []);
    expect(unlisted).toMatchObject({ icon: 'waiting' });
    expect(unlisted!.description.startsWith('waiting for you · ')).toBe(true);
  });

  it('labels runs time and result first, so two runs on one file differ where the view cuts the label', () => {
    const morning = new Date(2026, 10, 29, 9, 41).getTime();
    const nodes = runNodes([listed({ runId: 'r-2', started: morning + 3_600_000, commits: 0 }), listed({ runId: 'r-1', started: morning })], [], []);
    expect(nodes.map((n) => n.label)).toEqual(['10:41 · 0 committed · word-problems.prompt.md', '09:41 · 2 committed · word-problems.prompt.md']);
  });

  it('shows a run’s state and counts from its status where the daemon pushed one', () => {
    const asking = status({ state: 'waiting-for-you', tested: 4, commits: 1, line: 'v4 waits for your Accept or Reject' });
    const [node] = runNodes([listed({ runId: RUN, status: 'running', hosted: true })], [running()], [asking]);
    expect(node).toMatchObject({ icon: 'waiting', contextValue: 'run.hosted', description: 'waiting for you · v4 waits for your Accept or Reject · 2026-11-29 10:00' });
    expect(node!.tooltip).toContain('4 tested, 1 committed.');
  });

  it('takes how a run ended from its status before the next listing says so', () => {
    const failed = status({ state: 'failed', tested: 2, commits: 0, line: 'testing v3', error: 'The dataset is gone.' });
    const [node] = runNodes([listed({ runId: RUN, status: 'running', hosted: true })], [running()], [failed]);
    expect(node).toMatchObject({ icon: 'failed', contextValue: 'run', description: 'failed · testing v3 · 2026-11-29 10:00' });
    expect(node!.tooltip).toContain('Failed: The dataset is gone.');
  });

  it('shows a run known only from its first status, named after its file', () => {
    const nodes = runNodes([listed({})], [], [status({ line: 'starting' })]);
    expect(nodes.map((n) => [n.runId, n.label, n.icon, n.contextValue, n.description, n.loaded, n.workspace])).toEqual([
      [RUN, 'running · x.prompt.md', 'running', 'run.hosted', 'running · starting', false, '/w'],
      ['r-old', `${startClock(STARTED)} · 2 committed · word-problems.prompt.md`, 'finished', 'run', 'finished · 2/5 committed · 2026-11-29 10:00', false, '/w'],
    ]);
  });

  it('lists candidates with their fate, and decisions under them', () => {
    const run = fold(started(), proposed('c0', undefined), proposed('c1', 'c0'), decided('c1', 'commit'), proposed('c2', 'c0'), decided('c2', 'reject'), proposed('c3', 'c1'));
    expect(candidateNodes(run).map((c) => [c.candidateId, c.icon, c.description, c.hasDecisions])).toEqual([
      ['c0', 'baseline', 'baseline', false],
      ['c1', 'commit', 'commit (evidence) · from c0', true],
      ['c2', 'reject', 'reject (futile) · from c0', true],
      ['c3', 'untested', 'not tested · from c1', false],
    ]);
    expect(decisionNodes(run, 'c1')).toEqual([
      {
        kind: 'decision',
        runId: RUN,
        candidateId: 'c1',
        seq: 0,
        label: 'commit — evidence',
        description: 'pace+ · evidence ×21.5 (needs ×20) · 9 items',
        tooltip: 'Decision #0 by pace+ (α = 0.05): 7 wins, 1 losses, 1 ties over 9 items.\nOpen the evidence in the panel.',
      },
    ]);
  });
});

describe('a run no daemon reports on, interrupted on disk', () => {
  it('the status bar says interrupted, not running', () => {
    expect(statusView({ runId: RUN, state: running(), interrupted: true }, 'running', undefined).text).toBe('$(debug-pause) x.prompt.md · interrupted · $0.01');
  });

  it('the Runs view takes the server’s interrupted over the folded running', () => {
    const [node] = runNodes([listed({ runId: RUN, status: 'interrupted', resumable: true })], [running()], []);
    expect(node).toMatchObject({ icon: 'interrupted', contextValue: 'run.resumable' });
  });
});

describe('the Runs view groups runs by kind of file (#31)', () => {
  it('lists runs as they are while they are of one kind, and under a group per kind, in the table’s order, once they are not', () => {
    const prompts = runNodes([listed({ runId: 'a' }), listed({ runId: 'b', target: '.github/prompts/fix.prompt.md' })], [], []);
    expect(groupedRunNodes(prompts).map((n) => n.kind)).toEqual(['run', 'run']);
    const mixed = runNodes(
      [
        listed({ runId: 's', target: '.github/skills/triage/SKILL.md' }),
        listed({ runId: 'p', target: 'support/triage.prompt.md' }),
        listed({ runId: 'i', target: 'AGENTS.md' }),
        listed({ runId: 'j', target: '.github/instructions/py.instructions.md' }),
        listed({ runId: 'c', kind: 'search', target: 'code/pack.py' }),
      ],
      [],
      [],
    );
    expect(groupedRunNodes(mixed).map((g) => (g.kind === 'group' ? [g.label, g.description, g.runs.map((r) => r.runId)] : g.runId))).toEqual([
      ['Prompt files', '1 run', ['p']],
      ['Skills', '1 run', ['s']],
      ['Instructions', '2 runs', ['i', 'j']],
      ['Programs', '1 run', ['c']],
    ]);
  });
});
