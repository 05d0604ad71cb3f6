/**
 * What of a prompt file an edit may change, as one text the proposer reads and rewrites, and how a
 * rewritten text goes back into the file.
 *
 * For every kind but a skill that is the body: the front matter (Copilot's `description`, `tools`,
 * `model`, `applyTo`…, Ratchet's own `ratchet:` block) comes back byte for byte and is never shown
 * to the proposer to rewrite. A `SKILL.md` is different in one field: its `description` is what
 * decides whether an agent loads the skill at all, so it evolves with the body. Its text is a small
 * SKILL.md of its own — a front matter holding only the `description` line(s) as written, then the
 * body — and only those lines change in the file; `name`, `argument-hint` and every other field
 * stay as they were.
 *
 * The description is read from its lines, not through a YAML parser: VS Code's reader accepts
 * `description: Use when: …`, which strict YAML refuses, and such a skill must still evolve.
 */
import { parseDocument } from 'yaml';
import type { PromptFile } from './promptFile';
import { bodyForModel, splitFrontMatter, withBody } from './promptFile';

/** VS Code's limit on a skill's description. */
export const SKILL_DESCRIPTION_MAX = 1024;

export interface DescriptionField {
  /** The `description:` line and its continuation lines, as written (with `\n` line endings). */
  lines: string;
  /** Offsets of those lines in the text they were read from (end: before the last line's line ending). */
  start: number;
  end: number;
  /** The value as an agent reads it. */
  value: string;
}

/** A top-level `description:` key and its value's continuation lines, in a front matter's YAML text. */
export function descriptionField(yaml: string, offset = 0): DescriptionField | undefined {
  return frontMatterField(yaml, 'description', offset);
}

/** A top-level `<key>:` and its value's continuation lines, read from its lines (see above: not through strict YAML). */
export function frontMatterField(yaml: string, key: string, offset = 0): DescriptionField | undefined {
  const lines: { at: number; text: string }[] = [];
  for (let at = 0; at <= yaml.length;) {
    const nl = yaml.indexOf('\n', at);
    const stop = nl < 0 ? yaml.length : nl;
    lines.push({ at, text: yaml.slice(at, stop).replace(/\r$/, '') });
    at = stop + 1;
  }
  const keyRe = new RegExp(`^${key.replace(/[-.]/g, '\\$&')}[ \\t]*:`);
  const i = lines.findIndex((l) => keyRe.test(l.text));
  if (i < 0) return undefined;
  // More-indented lines continue the value (a block scalar, a folded plain scalar), blank lines between them too.
  let last = i;
  for (let j = i + 1; j < lines.length && (lines[j]!.text.trim() === '' || /^[ \t]/.test(lines[j]!.text)); j++) {
    if (lines[j]!.text.trim() !== '') last = j;
  }
  const start = lines[i]!.at;
  const end = lines[last]!.at + lines[last]!.text.length;
  const text = lines
    .slice(i, last + 1)
    .map((l) => l.text)
    .join('\n');
  return { lines: text, start: offset + start, end: offset + end, value: fieldValue(text, key) };
}

/** The value of `key: …` lines: as YAML when they parse, else the text after the colon (as VS Code reads it). */
function fieldValue(lines: string, key: string): string {
  const doc = parseDocument(lines, { prettyErrors: false });
  if (doc.errors.length === 0) {
    try {
      const v: unknown = doc.toJS();
      const d = (v as Record<string, unknown> | null)?.[key];
      if (typeof d === 'string') return d.trim();
    } catch {
      // An alias with no anchor (`**/*.ts`): read the text as written.
    }
  }
  return lines
    .slice(lines.indexOf(':') + 1)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(['"])(.*)\1$/, '$2');
}

/** A skill's description in its front matter; undefined without one. */
export function skillDescription(file: PromptFile): DescriptionField | undefined {
  if (file.kind !== 'skill' || file.frontMatterYaml === undefined) return undefined;
  return descriptionField(file.frontMatterYaml, file.frontMatterRaw.indexOf(file.frontMatterYaml));
}

/** A skill's name as an agent lists it: its front matter's `name`, else its folder's name (VS Code requires the two to match). */
export function skillName(file: PromptFile): string {
  const m = /^name[ \t]*:[ \t]*(.+?)[ \t]*\r?$/m.exec(file.frontMatterYaml ?? '');
  if (m) return m[1]!.replace(/^(['"])(.*)\1$/, '$2');
  const parts = file.path.split(/[\\/]/);
  return parts.at(-2) ?? 'skill';
}

/** The text an edit rewrites: the body, and for a skill its description above it. */
export function evolvableText(file: PromptFile): string {
  const field = skillDescription(file);
  return field ? `---\n${field.lines}\n---\n${bodyForModel(file)}` : bodyForModel(file);
}

/** A skill version's parts. */
export interface SkillParts {
  description: DescriptionField;
  body: string;
}

/**
 * Reads a skill version's text (what `evolvableText` wrote, or the proposer's rewrite of it);
 * a string saying what is wrong when it cannot go back into the file.
 */
export function skillParts(text: string): SkillParts | string {
  const split = splitFrontMatter(text);
  if (!split || 'unclosedLine' in split) return "it drops the skill's front matter, which must hold its description between --- lines above the body";
  const field = descriptionField(split.yaml);
  if (!field) return 'its front matter has no description: a skill needs one for an agent to know when to load it';
  const others = (split.yaml.slice(0, field.start) + split.yaml.slice(field.end)).split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  if (others.length > 0) return `its front matter holds more than the description ("${others[0]!.trim()}"): only a skill's description and body are edited`;
  if (field.value === '') return 'its description is empty';
  if (field.value.length > SKILL_DESCRIPTION_MAX) return `its description is ${field.value.length} characters, over the ${SKILL_DESCRIPTION_MAX} VS Code reads`;
  return { description: field, body: text.slice(split.raw.length) };
}

/** Why a rewritten text cannot go into the file; undefined when it can. */
export function evolvableRefusal(file: PromptFile, text: string): string | undefined {
  if (!skillDescription(file)) return undefined;
  const parts = skillParts(text);
  return typeof parts === 'string' ? parts : undefined;
}

/**
 * The file's text with `text` (a version of `evolvableText`) in place: the body through `withBody`
 * (line endings, final newline), and a skill's description lines replaced where they stand when
 * they changed. Call `evolvableRefusal` first: a text it refuses is written as a body.
 */
export function fileTextWith(file: PromptFile, text: string): string {
  const field = skillDescription(file);
  const parts = field ? skillParts(text) : undefined;
  if (!field || parts === undefined || typeof parts === 'string') return withBody(file, text);
  const withNewBody = withBody(file, parts.body);
  if (parts.description.lines === field.lines) return withNewBody;
  const lines = file.eol === '\r\n' ? parts.description.lines.replace(/\n/g, '\r\n') : parts.description.lines;
  return withNewBody.slice(0, field.start) + lines + withNewBody.slice(field.end);
}
