// Issue #29 item 7: labels that contradicted the run's state. Every label below reads the one fold
// of what became of a commit (src/panelState/answers.ts), and each is checked against the case a
// newcomer saw go wrong.
import { describe, expect, it } from 'vitest';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';
import { answerCounts, commitAnswer } from '../../../src/panelState/answers';
import { versionLabel } from '../../../src/panelState/results';
import { undoneChanges } from '../../../src/extension/runs/undoneEdits';
import { candidateNodes, runNodes } from '../../../src/extension/views/runsTree';
import { historyLabel } from '../../../src/extension/provenance/hoverText';
import { statusView } from '../../../src/extension/views/statusText';
import { StatusFeed, isWorkDone, startingStatus } from '../../../src/core/journal/runStatus';
import type { LiveRunStatus } from '../../../src/core/journal/runStatus';
import type { RunListEntry } from '../../../src/protocol/lsp';
import type { ResultsVersion } from '../../../src/panelState/results';
import { buildResultsTable } from '../../../src/extension/panel/results';
import { headerModel } from '../../../webview/model/header';
import { buildLineage, lineageRows } from '../../../webview/model/lineage';
import { RunStore } from '../../../src/extension/runs/runStore';
import type { PanelEvent } from '../../../src/panelState/types';
import { RUN, decided, ev, eventClock, proposed, started } from '../webview/events';

const FILE = 'p/step.mjs';
const search = () => started({ kind: 'search', target: FILE });
const suggestion = (id: string) => ev('suggestion', { candidateId: id, file: FILE, baseText: 'a', newText: `text of ${id}` });
const fold = (events: PanelEvent[]) => foldEvents(emptyRunState(RUN), events);

/** A search that committed p1, p2, p3 and p4 and offered only p4, its best, in the editor. */
function fourCommitsOneOffered(): PanelEvent[] {
  const children = ['p1', 'p2', 'p3', 'p4'].flatMap((id) => [proposed(id, 'p0'), decided(id, 'commit')]);
  return [search(), proposed('p0', undefined), ...children, suggestion('p4')];
}

