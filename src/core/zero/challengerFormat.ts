/**
 * The Challenger's answer format (J-Zero, issue #17): each task is one `<question>…</question>`
 * block holding a value for every template variable of the prompt under evolution — a JSON object
 * keyed by variable when the prompt has several, the plain text of the value when it has one (a
 * fence around it, or the JSON form keyed by that one variable, is unwrapped: `oneValue`).
 *
 * The answer is model output, so nothing in it is trusted: a block that cannot become a dataset
 * item is discarded and counted by reason. Only how the JSON of a block is written is repaired —
 * a fence, a label line, a trailing comma, a comment, a line break inside a string (jsonRepair.ts,
 * #25) — never what it says, and each repair is counted too: a missing variable is not guessed. The
 * answer comes reasoning removed (src/core/llm/answer.ts), so a draft task in the Challenger's
 * reasoning never becomes a task. The counts are data a loop journals and the Zero-data tab shows
 * ("format" discards and repairs per round); the formatter here is the parser's inverse, so the
 * examples the Challenger is shown are in exactly the format it is read in.
 */
import { RatchetError } from '../errors';
import { valueText } from '../prompt/template';
import { DISCARD_REASONS } from '../journal/payloadTypes';
import type { FormatDiscardReason } from '../journal/payloadTypes';
import { parseModelJson } from './jsonRepair';
import { isPlaceholder } from '../llm/placeholder';
import { JSON_REPAIRS } from '../journal/payloadTypes';
import type { JsonRepair } from '../journal/payloadTypes';

/** Longest task (characters of the block's content) kept when the caller sets none. */
export const DEFAULT_MAX_TASK_CHARS = 4000;

export interface ChallengerTask {
  /** One value per template variable (strings, or JSON values when the object gave them). */
  vars: Record<string, unknown>;
  /** The task as one text (taskText: its values, one per line): what dedup compares. */
  text: string;
  /** 0-based position of the block in the answer, for messages and provenance. */
  block: number;
}

export interface FormatDiscard {
  reason: FormatDiscardReason;
  /** The block's position; undefined for a task that was asked for and never written. */
  block: number | undefined;
  /** What was wrong, for a reviewer (the variable missing, the length, the JSON error). */
  detail: string;
}

export interface ParsedChallengerAnswer {
  tasks: ChallengerTask[];
  discards: FormatDiscard[];
  /** Discards counted by reason, every reason present (0 when none). */
  counts: Record<FormatDiscardReason, number>;
  /** Repairs of how a task's JSON was written (a block may need several), every kind present (0 when none). */
  repairs: Record<JsonRepair, number>;
}

export interface ChallengerFormatOptions {
  /** The prompt's template variables (roots, in order of first use); at least one. */
  variables: readonly string[];
  /** How many tasks were asked for: a shortfall counts as `missingTag`, one per missing task. */
  requested?: number;
  maxChars?: number;
}

/** Splits the answer into tasks and counted discards. */
export function parseChallengerAnswer(answer: string, opts: ChallengerFormatOptions): ParsedChallengerAnswer {
  requireVariables(opts.variables);
  const maxChars = opts.maxChars ?? DEFAULT_MAX_TASK_CHARS;
  const tasks: ChallengerTask[] = [];
  const discards: FormatDiscard[] = [];
  const repairs = Object.fromEntries(JSON_REPAIRS.map((r) => [r, 0])) as Record<JsonRepair, number>;
  const { blocks, orphanCloses } = tagBlocks(answer, 'question');
  for (let i = 0; i < orphanCloses; i++) discards.push({ reason: 'missingTag', block: undefined, detail: 'a </question> with no <question> before it' });
  blocks.forEach((b, index) => {
    if (b.content === undefined) {
      discards.push({ reason: 'unclosedTag', block: index, detail: 'a <question> never closed before the next one or the end of the answer' });
      return;
    }
    const read = readBlock(b.content, opts.variables, maxChars);
    for (const r of read.repairs ?? []) repairs[r]++;
    if ('reason' in read) discards.push({ reason: read.reason, detail: read.detail, block: index });
    else tasks.push({ vars: read.vars, text: read.text, block: index });
  });
  const attempts = blocks.length + orphanCloses;
  const shortfall = Math.max(0, (opts.requested ?? 0) - attempts);
  for (let i = 0; i < shortfall; i++) discards.push({ reason: 'missingTag', block: undefined, detail: `asked for ${opts.requested} tasks, the answer holds ${attempts} blocks` });
  return { tasks, discards, counts: countDiscards(discards), repairs };
}

/** The counts of discards by reason, every reason present: the shape a journal event carries. */
export function countDiscards(discards: readonly Pick<FormatDiscard, 'reason'>[]): Record<FormatDiscardReason, number> {
  const counts = Object.fromEntries(DISCARD_REASONS.map((r) => [r, 0])) as Record<FormatDiscardReason, number>;
  for (const d of discards) counts[d.reason]++;
  return counts;
}

/**
 * One task written as the Challenger must write it (the parser's inverse): the plain value for a
 * one-variable prompt, else a JSON object with exactly the prompt's variables.
 */
export function questionBlock(vars: Readonly<Record<string, unknown>>, variables: readonly string[]): string {
  requireVariables(variables);
  const content = variables.length === 1 ? valueText(vars[variables[0]!]) : JSON.stringify(Object.fromEntries(variables.map((v) => [v, vars[v] ?? null])), null, 2);
  return `<question>\n${content}\n</question>`;
}

