import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../src/core/data/csv';
import { tMeanInterval, tQuantile975 } from '../../../src/core/evolve/report';
import { PanelController } from '../../../src/extension/panel/controller';
import { buildResultCell, buildResultsTable, exportResults } from '../../../src/extension/panel/results';
import { RunStore } from '../../../src/extension/runs/runStore';
import { defaultResultsColumns, emptyResultsFilter, filterRows, isEvaluation, scoredCount, versionAccuracy, versionLabel } from '../../../src/panelState/results';
import type { ResultsTable } from '../../../src/panelState/results';
import type { HostMessage } from '../../../src/protocol/webview';
import { RUN, decided, ev, proposed, started } from '../webview/events';
import type { PanelEvent } from '../../../src/panelState/types';

const TRICKY = 'Answer: "42", then\na second line';

function dataset(withLabels = true): PanelEvent {
  const item = (itemId: string, split: 'feedback' | 'dev' | 'test', q: string, expected: string) => ({
    itemId,
    input: q,
    split,
    ...(withLabels ? { expected, vars: { question: q } } : {}),
  });
  return ev('dataset/loaded', {
    items: [item('f1', 'feedback', 'feedback only', '0'), item('d1', 'dev', 'What is 6 × 7?', '42'), item('d2', 'dev', 'Capital of France?', 'Paris'), item('t1', 'test', 'What is 2 + 2?', '4'), item('t2', 'test', 'Spell cat', 'c-a-t')],
  });
}

const scored = (candidateId: string, itemId: string, score: number, output = `${candidateId} says ${itemId}`) => ev('item/evaluated', { candidateId, itemId, score, cached: false, output });

/** An evolve run: the baseline and one rejected candidate scored on the dev items, both on the test items. */
function evolveRun(): PanelEvent[] {
  return [
    started(),
    dataset(),
    proposed('v0', undefined),
    scored('f1', 'f1', 1),
    proposed('c1', 'v0'),
    scored('v0', 'd1', 1),
    scored('c1', 'd1', 0, TRICKY),
    scored('v0', 'd2', 0),
    scored('c1', 'd2', 0),
    decided('c1', 'reject', { parentId: 'v0' }),
    scored('v0', 't1', 1),
    scored('v0', 't2', 1),
  ];
}

function storeWith(events: PanelEvent[]): RunStore {
  const store = new RunStore();
  store.appendAll(events);
  return store;
}

describe("the results table from a run's journal events", () => {
  it('has a row per dev and test item (feedback items are not rows) and a column per scored version, the baseline first', () => {
    const table = buildResultsTable(storeWith(evolveRun()).get(RUN)!);
    expect(table.items.map((i) => [i.itemId, i.split])).toEqual([
      ['d1', 'dev'],
      ['d2', 'dev'],
      ['t1', 'test'],
      ['t2', 'test'],
    ]);
    expect(table.versions).toEqual([
      { id: 'v0', baseline: true },
      { id: 'c1', baseline: false, decision: 'reject' },
    ]);
    expect(table.scores).toEqual([
      [1, 0],
      [0, 0],
      [1, null],
      [1, null],
    ]);
    expect(table.passFail).toBe(true);
    expect(table.items[0]!.text).toBe('What is 6 × 7?');
  });

  it('reads graded scores as scores, not pass/fail, and leaves out items nothing ran on (an Evaluate scores only the test split)', () => {
    const table = buildResultsTable(storeWith([started(), dataset(), proposed('v0', undefined), scored('v0', 't1', 0.25), scored('v0', 't2', 1)]).get(RUN)!);
    expect(table.passFail).toBe(false);
    expect(table.items.map((i) => i.itemId)).toEqual(['t1', 't2']);
    expect(table.scores).toEqual([[0.25], [1]]);
  });

  it('opens a cell with the output, the expected answer and the variables', () => {
    const run = storeWith(evolveRun()).get(RUN)!;
    expect(buildResultCell(run, 'd1', 'c1')).toEqual({
      runId: RUN,
      itemId: 'd1',
      versionId: 'c1',
      split: 'dev',
      score: 0,
      output: TRICKY,
      input: 'What is 6 × 7?',
      expected: '42',
      vars: { question: 'What is 6 × 7?' },
    });
  });

  it('reads a journal written before items carried their label and variables', () => {
    const run = storeWith([started(), dataset(false), proposed('v0', undefined), scored('v0', 't1', 1)]).get(RUN)!;
    expect(buildResultsTable(run).items.map((i) => [i.itemId, i.text])).toEqual([['t1', 'What is 2 + 2?']]);
    const cell = buildResultCell(run, 't1', 'v0');
    expect(cell.expected).toBeUndefined();
    expect(cell.vars).toBeUndefined();
    expect(cell.input).toBe('What is 2 + 2?');
  });

  it('knows an Evaluate run, also one journaled before runs said so (no candidates allowed)', () => {
    expect(isEvaluation({ kind: 'evaluate', target: 'x', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 })).toBe(true);
    expect(isEvaluation({ kind: 'evolve', target: 'x', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1, budget: { candidates: 0 } })).toBe(true);
    expect(isEvaluation({ kind: 'evolve', target: 'x', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1, budget: { candidates: 5 } })).toBe(false);
  });
});