describe('one fold of what became of each commit feeds every label', () => {
  it('the header: the only suggestion accepted reads "1 accepted by you", never "3 awaiting your answer" for commits never offered', () => {
    const s = fold([...fourCommitsOneOffered(), ev('edit/applied', { candidateId: 'p4', file: FILE, by: 'user' }), ev('run/finished', { commits: 4, candidates: 4, incumbentId: 'p4' })]);
    expect(answerCounts(s)).toMatchObject({ accepted: 1, awaiting: 0, unoffered: 3 });
    expect(headerModel(s, 0).statusText).toBe('finished: 1 accepted by you of 4 candidates');
  });

  it('the header: while a search’s best waits in the editor it says so, not a bare "running"', () => {
    const s = fold(fourCommitsOneOffered());
    expect(headerModel(s, 0).statusText).toBe('running; p4, the best so far, waits in the editor for your Accept or Reject');
    // Superseded by a newer best, the old suggestion waits for nobody.
    const later = fold([...fourCommitsOneOffered(), ev('edit/rejected', { candidateId: 'p4', file: FILE, by: 'run', reason: 'superseded' })]);
    expect(commitAnswer(later.candidates['p4'])).toBe('withdrawn');
    expect(headerModel(later, 0).statusText).toBe('running');
  });

  it('an accepted suggestion reads "accepted by you" while its text stands', () => {
    const s = fold([...fourCommitsOneOffered(), ev('edit/applied', { candidateId: 'p4', file: FILE, by: 'user' })]);
    expect(commitAnswer(s.candidates['p4'])).toBe('accepted');
    expect(headerModel(s, 0).statusText).not.toMatch(/applied/);
  });

  it('Ctrl+Z back to the text the edit replaced reads "applied, then undone" in every label; Ctrl+Y reads "accepted" again', () => {
    const store = new RunStore();
    store.appendAll([...fourCommitsOneOffered(), ev('edit/applied', { candidateId: 'p4', file: FILE, by: 'user' }), ev('run/finished', { commits: 4, candidates: 4, incumbentId: 'p4' })]);
    const editor = (text: string) => store.appendAll(undoneChanges(store, FILE, () => text, eventClock()));
    const labels = () => {
      const s = store.snapshot(RUN)!;
      const lineage = lineageRows(s, buildLineage(s), new Set()).find((r) => r.label.startsWith('p4'))!.label;
      const runsView = candidateNodes(s).find((c) => c.candidateId === 'p4')!.description;
      return [headerModel(s, 0).statusText, lineage, runsView];
    };
    // The edit as applied, then the user's own typing on top of it: the edit still stands.
    editor('text of p4');
    editor('text of p4 and more');
    expect(labels()).toEqual(['finished: 1 accepted by you of 4 candidates', 'p4 committed, incumbent, accepted by you', expect.stringContaining('accepted by you')]);
    editor('a');
    expect(labels()).toEqual(['finished: 1 applied, then undone of 4 candidates', 'p4 committed, incumbent, applied, then undone', expect.stringContaining('applied, then undone')]);
    expect(versionLabel({ id: 'p4', baseline: false, decision: 'commit', answer: commitAnswer(store.snapshot(RUN)!.candidates['p4']) } satisfies ResultsVersion)).toBe('p4 (applied, then undone)');
    // Typing over the undone text leaves it undone; only the edit's own text back (Ctrl+Y) restores it.
    editor('ab');
    expect(commitAnswer(store.snapshot(RUN)!.candidates['p4'])).toBe('undone');
    editor('text of p4');
    expect(labels()[0]).toBe('finished: 1 accepted by you of 4 candidates');
  });

  it('another file going back to the same text, or an edit never applied, is nobody’s undo', () => {
    const store = new RunStore();
    store.appendAll([...fourCommitsOneOffered(), ev('edit/applied', { candidateId: 'p4', file: FILE, by: 'user' })]);
    expect(undoneChanges(store, 'p/other.mjs', () => 'a', eventClock())).toEqual([]);
    const unanswered = new RunStore();
    unanswered.appendAll(fourCommitsOneOffered());
    expect(undoneChanges(unanswered, FILE, () => 'a', eventClock())).toEqual([]);
    // The file's text is read only where an applied edit was offered: not on every keystroke elsewhere.
    let reads = 0;
    undoneChanges(store, 'p/other.mjs', () => String(++reads), eventClock());
    expect(reads).toBe(0);
  });

  it('Results: a commit the user rejected is labelled "rejected by you", not "(committed)"', () => {
    const events = [
      started(),
      proposed('c0', undefined),
      proposed('c1', 'c0'),
      ev('item/evaluated', { candidateId: 'c0', itemId: 'i1', score: 0, cached: false }),
      ev('item/evaluated', { candidateId: 'c1', itemId: 'i1', score: 1, cached: false }),
      decided('c1', 'commit'),
      suggestion('c1'),
      ev('edit/rejected', { candidateId: 'c1', file: FILE, by: 'user' }),
    ];
    const store = new RunStore();
    store.appendAll(events);
    const table = buildResultsTable(store.get(RUN)!);
    expect(table.versions.map(versionLabel)).toEqual(['c0 (baseline)', 'c1 (rejected by you)']);
  });

  it('the lineage row says the answer once, in the same words', () => {
    const s = fold([...fourCommitsOneOffered(), ev('edit/applied', { candidateId: 'p4', file: FILE, by: 'user' })]);
    const labels = lineageRows(s, buildLineage(s), new Set()).map((r) => r.label);
    expect(labels.find((l) => l.startsWith('p4'))).toBe('p4 committed, incumbent, accepted by you');
    expect(labels.find((l) => l.startsWith('p1'))).toBe('p1 committed');
  });

  it('the header keeps no yellow box for an incorrect child after a normal search', () => {
    const s = fold([
      search(),
      proposed('p0', undefined),
      proposed('p50', 'p0'),
      decided('p50', 'reject'),
      ev('program/evaluated', { candidateId: 'p50', island: 0, correct: false, instances: 0, error: 'p50 threw: x is not defined' }),
      ev('run/finished', { commits: 0, candidates: 1, incumbentId: 'p0' }),
    ]);
    expect(headerModel(s, 0).warning).toBeUndefined();
  });
});

/** A store holding the search above with p4 accepted and the run finished, and the editor's text of the file set to `text`. */
function acceptedThenEdited(): { store: RunStore; editor: (text: string) => void } {
  const store = new RunStore();
  store.appendAll([...fourCommitsOneOffered(), ev('edit/applied', { candidateId: 'p4', file: FILE, by: 'user' }), ev('run/finished', { commits: 4, candidates: 4, incumbentId: 'p4' })]);
  return { store, editor: (text) => store.appendAll(undoneChanges(store, FILE, () => text, eventClock())) };
}