/**
 * The single text a task is compared by: its values, one per line in the prompt's order. Not the
 * variable names: every task shares them, and those shared n-grams would push the BLEU of two
 * unrelated short tasks towards the duplicate threshold.
 */
export function taskText(vars: Readonly<Record<string, unknown>>, variables: readonly string[]): string {
  return variables.map((v) => valueText(vars[v])).join('\n');
}

function requireVariables(variables: readonly string[]): void {
  // A prompt with no template variable gets its input appended as one (the caller names it);
  // reaching here without one is a wiring error, not the user's.
  if (variables.length === 0) throw new RatchetError('internal', 'The Challenger format needs at least one template variable.');
}

export interface RawBlock {
  /** undefined when the block was never closed. */
  content: string | undefined;
}

/**
 * The `<tag>…</tag>` blocks of a model's answer (tag name case-insensitive), pairing each opening
 * with the first close after it. A second opening before that close means the first was left
 * open: nesting is not a format any role is asked for, and reading it would make the outer block
 * swallow the inner one. `orphanCloses` counts closes with no opening before them.
 */
export function tagBlocks(answer: string, tag: string): { blocks: RawBlock[]; orphanCloses: number } {
  const marks = [
    // An opening tag may carry attributes (`<question id="1">`), as models number their tasks.
    ...[...answer.matchAll(new RegExp(`<${tag}(?:\\s[^<>]*)?>`, 'gi'))].map((m) => ({ at: m.index, end: m.index + m[0].length, open: true })),
    ...[...answer.matchAll(new RegExp(`</${tag}>`, 'gi'))].map((m) => ({ at: m.index, end: m.index + m[0].length, open: false })),
  ].sort((a, b) => a.at - b.at);
  const blocks: RawBlock[] = [];
  let orphanCloses = 0;
  let openEnd: number | undefined;
  for (const m of marks) {
    if (m.open) {
      if (openEnd !== undefined) blocks.push({ content: undefined });
      openEnd = m.end;
    } else if (openEnd === undefined) {
      orphanCloses++;
    } else {
      blocks.push({ content: answer.slice(openEnd, m.at) });
      openEnd = undefined;
    }
  }
  if (openEnd !== undefined) blocks.push({ content: undefined });
  return { blocks, orphanCloses };
}

type BlockRead = (Omit<ChallengerTask, 'block'> | Omit<FormatDiscard, 'block'>) & { repairs?: JsonRepair[] };

/**
 * A one-variable task: the block's text, less a fence around all of it — or, when the model wrote
 * the several-variable form anyway, the value of a JSON object keyed by that variable alone (each
 * counted as a repair): the fence or the JSON is not the task.
 */
function oneValue(content: string, variable: string): BlockRead {
  const fenced = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n\s*\1\s*$/.exec(content);
  const text = fenced ? fenced[2]!.trim() : content;
  const repairs: JsonRepair[] = fenced ? ['fence'] : [];
  const json = text.startsWith('{') ? parseModelJson(text) : undefined;
  const obj = json?.ok && json.value !== null && typeof json.value === 'object' && !Array.isArray(json.value) ? (json.value as Record<string, unknown>) : undefined;
  if (json?.ok && obj && Object.keys(obj).length === 1 && obj[variable] !== undefined && obj[variable] !== null) {
    const value = obj[variable];
    if (valueText(value).trim() === '') return { reason: 'empty', detail: `"${variable}" is empty`, repairs };
    return { vars: { [variable]: value }, text: valueText(value), repairs: JSON_REPAIRS.filter((r) => repairs.includes(r) || json.repairs.includes(r)) };
  }
  if (text === '') return { reason: 'empty', detail: 'the block holds nothing', repairs };
  if (isPlaceholder(text)) return { reason: 'empty', detail: `only a placeholder, "${text.slice(0, 40)}"`, repairs };
  return { vars: { [variable]: text }, text, ...(repairs.length > 0 ? { repairs } : {}) };
}

function readBlock(raw: string, variables: readonly string[], maxChars: number): BlockRead {
  const content = raw.trim();
  if (content === '') return { reason: 'empty', detail: 'the block holds nothing' };
  if (content.length > maxChars) return { reason: 'overLength', detail: `${content.length} characters, over the limit of ${maxChars}` };
  if (variables.length === 1) return oneValue(content, variables[0]!);
  const json = parseModelJson(content);
  if (!json.ok) return { reason: 'notJson', detail: `not a JSON object: ${json.error}` };
  const { value: parsed, repairs } = json;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { reason: 'notJson', detail: 'JSON, but not an object keyed by variable', repairs };
  const obj = parsed as Record<string, unknown>;
  const missing = variables.find((v) => obj[v] === undefined || obj[v] === null);
  if (missing !== undefined) return { reason: 'missingVariable', detail: `no value for "${missing}"`, repairs };
  const blank = variables.find((v) => valueText(obj[v]).trim() === '');
  if (blank !== undefined) return { reason: 'empty', detail: `"${blank}" is empty`, repairs };
  // The format echoed back ({"question": "...", "unit": "<unit>"}) is no task.
  const slot = variables.find((v) => isPlaceholder(valueText(obj[v])));
  if (slot !== undefined) return { reason: 'empty', detail: `"${slot}" is only a placeholder, "${valueText(obj[slot]).trim().slice(0, 40)}"`, repairs };
  // Keys the prompt does not use are dropped: they would reach no model, only the dataset file.
  const vars = Object.fromEntries(variables.map((v) => [v, obj[v]]));
  return { vars, text: taskText(vars, variables), repairs };
}
