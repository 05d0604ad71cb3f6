/**
 * "Convert to Skill": a `SKILL.md` written from a Copilot prompt file the way VS Code's own
 * migration maps it (docs: "Convert prompt files to skills") — `name`, `description` and
 * `argument-hint` are kept, `agent`, `model`, `tools` and every other field are not (they are
 * listed, as VS Code lists them), the body comes over as it is. A skill's name is its folder's
 * (lowercase letters, digits and hyphens, at most 64), so the name is made of the prompt's `name`
 * or file name. A skill needs a description to be loaded at all; a prompt without one gets its
 * body's first line, and the caller says so.
 *
 * The run spec comes along (the sidecar's text, or the front matter's `ratchet:` block) with its
 * paths rebased to the skill's folder, so Evaluate runs both files on the same items.
 */
import { parseDocument, isMap, isScalar, isSeq } from 'yaml';
import type { Node } from 'yaml';
import { frontMatterField } from './evolvable';
import type { PromptFile } from './promptFile';
import { bodyForModel } from './promptFile';

/** The fields VS Code's migration keeps, in the order it writes them. */
const KEPT = ['name', 'description', 'argument-hint'] as const;
/** VS Code's limit on a skill's name. */
const NAME_MAX = 64;
const DESCRIPTION_FROM_BODY_MAX = 200;

export interface SkillConversion {
  /** The skill's name, which is also its folder's. */
  name: string;
  skillText: string;
  /** Front-matter fields of the prompt that the skill does not carry (agent, model, tools, ratchet…). */
  omitted: string[];
  /** The prompt had no description; the skill's is its body's first line. */
  descriptionFromBody: boolean;
}

/** `My Prompt_v2` → `my-prompt-v2`. */
export function skillNameFrom(text: string): string {
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, NAME_MAX)
    .replace(/-$/, '');
  return name === '' ? 'skill' : name;
}

export function skillFromPrompt(file: PromptFile, fileStem: string): SkillConversion {
  const yaml = file.frontMatterYaml ?? '';
  const field = (key: string) => frontMatterField(yaml, key);
  const name = skillNameFrom(field('name')?.value ?? fileStem);
  const body = bodyForModel(file);
  const description = field('description');
  const firstLine =
    body
      .split('\n')
      .map((l) => l.replace(/^#+\s*/, '').trim())
      .find((l) => l !== '') ?? name;
  const lines = [`name: ${name}`, description ? description.lines : `description: ${JSON.stringify(firstLine.slice(0, DESCRIPTION_FROM_BODY_MAX))}`, ...(field('argument-hint') ? [field('argument-hint')!.lines] : [])];
  const topKeys = [...yaml.matchAll(/^([A-Za-z_][\w-]*)[ \t]*:/gm)].map((m) => m[1]!);
  return {
    name,
    skillText: `---\n${lines.join('\n')}\n---\n${body}`,
    omitted: [...new Set(topKeys.filter((k) => !(KEPT as readonly string[]).includes(k)))],
    descriptionFromBody: description === undefined,
  };
}

/**
 * A run spec's text for another folder: every path it names (dataset, split files, a module
 * scorer's path, a JSON schema file, the harness's support files) rebased by `rebase`, the rest —
 * comments, order, quoting — as written.
 */
export function rebaseSpecText(specText: string, rebase: (relative: string) => string): string {
  const doc = parseDocument(specText);
  if (doc.errors.length > 0 || !isMap(doc.contents)) return specText;
  const paths: (readonly (string | number)[])[] = [['dataset'], ['split', 'dev'], ['split', 'test'], ['split', 'feedback'], ['scorer', 'path'], ['scorer', 'schema']];
  const support = doc.getIn(['harness', 'supportFiles'], true) as Node | undefined;
  if (isSeq(support)) support.items.forEach((_, i) => paths.push(['harness', 'supportFiles', i]));
  for (const path of paths) {
    const node = doc.getIn(path, true) as Node | undefined;
    if (isScalar(node) && typeof node.value === 'string' && !/^(?:\/|[A-Za-z]:[\\/]|\\\\)/.test(node.value)) node.value = rebase(node.value);
  }
  return doc.toString();
}
