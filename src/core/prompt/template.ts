/**
 * `{{var}}` template variables in a prompt body: listed with their positions (so a dataset item
 * lacking one is reported against the line that uses it) and filled from a dataset item's vars.
 *
 * Syntax: `{{name}}`, whitespace-tolerant (`{{ name }}`), with dotted paths into nested values
 * (`{{ user.name }}`). Anything else in braces (`{{#if}}`, `{{> partial}}`, Jinja `{% %}`) is left
 * as literal text: Ratchet does not run a template language, so it must not half-interpret one.
 * Rendering is a single pass: a value that itself contains `{{x}}` is inserted verbatim.
 *
 * Files that follow Copilot's conventions (the file-kind table's `copilot`) also take VS Code's
 * input variables, `${input:name}` and `${input:name:placeholder}`: filled from the item's `name`
 * like `{{name}}` (the placeholder is what VS Code shows when it asks; the dataset answers instead).
 */
import { RatchetError } from '../errors';
import { followsCopilot } from '../files/fileKinds';
import type { PromptFile } from './promptFile';

/** `mustache`: `{{name}}` only; `copilot`: `{{name}}` and `${input:name[:placeholder]}`. */
export type TemplateSyntax = 'mustache' | 'copilot';

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
  syntax: TemplateSyntax;
  variables: TemplateVariable[];
}

const MUSTACHE = '\\{\\{\\s*([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z0-9_]+)*)\\s*\\}\\}';
/** VS Code's input variable; its name is group 2 (no dotted paths: VS Code has none). */
const COPILOT_INPUT = '\\$\\{input:([A-Za-z_][A-Za-z0-9_-]*)(?::[^}\\n]*)?\\}';
const VARIABLE: Record<TemplateSyntax, RegExp> = {
  mustache: new RegExp(MUSTACHE, 'g'),
  copilot: new RegExp(`${MUSTACHE}|${COPILOT_INPUT}`, 'g'),
};

/** The template syntax of a prompt file, from its kind. */
export function syntaxOf(file: Pick<PromptFile, 'kind'>): TemplateSyntax {
  return followsCopilot(file.kind) ? 'copilot' : 'mustache';
}

/** Every variable occurrence in order. `firstLine` shifts line numbers to file coordinates. */
export function listTemplateVariables(text: string, firstLine = 1, syntax: TemplateSyntax = 'mustache'): TemplateVariable[] {
  const out: TemplateVariable[] = [];
  let line = firstLine;
  let lineStart = 0;
  let scanned = 0;
  for (const m of text.matchAll(VARIABLE[syntax])) {
    for (let i = scanned; i < m.index; i++) {
      if (text.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    scanned = m.index;
    const name = (m[1] ?? m[2])!;
    const column = m.index - lineStart + 1;
    const lastBreak = m[0].lastIndexOf('\n');
    const endColumn = lastBreak < 0 ? column + m[0].length : m[0].length - lastBreak;
    out.push({ name, root: name.split('.')[0]!, line, column, endColumn, offset: m.index, length: m[0].length });
  }
  return out;
}

/** The distinct dataset variables a text uses, in order of first use. */
export function templateVariableNames(text: string, syntax: TemplateSyntax = 'mustache'): string[] {
  return [...new Set(listTemplateVariables(text, 1, syntax).map((v) => v.root))];
}

export function templateOf(file: PromptFile): Template {
  const syntax = syntaxOf(file);
  return { file: file.path, text: file.body, firstLine: file.bodyLine, syntax, variables: listTemplateVariables(file.body, file.bodyLine, syntax) };
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
  syntax?: TemplateSyntax;
}

/**
 * Fills every `{{var}}` from `vars`. Throws RatchetError('badInput') naming the first missing
 * variable, its line, and the item: a prompt rendered with a hole would be scored as if the model
 * failed, which is the wrong thing to measure.
 */
export function renderTemplate(text: string, vars: Readonly<Record<string, unknown>>, where: RenderWhere = {}): string {
  const variables = listTemplateVariables(text, where.firstLine ?? 1, where.syntax);
  const missing = variables.find((v) => lookupVariable(vars, v.name) === undefined);
  if (missing) {
    const file = where.file ?? 'the prompt';
    const item = where.itemId === undefined ? 'the item' : `item ${where.itemId}`;
    throw new RatchetError('badInput', `${file}:${missing.line}:${missing.column}: template variable "${missing.name}" has no value in ${item}`, {
      file,
      line: missing.line,
      column: missing.column,
      variable: missing.name,
      itemId: where.itemId,
    });
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
  const where: RenderWhere = { file: template.file, firstLine: template.firstLine, syntax: template.syntax };
  if (itemId !== undefined) where.itemId = itemId;
  return renderTemplate(template.text, vars, where);
}