describe('the labels outside the panel read the same fold', () => {
  it('Prompt History: an accepted edit undone with Ctrl+Z reads "applied, then undone"; Ctrl+Y, "accepted by you" again', () => {
    const { store, editor } = acceptedThenEdited();
    const record = { candidateId: 'p4', by: 'user' } as const;
    const row = () => historyLabel(record, store.get(RUN)?.state.candidates['p4']);
    editor('text of p4');
    expect(row()).toBe('p4 · accepted by you');
    editor('a');
    expect(row()).toBe('p4 · applied, then undone');
    editor('text of p4');
    expect(row()).toBe('p4 · accepted by you');
    // A run the editor does not hold: the log's word on who applied it.
    expect(historyLabel(record, undefined)).toBe('p4 · accepted by you');
    expect(historyLabel({ candidateId: 'c2', by: 'autopilot' }, undefined)).toBe('c2 · applied by autopilot');
  });

  it('the Runs view’s run line: the only applied edit undone reads "1 applied, then undone", not "4 committed"', () => {
    const { store, editor } = acceptedThenEdited();
    const entry: RunListEntry = {
      runId: RUN,
      kind: 'search',
      target: FILE,
      status: 'finished',
      started: undefined,
      lastEventAt: undefined,
      events: 12,
      candidates: 4,
      commits: 4,
      cost: undefined,
      gate: 'greedy',
      alpha: 0.05,
      tornTail: false,
      workspace: '/w',
      hosted: false,
      resumable: false,
    };
    const line = () => runNodes([entry], [store.snapshot(RUN)!], [])[0]!.label;
    editor('text of p4');
    expect(line()).toBe('1 accepted by you · step.mjs');
    editor('a');
    expect(line()).toBe('1 applied, then undone · step.mjs');
    // A run the editor holds no events of: the listing's count of commits.
    expect(runNodes([entry], [], [])[0]!.label).toBe('4 committed · step.mjs');
  });

  it('the header spins its icon only while the run works: not while a prompt run waits for your answer', () => {
    const PROMPT = 'p/task.prompt.md';
    const promptRun = [started({ kind: 'evolve', target: PROMPT }), proposed('c1', 'v0'), decided('c1', 'commit')];
    expect(headerModel(fold(promptRun), 0)).toMatchObject({ status: 'running', working: true, statusText: 'running' });
    const waiting = fold([...promptRun, ev('suggestion', { candidateId: 'c1', file: PROMPT, baseText: 'a', newText: 'b' })]);
    expect(headerModel(waiting, 0)).toMatchObject({ status: 'running', working: false, statusText: 'waiting for you: c1 waits in the editor for your Accept or Reject' });
    // Answered, the run goes on with its next candidate: it works again.
    const answered = fold([...promptRun, ev('suggestion', { candidateId: 'c1', file: PROMPT, baseText: 'a', newText: 'b' }), ev('edit/rejected', { candidateId: 'c1', file: PROMPT, by: 'user' }), proposed('c2', 'v0')]);
    expect(headerModel(answered, 0)).toMatchObject({ working: true, statusText: 'running' });
  });

  it('a search done but for your answer to its best offers no Cancel: the header, the status bar and the Runs view say it waits for you', () => {
    const store = new RunStore();
    store.appendAll(fourCommitsOneOffered());
    // Still searching while p4 waits in the editor: Cancel stops the search.
    const searching = headerModel(store.snapshot(RUN), 0, store.runs()[0]);
    expect(searching).toMatchObject({ canCancel: true, working: true, statusText: 'running; p4, the best so far, waits in the editor for your Accept or Reject' });

    // The daemon says the search is done and waits only for the answer (not an event: the store is told).
    const pushed: LiveRunStatus[] = [];
    const feed = new StatusFeed({ ...startingStatus(RUN), kind: 'search' }, (s) => pushed.push(s), { now: () => 0, sleep: () => new Promise(() => undefined) } as never);
    feed.waitingForYou('p4');
    const status = pushed.at(-1)!;
    expect(isWorkDone(status)).toBe(true);
    store.setWaitsOnlyForYou([RUN]);
    const done = headerModel(store.snapshot(RUN), 0, store.runs()[0]);
    expect(done).toMatchObject({ canCancel: false, working: false, statusText: 'the search is done; p4 waits for your Accept or Reject' });
    expect(done.cancelTitle).toBe('Nothing to cancel: the search is done. Accept p4 in the editor, or Reject it to end the run without it.');

    const bar = statusView({ runId: RUN, status: { uri: `file:///w/${FILE}`, workspace: '/w', status }, state: store.snapshot(RUN) }, 'running', undefined);
    expect(bar.text).toContain('the search is done; p4 waits for your Accept or Reject');
    expect(bar.tooltip).toContain('nothing is left to cancel');
    const [runLine] = runNodes([], [store.snapshot(RUN)!], [{ uri: `file:///w/${FILE}`, workspace: '/w', status }]);
    expect(runLine!.contextValue).toBe('run');

    // Once the run's events say it ended, a stale word of waiting changes nothing.
    store.appendAll([ev('edit/applied', { candidateId: 'p4', file: FILE, by: 'user' }), ev('run/finished', { commits: 4, candidates: 4, incumbentId: 'p4' })]);
    expect(store.runs()[0]!.waitsOnlyForYou).toBeUndefined();
    expect(headerModel(store.snapshot(RUN), 0, store.runs()[0]).statusText).toBe('finished: 1 accepted by you of 4 candidates');
  });
});
