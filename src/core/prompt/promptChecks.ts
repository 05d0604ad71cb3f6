/**
 * Starting prompts that cannot work, found before the first call rather than paid for on every
 * item: an empty body, binary content, a body longer than the run's `maxPromptTokens` (the limit
 * every child is held to, and the starting prompt is sent with every item too), and a body that
 * uses none of the dataset's fields, which sends every item the same prompt (a warning: a prompt
 * may mean that, but it is almost always a forgotten `{{placeholder}}`).
 *
 * A `SKILL.md` also needs a description (an agent decides from it whether to load the skill) that
 * VS Code accepts. One check for every face: `loadRunInputs` runs it, so the CLI refuses with these
 * messages and the language server shows them as Problems on the prompt file.
 */
import { diagnostic, lineLocation } from '../data/diagnostics';
import type { Diagnostic } from '../data/diagnostics';
import type { PromptFile } from './promptFile';
import { bodyForModel } from './promptFile';
import type { Template } from './template';
import { estimateTokens } from '../llm/tokens';
import { evolvableRefusal, evolvableText, skillDescription } from './evolvable';

export interface StartingPromptContext {
  /** The run's limit on a prompt's length (RunSpec.maxPromptTokens). */
  maxPromptTokens: number;
  /** The variables the dataset's items supply, in order of first appearance; empty for a zero-data run. */
  datasetFields: readonly string[];
}

/** How many dataset fields a warning names before "…". */
const NAMED_FIELDS = 3;
/** A text with this share of control or undecodable characters is not a prompt. */
const BINARY_SHARE = 0.1;

export function checkStartingPrompt(prompt: PromptFile, template: Pick<Template, 'variables'>, ctx: StartingPromptContext): Diagnostic[] {
  const body = bodyForModel(prompt);
  const at = lineLocation(prompt.path, prompt.bodyLine);
  if (body.trim() === '') {
    const where = prompt.frontMatterRaw.trim() === '' ? 'the file is empty' : 'nothing follows the front matter';
    return [diagnostic(at, `the prompt has no body (${where}): write the prompt the run should evolve`)];
  }
  const binaryLine = binaryContentLine(prompt);
  if (binaryLine !== undefined) {
    return [diagnostic(lineLocation(prompt.path, binaryLine), 'the prompt holds binary content (NUL bytes, or text that is not UTF-8): a run evolves text; open the file you meant, or save this one as UTF-8 text')];
  }
  const out: Diagnostic[] = [];
  if (prompt.kind === 'skill') {
    const field = skillDescription(prompt);
    if (!field) {
      out.push(
        diagnostic(lineLocation(prompt.path, 1), 'the skill has no description in its front matter: an agent reads it to decide whether to load the skill; add a description: line saying what the skill does and when to use it', {
          field: 'description',
        }),
      );
    } else {
      const refusal = evolvableRefusal(prompt, evolvableText(prompt));
      if (refusal) out.push(diagnostic(lineLocation(prompt.path, prompt.text.slice(0, field.start).split('\n').length), `the skill cannot be evolved: ${refusal}`, { field: 'description' }));
    }
  }
  const tokens = estimateTokens(body);
  if (tokens > ctx.maxPromptTokens) {
    out.push(
      diagnostic(at, `the prompt is about ${tokens} tokens, over the run's maxPromptTokens of ${ctx.maxPromptTokens}, and would be sent with every item: shorten it, or raise maxPromptTokens in the run spec`, { field: 'maxPromptTokens' }),
    );
  }
  if (template.variables.length === 0 && ctx.datasetFields.length > 0) {
    const named = ctx.datasetFields.slice(0, NAMED_FIELDS).map((f) => `{{${f}}}`);
    const list = named.join(', ') + (ctx.datasetFields.length > NAMED_FIELDS ? ', …' : '');
    out.push(
      diagnostic(at, `the prompt uses none of the dataset's fields (${list}), so every item gets the same prompt: add a placeholder such as ${named[0]}`, {
        severity: 'warning',
      }),
    );
  }
  return out;
}

/** The dataset variables the items supply, in order of first appearance. */
export function datasetFieldsOf(items: readonly { vars: Readonly<Record<string, unknown>> }[]): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const name of Object.keys(item.vars)) seen.add(name);
  return [...seen];
}

/**
 * The 1-based file line of the first sign that the body is not text: a NUL, or (when they make up
 * a tenth of the body) control characters and U+FFFD, what a decoder leaves of bytes that are not UTF-8.
 */
function binaryContentLine(prompt: PromptFile): number | undefined {
  const body = prompt.body;
  let odd = 0;
  let first = -1;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 0) return lineAt(prompt, i);
    // Tab, line feed, vertical tab, form feed and carriage return are text.
    if ((c < 32 && (c < 9 || c > 13)) || c === 0x7f || c === 0xfffd) {
      odd++;
      if (first < 0) first = i;
    }
  }
  return odd > 0 && odd >= body.length * BINARY_SHARE ? lineAt(prompt, first) : undefined;
}

function lineAt(prompt: PromptFile, bodyIndex: number): number {
  let line = prompt.bodyLine;
  for (let i = 0; i < bodyIndex; i++) if (prompt.body.charCodeAt(i) === 10) line++;
  return line;
}