describe('results filters', () => {
  const table = buildResultsTable(storeWith(evolveRun()).get(RUN)!);
  const ids = (rows: number[]) => rows.map((i) => table.items[i]!.itemId);

  it('keeps every row with no filter', () => {
    expect(ids(filterRows(table, emptyResultsFilter()))).toEqual(['d1', 'd2', 't1', 't2']);
  });

  it('only failures: rows where some version failed', () => {
    expect(ids(filterRows(table, { ...emptyResultsFilter(), onlyFailures: true }))).toEqual(['d1', 'd2']);
  });

  it('only where two versions differ: both scored, differently', () => {
    expect(ids(filterRows(table, { ...emptyResultsFilter(), differ: ['v0', 'c1'] }))).toEqual(['d1']);
  });

  it('only failures looks at the columns shown: a failure in a hidden column does not keep its row', () => {
    expect(ids(filterRows(table, { ...emptyResultsFilter(), onlyFailures: true, versions: ['v0'] }))).toEqual(['d2']);
  });

  it('search matches the item text and id, ignoring case', () => {
    expect(ids(filterRows(table, { ...emptyResultsFilter(), search: 'FRANCE' }))).toEqual(['d2']);
    expect(ids(filterRows(table, { ...emptyResultsFilter(), search: 't2' }))).toEqual(['t2']);
  });
});

describe('per-version accuracy', () => {
  it('pass/fail: the share passed with a Wilson interval, over every item the version ran on', () => {
    const table = buildResultsTable(storeWith(evolveRun()).get(RUN)!);
    const v0 = versionAccuracy(table, 0)!;
    expect(v0.method).toBe('wilson');
    expect(v0.n).toBe(4);
    expect(v0.mean).toBe(0.75);
    // Wilson 95 % for 3 of 4.
    expect(v0.lo).toBeCloseTo(0.3006, 3);
    expect(v0.hi).toBeCloseTo(0.9544, 3);
    expect(versionAccuracy(table, 1)).toMatchObject({ mean: 0, n: 2 });
  });

  it("graded scores: the mean with a Student's t interval", () => {
    const table = buildResultsTable(storeWith([started(), dataset(), proposed('v0', undefined), scored('v0', 'd1', 0.2), scored('v0', 'd2', 0.4), scored('v0', 't1', 0.6)]).get(RUN)!);
    const acc = versionAccuracy(table, 0)!;
    expect(acc.method).toBe('t');
    expect(acc.mean).toBeCloseTo(0.4, 10);
    // sd 0.2, n 3: half-width t(2) · 0.2/√3 = 4.303 · 0.11547 = 0.4968, clipped at 0.
    expect(acc.lo).toBe(0);
    expect(acc.hi).toBeCloseTo(0.8968, 3);
  });

  it('t quantiles agree with the table', () => {
    expect(tQuantile975(1)).toBeCloseTo(12.706, 3);
    expect(tQuantile975(5)).toBeCloseTo(2.571, 3);
    expect(tQuantile975(10)).toBeCloseTo(2.228, 3);
    expect(tQuantile975(30)).toBeCloseTo(2.042, 3);
    expect(tQuantile975(1000)).toBeCloseTo(1.962, 3);
    expect(tMeanInterval([0.5])).toEqual({ mean: 0.5, lo: 0, hi: 1 });
  });
});

