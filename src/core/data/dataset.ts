/**
 * Datasets: JSONL, CSV/TSV, and YAML or JSON (`tests:` list, promptfoo-like, or a bare list).
 * Every problem is reported with the file and the line of the item, all of them at once, so a
 * user fixes a file in one pass. Record shapes and ids: see item.ts.
 *
 * Duplicates: a repeated explicit id is an error; an item whose vars repeat an earlier item's is
 * dropped with a warning when its label agrees and is an error when it does not (the same input
 * cannot have two right answers). Dropping rather than suffixing keeps both copies from landing
 * in different splits, which would show the proposer a dev item (GATES.md A1).
 */
import { RatchetError } from '../errors';
import type { Files } from '../ports';
import { isSeq, isMap } from 'yaml';
import { DEFAULT_INPUT_LIMITS, firstLongLine, lineTooLongMessage } from '../files/inputLimits';
import type { InputLimits } from '../files/inputLimits';
import { parseCsv } from './csv';
import { badInputError, diagnostic, errorsOf, lineLocation } from './diagnostics';
import type { Diagnostic } from './diagnostics';
import { hasExpected, itemFromRecord, stableJson } from './item';
import type { DataItem } from './item';
import { MAX_NESTING, nestingDepth, tooDeepMessage } from './nesting';
import { lineOfPath, parseYamlSource } from './yamlSource';

export type DatasetFormat = 'jsonl' | 'csv' | 'tsv' | 'yaml' | 'json';
export type LabelCoverage = 'all' | 'some' | 'none';

export interface Dataset {
  file: string;
  format: DatasetFormat;
  items: DataItem[];
  labels: LabelCoverage;
  warnings: Diagnostic[];
}

export interface DatasetParse {
  items: DataItem[];
  /** Errors and warnings; `items` holds the items that were readable. */
  diagnostics: Diagnostic[];
}

export function datasetFormatOf(path: string): DatasetFormat | undefined {
  const name = path.toLowerCase();
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) return 'jsonl';
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.tsv')) return 'tsv';
  if (name.endsWith('.yaml') || name.endsWith('.yml')) return 'yaml';
  if (name.endsWith('.json')) return 'json';
  return undefined;
}

export function labelCoverage(items: readonly DataItem[]): LabelCoverage {
  const labeled = items.filter(hasExpected).length;
  return labeled === 0 ? 'none' : labeled === items.length ? 'all' : 'some';
}

/**
 * Parses dataset text; never throws. Line formats (JSONL, CSV, TSV) refuse a line longer than
 * `limits.maxLineChars` before parsing anything: one 50 MB line took 40 s and a gigabyte to get
 * through parsing and the cost estimate, for an item no model could read.
 */
export function parseDataset(file: string, text: string, format = datasetFormatOf(file), limits: InputLimits = DEFAULT_INPUT_LIMITS): DatasetParse {
  if (format === 'jsonl' || format === 'csv' || format === 'tsv') {
    const long = firstLongLine(text, limits.maxLineChars);
    if (long) return { items: [], diagnostics: [diagnostic(lineLocation(file, long.line), lineTooLongMessage(long.length, limits))] };
  }
  try {
    return parseDatasetText(file, text, format);
  } catch (err) {
    // Whatever a parser or check throws on this file is still reported on this file.
    const message = err instanceof RangeError ? tooDeepMessage() : err instanceof Error ? err.message : String(err);
    return { items: [], diagnostics: [diagnostic(lineLocation(file, 1), `dataset could not be read: ${message}`)] };
  }
}

function parseDatasetText(file: string, text: string, format: DatasetFormat | undefined): DatasetParse {
  let read: DatasetParse;
  switch (format) {
    case 'jsonl':
      read = readJsonl(file, text);
      break;
    case 'csv':
    case 'tsv':
      read = readCsv(file, text, format === 'tsv' ? '\t' : ',');
      break;
    case 'yaml':
    case 'json':
      read = readYaml(file, text);
      break;
    case undefined:
      return {
        items: [],
        diagnostics: [diagnostic(lineLocation(file, 1), 'unknown dataset format: use .jsonl, .csv, .tsv, .yaml, .yml or .json')],
      };
  }
  return finishParse(file, read);
}

