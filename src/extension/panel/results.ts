/**
 * The host's half of the Results view: the table built from what the run store kept of a run's
 * journal (`dataset/loaded`, `candidate/proposed`, `item/evaluated`, `decision`), one cell's
 * output on request, and the exported file. Rows are the dev and test items some version was scored
 * on; feedback items are not rows: the proposer reads them, the gate and the report never score on them.
 */
import { commitAnswer } from '../../panelState/answers';
import { formatCsv } from '../../core/data/csv';
import type { ResultCell, ResultsFilter, ResultsItem, ResultsTable, ResultsVersion } from '../../panelState/results';
import { ITEM_TEXT_LIMIT, cellText, filterRows, shownColumns, versionAccuracy, versionLabel } from '../../panelState/results';
import type { StoredRun } from '../runs/runStore';
import { itemKey } from '../runs/runStore';

export type ResultsFormat = 'csv' | 'json';

export function buildResultsTable(run: StoredRun): ResultsTable {
  const { state, detail } = run;
  const items: ResultsItem[] = [];
  const rowOf = new Map<string, number>();
  const addRow = (item: ResultsItem) => {
    rowOf.set(item.itemId, items.length);
    items.push(item);
  };
  for (const item of detail.items.values()) {
    if (item.split === 'feedback') continue;
    addRow({ itemId: item.itemId, split: item.split, text: cutText(item.input) });
  }
  const scored = new Map<string, Map<string, number>>();
  for (const [key, score] of detail.scores) {
    const nl = key.indexOf('\n');
    const versionId = key.slice(0, nl);
    const itemId = key.slice(nl + 1);
    const listed = detail.items.get(itemId);
    if (listed?.split === 'feedback') continue;
    if (!rowOf.has(itemId)) addRow({ itemId, text: cutText(detail.inputs.get(itemId) ?? '') });
    let byItem = scored.get(versionId);
    if (!byItem) scored.set(versionId, (byItem = new Map()));
    byItem.set(itemId, score);
  }
  const order = [...state.candidateOrder, ...[...scored.keys()].filter((id) => !state.candidates[id])];
  const baselineId = order.find((id) => state.candidates[id] !== undefined && state.candidates[id].parentId === undefined) ?? order[0];
  const versions: ResultsVersion[] = order
    .filter((id) => scored.has(id))
    .map((id) => {
      const decision = state.candidates[id]?.decision;
      const answer = commitAnswer(state.candidates[id]);
      return { id, baseline: id === baselineId, ...(decision ? { decision } : {}), ...(answer ? { answer } : {}) };
    });
  let passFail = true;
  const scoresOf = (item: ResultsItem) =>
    versions.map((v) => {
      const s = scored.get(v.id)?.get(item.itemId);
      if (s === undefined) return null;
      if (s !== 0 && s !== 1) passFail = false;
      return s;
    });
  // An item no version ran on says nothing (an Evaluate never touches the dev split; a gate that
  // stops early leaves dev items unused): it gets a row once something is scored on it.
  const rows = items.map((item) => ({ item, scores: scoresOf(item) })).filter((r) => r.scores.some((s) => s !== null));
  return { runId: state.runId, versions, items: rows.map((r) => r.item), scores: rows.map((r) => r.scores), passFail };
}

export function buildResultCell(run: StoredRun, itemId: string, versionId: string): ResultCell {
  const { detail } = run;
  const key = itemKey(versionId, itemId);
  const item = detail.items.get(itemId);
  const score = detail.scores.get(key);
  const output = detail.outputs.get(key);
  const input = detail.inputs.get(itemId);
  return {
    runId: run.state.runId,
    itemId,
    versionId,
    ...(item && item.split !== 'feedback' ? { split: item.split } : {}),
    ...(score === undefined ? {} : { score }),
    ...(output === undefined ? {} : { output }),
    ...(input === undefined ? {} : { input }),
    ...(item?.expected === undefined ? {} : { expected: item.expected }),
    ...(item?.vars === undefined ? {} : { vars: item.vars }),
  };
}

/**
 * A model's output opened in a spreadsheet must stay text: a field starting with = + - @ (or a tab
 * or carriage return) would be run as a formula (CSV injection), so it gets a leading apostrophe,
 * which spreadsheets hide. Plain numbers such as -3 are left alone.
 */
function inertText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
}

/**
 * The rows the filter keeps, with the score and output of each version it shows, as a file: CSV
 * with one `score`/`output` column pair per version, or JSON with the versions' accuracy and intervals.
 */
export function exportResults(run: StoredRun, filter: ResultsFilter, format: ResultsFormat): string {
  const full = buildResultsTable(run);
  const rows = filterRows(full, filter);
  // The columns on screen, and only those: the table narrowed to them.
  const columns = shownColumns(full, filter.versions);
  const table = { ...full, versions: columns.map((j) => full.versions[j]!), scores: full.scores.map((row) => columns.map((j) => row[j]!)) };
  const { detail } = run;
  const outputOf = (versionId: string, itemId: string) => detail.outputs.get(itemKey(versionId, itemId));
  if (format === 'csv') {
    const head = ['item', 'split', 'input', 'expected', ...table.versions.flatMap((v) => [`${v.id} score`, `${v.id} output`])];
    const body = rows.map((i) => {
      const item = table.items[i]!;
      const listed = detail.items.get(item.itemId);
      return [
        item.itemId,
        item.split ?? '',
        inertText(detail.inputs.get(item.itemId) ?? ''),
        inertText(listed?.expected ?? ''),
        ...table.versions.flatMap((v, j) => {
          const s = table.scores[i]![j]!;
          return [s === null ? '' : String(s), inertText(outputOf(v.id, item.itemId) ?? '')];
        }),
      ];
    });
    return formatCsv([head, ...body]);
  }
  const json = {
    runId: table.runId,
    filter,
    passFail: table.passFail,
    versions: table.versions.map((v, j) => ({ id: v.id, label: versionLabel(v), baseline: v.baseline, ...(v.decision ? { decision: v.decision } : {}), accuracy: versionAccuracy(table, j) ?? null })),
    items: rows.map((i) => {
      const item = table.items[i]!;
      const listed = detail.items.get(item.itemId);
      return {
        itemId: item.itemId,
        ...(item.split ? { split: item.split } : {}),
        input: detail.inputs.get(item.itemId) ?? null,
        expected: listed?.expected ?? null,
        ...(listed?.vars ? { vars: listed.vars } : {}),
        results: Object.fromEntries(
          table.versions.flatMap((v, j) => {
            const score = table.scores[i]![j]!;
            if (score === null) return [];
            return [[v.id, { score, result: cellText(score, table.passFail), output: outputOf(v.id, item.itemId) ?? null }]];
          }),
        ),
      };
    }),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

function cutText(text: string): string {
  return text.length > ITEM_TEXT_LIMIT ? `${text.slice(0, ITEM_TEXT_LIMIT - 1)}…` : text;
}