describe('results export', () => {
  it("CSV: the rows the filter keeps, each version's score and output, quoted so a reader gets them back", () => {
    const text = exportResults(storeWith(evolveRun()).get(RUN)!, { ...emptyResultsFilter(), onlyFailures: true }, 'csv');
    const { records, error } = parseCsv(text);
    expect(error).toBeUndefined();
    expect(records.map((r) => r.fields)).toEqual([
      ['item', 'split', 'input', 'expected', 'v0 score', 'v0 output', 'c1 score', 'c1 output'],
      ['d1', 'dev', 'What is 6 × 7?', '42', '1', 'v0 says d1', '0', TRICKY],
      ['d2', 'dev', 'Capital of France?', 'Paris', '0', 'v0 says d2', '0', 'c1 says d2'],
    ]);
  });

  it('CSV: an output that a spreadsheet would run as a formula is kept as text; numbers are not touched', () => {
    const events = evolveRun().map((e) => (e.type === 'item/evaluated' && e.candidateId === 'c1' && e.itemId === 'd2' ? { ...e, output: '=HYPERLINK("http://x.invalid","42")' } : e));
    const text = exportResults(storeWith([...events, scored('c1', 't1', 0, '-3')]).get(RUN)!, emptyResultsFilter(), 'csv');
    const rows = parseCsv(text).records.map((r) => r.fields);
    expect(rows.find((r) => r[0] === 'd2')?.at(-1)).toBe(`'=HYPERLINK("http://x.invalid","42")`);
    expect(rows.find((r) => r[0] === 't1')?.at(-1)).toBe('-3');
  });

  it('JSON: every row with its results, and each version with its accuracy and interval', () => {
    const json = JSON.parse(exportResults(storeWith(evolveRun()).get(RUN)!, emptyResultsFilter(), 'json')) as {
      versions: { id: string; accuracy: { mean: number; n: number; method: string } }[];
      items: { itemId: string; expected: string; vars: Record<string, string>; results: Record<string, { score: number; result: string; output: string }> }[];
    };
    expect(json.versions.map((v) => [v.id, v.accuracy.mean, v.accuracy.n, v.accuracy.method])).toEqual([
      ['v0', 0.75, 4, 'wilson'],
      ['c1', 0, 2, 'wilson'],
    ]);
    expect(json.items.map((i) => i.itemId)).toEqual(['d1', 'd2', 't1', 't2']);
    expect(json.items[0]).toMatchObject({ expected: '42', vars: { question: 'What is 6 × 7?' }, results: { v0: { score: 1, result: 'pass' }, c1: { score: 0, result: 'fail', output: TRICKY } } });
    expect(Object.keys(json.items[2]!.results)).toEqual(['v0']);
  });

  it('the panel asks the host: the table, a cell, and an export saved where the user says', () => {
    const store = storeWith(evolveRun());
    const posted: HostMessage[] = [];
    const saved: [string, string][] = [];
    const controller = new PanelController(
      store,
      { post: (m) => posted.push(m) },
      {
        cancel: () => undefined,
        resume: () => undefined,
        openCandidate: () => undefined,
        loadRun: () => undefined,
        saveExport: (name, text) => void saved.push([name, text]),
        openDocs: () => undefined,
        reportError: (m) => {
          throw new Error(m);
        },
      },
    );
    controller.receive({ type: 'results/request', runId: RUN });
    controller.receive({ type: 'results/cell', runId: RUN, itemId: 'd1', versionId: 'c1' });
    controller.receive({ type: 'results/export', runId: RUN, format: 'json', filter: { ...emptyResultsFilter(), search: 'france' } });
    expect(posted.map((m) => m.type)).toEqual(['results/show', 'results/cell']);
    expect((posted[0] as Extract<HostMessage, { type: 'results/show' }>).table.items).toHaveLength(4);
    expect((posted[1] as Extract<HostMessage, { type: 'results/cell' }>).cell.output).toBe(TRICKY);
    expect(saved.map(([name]) => name)).toEqual([`${RUN}-results.json`]);
    expect((JSON.parse(saved[0]![1]) as { items: { itemId: string }[] }).items.map((i) => i.itemId)).toEqual(['d2']);
  });
});