/** Duplicates and emptiness, once every record is read. */
function finishParse(file: string, read: DatasetParse): DatasetParse {
  const deduped = dedupe(read.items);
  const diagnostics = [...read.diagnostics, ...deduped.diagnostics];
  if (deduped.items.length === 0 && errorsOf(diagnostics).length === 0) {
    diagnostics.push(diagnostic(lineLocation(file, 1), 'dataset has no items'));
  }
  return { items: deduped.items, diagnostics };
}

/**
 * Reads and parses a dataset file; undefined when it does not exist. JSONL is parsed line by line
 * as it streams in, so a large dataset is never one string (nor one array of lines); the other
 * formats are read whole, within the file cap. Never throws for a problem of the file's content.
 */
export async function readDatasetFile(files: Files, path: string): Promise<DatasetParse | undefined> {
  const format = datasetFormatOf(path);
  if (format !== 'jsonl') {
    const text = await files.tryReadText(path);
    return text === undefined ? undefined : parseDataset(path, text, format, files.limits);
  }
  const lines = await files.tryReadLines(path);
  if (lines === undefined) return undefined;
  const read: DatasetParse = { items: [], diagnostics: [] };
  let line = 0;
  try {
    for await (const raw of lines) jsonlRecord(path, ++line, raw, read);
  } catch (err) {
    // The line cap, said at its line; anything else about reading the file is the caller's to say.
    const details = RatchetError.is(err, 'badInput') ? (err.details as { line?: unknown; length?: unknown; byteOffset?: unknown } | undefined) : undefined;
    // A byte that is not UTF-8 is said by the reader, with its offset.
    if (typeof details?.line !== 'number' || details.byteOffset !== undefined) throw err;
    const at = details.line;
    const length = typeof details.length === 'number' ? details.length : undefined;
    return { items: [], diagnostics: [diagnostic(lineLocation(path, at), lineTooLongMessage(length, files.limits ?? DEFAULT_INPUT_LIMITS))] };
  }
  return finishParse(path, read);
}

/** Reads and parses a dataset; throws RatchetError('badInput') listing every problem. */
export async function loadDataset(files: Files, path: string): Promise<Dataset> {
  const parsed = await readDatasetFile(files, path);
  if (parsed === undefined) throw badInputError([diagnostic(lineLocation(path, 1), `dataset file not found: ${path}`)]);
  const { items, diagnostics } = parsed;
  if (errorsOf(diagnostics).length > 0) throw badInputError(diagnostics);
  return { file: path, format: datasetFormatOf(path)!, items, labels: labelCoverage(items), warnings: diagnostics };
}

function readJsonl(file: string, text: string): DatasetParse {
  const read: DatasetParse = { items: [], diagnostics: [] };
  text.split('\n').forEach((raw, index) => jsonlRecord(file, index + 1, raw, read));
  return read;
}

/** One JSONL line into `into`: an item, or a diagnostic at its line. */
function jsonlRecord(file: string, line: number, raw: string, into: DatasetParse): void {
  const lineText = raw.replace(/\r$/, '').replace(/^\uFEFF/, '');
  if (lineText.trim() === '') return;
  let record: unknown;
  try {
    record = JSON.parse(lineText);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const pos = /position (\d+)/.exec(message);
    const column = pos ? Number(pos[1]) + 1 : 1;
    const at = { file, line, column, endLine: line, endColumn: Math.max(column + 1, lineText.length + 1) };
    into.diagnostics.push(diagnostic(at, `not valid JSON (${message.replace(/\s*\(line \d+ column \d+\)/, '')})`));
    return;
  }
  if (nestingDepth(record) > MAX_NESTING) {
    into.diagnostics.push(diagnostic(lineLocation(file, line), `the item ${tooDeepMessage()}`));
    return;
  }
  const r = itemFromRecord(record, file, line);
  if (r.item) into.items.push(r.item);
  for (const x of r.diagnostics) into.diagnostics.push(x);
}

