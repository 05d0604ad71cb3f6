/**
 * `{{var}}` template variables in a prompt body: listed with their positions (so a dataset item
 * lacking one is reported against the line that uses it) and filled from a dataset item's vars.
 *
 * Syntax: `{{name}}`, whitespace-tolerant (`{{ name }}`), with dotted paths into nested values
 * (`{{ user.name }}`). Anything else in braces (`{{#if}}`, `{{> partial}}`, Jinja `{% %}`) is left
 * as literal text: Ratchet does not run a template language, so it must not half-interpret one.
 * Rendering is a single pass: a value that itself contains `{{x}}` is inserted verbatim.
 */
import { RatchetError } from '../errors';
import type { PromptFile } from './promptFile';

export interface TemplateVariable {
  /** As written, without braces and whitespace: `user.name`. */
  name: string;
  /** The first path segment, i.e. the dataset variable: `user`. */
  root: string;
  /** 1-based line and column of the opening `{{` in the file. */
  line: number;
  column: number;
  /** Column just past the closing `}}` (on `line` when the braces span no line break). */
  endColumn: number;
  /** Offset of `{{` in the scanned text, and the length of the whole `{{ … }}`. */
  offset: number;
  length: number;
}

export interface Template {
  /** The prompt file's path, for messages. */
  file: string;
  text: string;
  /** File line of the text's first line (the body's line in a file with front matter). */
  firstLine: number;
  variables: TemplateVariable[];
}

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\s*\}\}/g;

/** Every `{{var}}` occurrence in order. `firstLine` shifts line numbers to file coordinates. */
export function listTemplateVariables(text: string, firstLine = 1): TemplateVariable[] {
  const out: TemplateVariable[] = [];
  let line = firstLine;
  let lineStart = 0;
  let scanned = 0;
  for (const m of text.matchAll(VARIABLE)) {
    for (let i = scanned; i < m.index; i++) {
      if (text.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    scanned = m.index;
    const name = m[1]!;
    const column = m.index - lineStart + 1;
    const lastBreak = m[0].lastIndexOf('\n');
    const endColumn = lastBreak < 0 ? column + m[0].length : m[0].length - lastBreak;
    out.push({ name, root: name.split('.')[0]!, line, column, endColumn, offset: m.index, length: m[0].length });
  }
  return out;
}

/** The distinct dataset variables a text uses, in order of first use. */
export function templateVariableNames(text: string): string[] {
  return [...new Set(listTemplateVariables(text).map((v) => v.root))];
}

export function templateOf(file: PromptFile): Template {
  return { file: file.path, text: file.body, firstLine: file.bodyLine, variables: listTemplateVariables(file.body, file.bodyLine) };
}

/** undefined when a path segment is missing; null and '' are values. */
export function lookupVariable(vars: Readonly<Record<string, unknown>>, name: string): unknown {
  let v: unknown = vars;
  for (const seg of name.split('.')) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, seg)) return undefined;
    v = (v as Record<string, unknown>)[seg];
  }
  return v;
}

/** How a value is written into a prompt: strings verbatim, structures as JSON, null as nothing. */
export function valueText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** The occurrences whose value is missing from `vars`. */
export function missingVariables(template: Pick<Template, 'variables'>, vars: Readonly<Record<string, unknown>>): TemplateVariable[] {
  return template.variables.filter((v) => lookupVariable(vars, v.name) === undefined);
}

export interface RenderWhere {
  /** The prompt file, named in the error. */
  file?: string;
  firstLine?: number;
  /** The dataset item, named in the error. */
  itemId?: string;
}

/**
 * Fills every `{{var}}` from `vars`. Throws RatchetError('badInput') naming the first missing
 * variable, its line, and the item: a prompt rendered with a hole would be scored as if the model
 * failed, which is the wrong thing to measure.
 */
export function renderTemplate(text: string, vars: Readonly<Record<string, unknown>>, where: RenderWhere = {}): string {
  const variables = listTemplateVariables(text, where.firstLine ?? 1);
  const missing = variables.find((v) => lookupVariable(vars, v.name) === undefined);
  if (missing) {
    const file = where.file ?? 'the prompt';
    const item = where.itemId === undefined ? 'the item' : `item ${where.itemId}`;
    throw new RatchetError(
      'badInput',
      `${file}:${missing.line}:${missing.column}: template variable "${missing.name}" has no value in ${item}`,
      { file, line: missing.line, column: missing.column, variable: missing.name, itemId: where.itemId },
    );
  }
  let out = '';
  let last = 0;
  for (const v of variables) {
    out += text.slice(last, v.offset) + valueText(lookupVariable(vars, v.name));
    last = v.offset + v.length;
  }
  return out + text.slice(last);
}

/** Renders a Template (a prompt file's body) for one item. */
export function renderPrompt(template: Template, vars: Readonly<Record<string, unknown>>, itemId?: string): string {
  const where: RenderWhere = { file: template.file, firstLine: template.firstLine };
  if (itemId !== undefined) where.itemId = itemId;
  return renderTemplate(template.text, vars, where);
}
