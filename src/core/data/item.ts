/**
 * A dataset item and how one is read from a record, whatever the file format.
 *
 * Two record shapes, the same in JSONL, JSON and YAML (CSV rows are always flat):
 * - structured: `{ "vars": { "question": "…" }, "expected": 18, "id": "q1" }` — `vars` holds every
 *   template variable; next to it only `id`, `expected` (alias `answer`), `assert`, `description`,
 *   `metadata` are allowed, so a variable put beside `vars` by mistake is an error, not a silent hole;
 * - flat: `{ "question": "…", "expected": 18 }` — every key is a variable except the reserved
 *   `id`, `expected`, `answer` (an alias of `expected`) and `assert`.
 *
 * Ids: the explicit `id` when given, else a hash of the vars (`stableJson`, SHA-256, 12 hex digits),
 * so reordering or appending to the file never changes an item's id, and so its split (splits.ts)
 * and its cache entries stay put.
 */
import { sha256Hex } from '../random';
import { diagnostic, lineLocation } from './diagnostics';
import type { Diagnostic } from './diagnostics';

export interface DataItem {
  id: string;
  /** The template variables. */
  vars: Record<string, unknown>;
  /** The label; undefined for an unlabeled item. */
  expected?: unknown;
  /** promptfoo-style assertions, kept as written for scorers that want them. */
  assert?: unknown[];
  description?: string;
  metadata?: Record<string, unknown>;
  /** Where the item was written. */
  source: { file: string; line: number };
}

export const RESERVED_FLAT_KEYS = ['id', 'expected', 'answer', 'assert'] as const;
const STRUCTURED_KEYS = new Set(['vars', 'id', 'expected', 'answer', 'assert', 'description', 'metadata']);

/** JSON with object keys sorted at every level: equal values give equal text. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(obj[k])}`).join(',')}}`;
}

export function contentId(vars: Record<string, unknown>): string {
  return sha256Hex(stableJson(vars)).slice(0, 12);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** '' and null count as "no label": an empty `expected` cell in a CSV is an unlabeled row. */
export function hasExpected(item: Pick<DataItem, 'expected'>): boolean {
  return item.expected !== undefined && item.expected !== null && item.expected !== '';
}

export type RecordResult = { item: DataItem; diagnostics: Diagnostic[] } | { item: undefined; diagnostics: Diagnostic[] };

/** Turns one parsed record into an item; every problem is reported at `line` of `file`. */
export function itemFromRecord(record: unknown, file: string, line: number): RecordResult {
  const at = lineLocation(file, line);
  const fail = (message: string, field?: string): RecordResult => ({
    item: undefined,
    diagnostics: [diagnostic(at, message, field === undefined ? {} : { field })],
  });
  if (!isPlainObject(record)) {
    return fail(`each item must be an object of variables, got ${Array.isArray(record) ? 'a list' : JSON.stringify(record)}`);
  }
  if ('expected' in record && 'answer' in record) {
    return fail('item has both "expected" and "answer"; they mean the same thing, keep one', 'expected');
  }
  let vars: Record<string, unknown>;
  if ('vars' in record && isPlainObject(record.vars)) {
    const stray = Object.keys(record).filter((k) => !STRUCTURED_KEYS.has(k));
    if (stray.length > 0) {
      const names = stray.map((k) => `"${k}"`).join(', ');
      return fail(`${names} sit${stray.length === 1 ? 's' : ''} next to "vars": move ${stray.length === 1 ? 'it' : 'them'} inside "vars", or drop "vars" and write every variable at the top level`, stray[0]);
    }
    vars = { ...record.vars };
  } else if ('vars' in record) {
    return fail('"vars" must be an object of template variables', 'vars');
  } else {
    vars = {};
    for (const [k, v] of Object.entries(record)) {
      if (!(RESERVED_FLAT_KEYS as readonly string[]).includes(k)) vars[k] = v;
    }
  }
  let id: string;
  if (record.id === undefined || record.id === null) {
    id = contentId(vars);
  } else if ((typeof record.id === 'string' && record.id.trim() !== '') || (typeof record.id === 'number' && Number.isFinite(record.id))) {
    id = String(record.id).trim();
  } else {
    return fail('"id" must be a non-empty string or a number', 'id');
  }
  const item: DataItem = { id, vars, source: { file, line } };
  const expected = 'expected' in record ? record.expected : record.answer;
  if (expected !== undefined) item.expected = expected;
  if (record.assert !== undefined) {
    if (!Array.isArray(record.assert)) return fail('"assert" must be a list of assertions', 'assert');
    item.assert = record.assert;
    // promptfoo writes the label as an `equals` assertion; take it as the expected value.
    if (item.expected === undefined) {
      const eq = record.assert.find((a) => isPlainObject(a) && a.type === 'equals' && a.value !== undefined);
      if (isPlainObject(eq)) item.expected = eq.value;
    }
  }
  if (typeof record.description === 'string') item.description = record.description;
  if (isPlainObject(record.metadata)) item.metadata = record.metadata;
  return { item, diagnostics: [] };
}

/** The label as text, for scorers that compare strings. Lists are alternatives (see scorers). */
export function expectedText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