/** Versions c1…c5 beside the baseline; c2 committed, c4 the best on a few lucky items, c5 good on all. */
function wideTable(over: { userRejectedC2?: boolean } = {}): ResultsTable {
  const items = Array.from({ length: 20 }, (_, i) => ({ itemId: `d${i + 1}`, split: 'dev' as const, text: `q${i + 1}` }));
  const pass = (share: number, n = 20) => items.map((_, i) => (i >= n ? null : i < Math.round(share * n) ? 1 : 0));
  const columns = [pass(0.5), pass(0.4, 8), pass(0.7), pass(0.3, 6), pass(1, 3), pass(0.85)];
  return {
    runId: RUN,
    versions: [
      { id: 'v0', baseline: true },
      { id: 'c1', baseline: false, decision: 'reject' },
      { id: 'c2', baseline: false, decision: 'commit', ...(over.userRejectedC2 ? { answer: 'rejected' as const } : {}) },
      { id: 'c3', baseline: false, decision: 'reject' },
      { id: 'c4', baseline: false, decision: 'reject' },
      { id: 'c5', baseline: false },
    ],
    items,
    scores: items.map((_, i) => columns.map((c) => c[i]!)),
    passFail: true,
  };
}

describe('the columns shown by default', () => {
  it('are the baseline, the committed version and the best other candidate by the low end of its interval', () => {
    // c4 passed 3 of 3 (100 %) but its interval is wide; c5 passed 17 of 20.
    expect(defaultResultsColumns(wideTable())).toEqual(['v0', 'c2', 'c5']);
  });

  it('leave out a committed version the user rejected in the editor', () => {
    expect(defaultResultsColumns(wideTable({ userRejectedC2: true }))).toEqual(['v0', 'c5']);
  });

  it('are every version when there are three or fewer', () => {
    const table = buildResultsTable(storeWith(evolveRun()).get(RUN)!);
    expect(defaultResultsColumns(table)).toEqual(['v0', 'c1']);
  });

  it('each say how many items they were scored on', () => {
    const table = wideTable();
    expect(table.versions.map((_, j) => scoredCount(table, j))).toEqual([20, 8, 20, 6, 3, 20]);
  });
});

describe('version labels', () => {
  it('never call a suggestion the user rejected "(committed)"', () => {
    expect(versionLabel({ id: 'c1', baseline: false, decision: 'commit', answer: 'rejected' })).toBe('c1 (rejected by you)');
    expect(versionLabel({ id: 'c1', baseline: false, decision: 'commit' })).toBe('c1 (committed)');
    expect(versionLabel({ id: 'c1', baseline: false, decision: 'reject' })).toBe('c1 (rejected)');
  });

  it("come from the journal: the user's Reject in the editor marks the version", () => {
    const events = [...evolveRun().slice(0, -3), decided('c1', 'commit', { parentId: 'v0' }), ev('edit/rejected', { candidateId: 'c1', file: 'p/x.prompt.md', by: 'user' })];
    const table = buildResultsTable(storeWith(events as PanelEvent[]).get(RUN)!);
    expect(table.versions.map(versionLabel)).toEqual(['v0 (baseline)', 'c1 (rejected by you)']);
  });
});

describe('export of the columns shown', () => {
  it('writes only the versions the filter shows', () => {
    const text = exportResults(storeWith(evolveRun()).get(RUN)!, { ...emptyResultsFilter(), versions: ['c1'] }, 'csv');
    expect(parseCsv(text).records[0]!.fields).toEqual(['item', 'split', 'input', 'expected', 'c1 score', 'c1 output']);
  });
});
