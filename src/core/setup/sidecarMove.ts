/**
 * "Move Ratchet settings to a sidecar": the front matter's `ratchet:` block becomes the sidecar
 * `<name>.ratchet.yaml` (created, or appended to one that holds other keys), and the block's lines
 * leave the front matter, whose other lines (Copilot's `description`, `tools`…, comments) stay as
 * they were. VS Code's prompt validator flags every front-matter key it does not know, `ratchet`
 * included; the sidecar is where a run spec lives by default, and this is the way there.
 *
 * Pure: the plan is the text to write and the lines to delete; the language server turns it into
 * one workspace edit (an undo takes both back). A move that would change what the spec says — a
 * block that cannot be re-indented as a document, keys the sidecar already sets — is not planned.
 */
import { parseDocument } from 'yaml';
import { isPlainObject, stableJson } from '../data/item';
import { hasFrontMatterConvention, promptKindOf } from '../files/fileKinds';
import { holdsRatchetKey, splitFrontMatter } from '../prompt/promptFile';
import { sidecarPathFor } from './specSource';

export interface SidecarMove {
  sidecarPath: string;
  /** The sidecar does not exist yet: the text is its whole content. Else the text goes at its end. */
  creates: boolean;
  text: string;
  /** The prompt file's lines to delete, 0-based: from `fromLine` up to (not including) `toLine`. */
  fromLine: number;
  toLine: number;
}

/** The plan for a prompt file's text (and its sidecar's, when one exists); undefined when there is nothing to move, or no faithful move. */
export function planSidecarMove(promptPath: string, promptText: string, sidecarText: string | undefined): SidecarMove | undefined {
  if (!hasFrontMatterConvention(promptKindOf(promptPath))) return undefined;
  const split = splitFrontMatter(promptText);
  if (!split || 'unclosedLine' in split || !holdsRatchetKey(split.yaml)) return undefined;
  const front = parseYaml(split.yaml);
  if (!isPlainObject(front) || !isPlainObject(front.ratchet)) return undefined;

  const lines = split.yaml.split('\n').map((l) => l.replace(/\r$/, ''));
  const start = lines.findIndex((l) => /^ratchet[ \t]*:/.test(l));
  let end = start + 1;
  while (end < lines.length && (lines[end]!.trim() === '' || /^[ \t]/.test(lines[end]!))) end++;
  while (end > start + 1 && lines[end - 1]!.trim() === '') end--;
  const inline = lines[start]!.replace(/^ratchet[ \t]*:/, '')
    .replace(/(^|\s)#.*$/, '')
    .trim();
  const body = inline !== '' ? [inline, ...lines.slice(start + 1, end).map((l) => l.trimStart())] : dedent(lines.slice(start + 1, end));
  if (!body) return undefined;
  const moved = `${body.join('\n').trimEnd()}\n`;
  // Only a move that says the same thing: the block, re-indented, reads back as the same spec.
  const reread = parseYaml(moved);
  if (reread === undefined || stableJson(reread) !== stableJson(front.ratchet)) return undefined;

  const sidecarPath = sidecarPathFor(promptPath);
  const name = promptPath.split(/[\\/]/).pop() ?? promptPath;
  let text = `# Run spec for ${name}, moved from its front matter.\n${moved}`;
  if (sidecarText !== undefined) {
    const existing = parseYaml(sidecarText);
    if (existing !== undefined && !isPlainObject(existing)) return undefined;
    const keys = Object.keys(isPlainObject(existing) ? existing : {});
    if (Object.keys(front.ratchet).some((k) => keys.includes(k))) return undefined;
    text = `${sidecarText === '' || sidecarText.endsWith('\n') ? '' : '\n'}${text}`;
  }
  // The block's lines in the file: the YAML starts on the line after the opening fence.
  const yamlFirstLine = split.yamlLine - 1;
  const rest = [...lines.slice(0, start), ...lines.slice(end)].filter((l) => l.trim() !== '');
  // A front matter that held nothing else goes as a whole, fences included.
  const [fromLine, toLine] = rest.length === 0 ? [0, yamlFirstLine + lines.length] : [yamlFirstLine + start, yamlFirstLine + end];
  return { sidecarPath, creates: sidecarText === undefined, text, fromLine, toLine };
}

/** The YAML's value; undefined when it does not parse (or is empty). */
function parseYaml(text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) return undefined;
  try {
    return (doc.toJS() as unknown) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Lines of a block mapping without the indentation of its first line; undefined when a line sits left of it. */
function dedent(block: readonly string[]): string[] | undefined {
  const first = block.find((l) => l.trim() !== '');
  if (first === undefined) return undefined;
  const indent = /^[ \t]*/.exec(first)![0];
  const out: string[] = [];
  for (const l of block) {
    if (l.trim() === '') out.push('');
    else if (l.startsWith(indent)) out.push(l.slice(indent.length));
    else return undefined;
  }
  return out;
}