function readCsv(file: string, text: string, delimiter: string): DatasetParse {
  const { records, error } = parseCsv(text, delimiter);
  const diagnostics: Diagnostic[] = [];
  if (error) {
    const at = { file, line: error.line, column: error.column, endLine: error.line, endColumn: error.column + 1 };
    diagnostics.push(diagnostic(at, `not valid CSV: ${error.message}`));
  }
  const [header, ...rows] = records;
  if (!header) return { items: [], diagnostics };
  const names = header.fields.map((h) => h.trim());
  const seen = new Set<string>();
  for (const [i, name] of names.entries()) {
    if (name === '') diagnostics.push(diagnostic(lineLocation(file, header.line), `column ${i + 1} of the header row has no name`));
    else if (seen.has(name)) diagnostics.push(diagnostic(lineLocation(file, header.line), `column "${name}" appears twice in the header row`));
    seen.add(name);
  }
  if (errorsOf(diagnostics).length > 0) return { items: [], diagnostics };
  const items: DataItem[] = [];
  for (const row of rows) {
    if (row.fields.length !== names.length) {
      diagnostics.push(diagnostic(lineLocation(file, row.line), `row has ${row.fields.length} fields but the header has ${names.length} (a comma inside a value needs "quotes")`));
      continue;
    }
    const record: Record<string, unknown> = {};
    names.forEach((name, i) => {
      const value = row.fields[i]!;
      // An empty id or label cell means "none", not the empty string.
      if ((name === 'id' || name === 'expected' || name === 'answer') && value.trim() === '') return;
      record[name] = value;
    });
    const r = itemFromRecord(record, file, row.line);
    if (r.item) items.push(r.item);
    for (const x of r.diagnostics) diagnostics.push(x);
  }
  return { items, diagnostics };
}

const KNOWN_TEST_KEYS = new Set(['vars', 'expected', 'answer', 'id', 'description', 'assert', 'metadata', 'options', 'threshold']);
const IGNORED_TEST_KEYS = new Set(['options', 'threshold']);

function readYaml(file: string, text: string): DatasetParse {
  const { source, diagnostics } = parseYamlSource(file, text);
  if (errorsOf(diagnostics).length > 0) return { items: [], diagnostics };
  const root = source.doc.contents;
  let listPath: (string | number)[];
  if (isSeq(root)) listPath = [];
  else if (isMap(root) && isSeq(root.get('tests', true))) listPath = ['tests'];
  else {
    diagnostics.push(diagnostic(lineLocation(file, 1), 'expected a list of items, or a "tests:" list of { vars, expected } entries'));
    return { items: [], diagnostics };
  }
  const list = (listPath.length === 0 ? source.value : (source.value as { tests: unknown }).tests) as unknown[];
  const items: DataItem[] = [];
  list.forEach((entry, index) => {
    const path = [...listPath, index];
    const line = lineOfPath(source, path);
    let record = entry;
    // promptfoo tests carry run options next to `vars`; Ratchet keeps what it knows and says what it ignores.
    if (entry !== null && typeof entry === 'object' && !Array.isArray(entry) && 'vars' in entry) {
      for (const k of Object.keys(entry).filter((k) => !KNOWN_TEST_KEYS.has(k))) {
        diagnostics.push(diagnostic(lineLocation(file, lineOfPath(source, [...path, k])), `key "${k}" is ignored`, { field: k, severity: 'warning' }));
      }
      record = Object.fromEntries(Object.entries(entry).filter(([k]) => KNOWN_TEST_KEYS.has(k) && !IGNORED_TEST_KEYS.has(k)));
    }
    const r = itemFromRecord(record, file, line);
    if (r.item) items.push(r.item);
    for (const x of r.diagnostics) diagnostics.push(x);
  });
  return { items, diagnostics };
}

function dedupe(items: DataItem[]): DatasetParse {
  const out: DataItem[] = [];
  const diagnostics: Diagnostic[] = [];
  const byId = new Map<string, DataItem>();
  const byVars = new Map<string, DataItem>();
  for (const item of items) {
    const at = lineLocation(item.source.file, item.source.line);
    const sameId = byId.get(item.id);
    const varsKey = stableJson(item.vars);
    const sameVars = byVars.get(varsKey);
    if (sameVars) {
      if (stableJson(sameVars.expected) === stableJson(item.expected)) {
        diagnostics.push(diagnostic(at, `duplicate of the item on line ${sameVars.source.line} (same variables and label); ignored`, { severity: 'warning' }));
      } else {
        diagnostics.push(diagnostic(at, `same variables as the item on line ${sameVars.source.line} but a different expected answer; keep one`));
      }
      continue;
    }
    if (sameId) {
      diagnostics.push(diagnostic(at, `id "${item.id}" is already used on line ${sameId.source.line}; ids must be unique`, { field: 'id' }));
      continue;
    }
    byId.set(item.id, item);
    byVars.set(varsKey, item);
    out.push(item);
  }
  return { items: out, diagnostics };
}
