/**
 * Prompt files: the text under evolution. Only the body evolves; the front matter (tools, model,
 * the `ratchet:` run spec) belongs to the user and must come back byte for byte, including odd
 * spacing, comments and CRLF line endings. So the file is split on raw text, never re-serialised.
 *
 * Which files carry front matter is the file-kind table's to say (src/core/files/fileKinds.ts):
 * `*.prompt.md` (VS Code prompt files), `*.prompty` and Copilot's customization files do; in the
 * others the whole text is body.
 *
 * The front matter is Copilot's (or Prompty's) before it is Ratchet's: VS Code's own reader takes
 * `applyTo: **\/*.py` or `description: Use when: …`, which strict YAML refuses. So its YAML is
 * Ratchet's business only when it holds a `ratchet:` key; otherwise a YAML error is not reported
 * (the body is found by the fences alone) and the parsed front matter is left undefined.
 */
import { badInputError, diagnostic } from '../data/diagnostics';
import type { Diagnostic } from '../data/diagnostics';
import { parseYamlSource } from '../data/yamlSource';
import { hasFrontMatterConvention, promptKindOf } from '../files/fileKinds';
import type { PromptKind } from '../files/fileKinds';
import type { YamlSource } from '../data/yamlSource';

export type { PromptKind };
export { promptKindOf };
export type LineEnding = '\n' | '\r\n';

export interface PromptFile {
  path: string;
  kind: PromptKind;
  /** The text as read. `withBody(file, file.body) === file.text`. */
  text: string;
  /** Everything before the body, byte for byte: BOM, `---`, the YAML, the closing `---` and its line ending. */
  frontMatterRaw: string;
  /** The YAML between the fences; undefined when the file has no front matter. */
  frontMatterYaml: string | undefined;
  /** 1-based line of the first YAML line (the line after the opening `---`). */
  frontMatterLine: number;
  /** The parsed front matter; undefined when there is none, `{}` when it is empty. */
  frontMatter: Record<string, unknown> | undefined;
  body: string;
  /** Offset of the body in `text` (UTF-16 code units). */
  bodyOffset: number;
  /** 1-based line where the body starts. */
  bodyLine: number;
  /** The file's line ending (its first one; `\n` when it has none). */
  eol: LineEnding;
}

export interface FrontMatterSplit {
  /** Everything up to and including the closing fence's line ending. */
  raw: string;
  yaml: string;
  /** Offset of the YAML text in the file. */
  yamlOffset: number;
  /** 1-based line of the first YAML line. */
  yamlLine: number;
}

/**
 * Finds the front matter by its fences without interpreting the YAML. Returns undefined when the
 * text does not open with a `---` line, and `{ unclosedLine }` when it opens one but never closes it.
 */
export function splitFrontMatter(text: string): FrontMatterSplit | { unclosedLine: number } | undefined {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const open = /^---[ \t]*(\r?\n)/.exec(text.slice(start));
  if (!open) return undefined;
  const yamlOffset = start + open[0].length;
  const fence = /^---[ \t]*(?:\r?\n|$)/gm;
  fence.lastIndex = yamlOffset;
  const close = fence.exec(text);
  if (!close) return { unclosedLine: 1 };
  return { raw: text.slice(0, close.index + close[0].length), yaml: text.slice(yamlOffset, close.index), yamlOffset, yamlLine: 2 };
}

export function detectEol(text: string): LineEnding {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}

/**
 * Parses a prompt file. Throws RatchetError('badInput') with the file and line when the front
 * matter is unclosed or is not a YAML mapping; use `promptFileDiagnostics` to get them without throwing.
 */
export function parsePromptFile(path: string, text: string): PromptFile {
  const { file, diagnostics } = readPromptFile(path, text);
  if (diagnostics.some((d) => d.severity === 'error') || !file) throw badInputError(diagnostics);
  return file;
}

/** The problems `parsePromptFile` would throw for, as diagnostics (for the language server). */
export function promptFileDiagnostics(path: string, text: string): Diagnostic[] {
  return readPromptFile(path, text).diagnostics;
}

/** The front matter's YAML with positions in the prompt file, for locating run-spec problems. */
export function frontMatterSource(path: string, text: string): { source: YamlSource; diagnostics: Diagnostic[] } | undefined {
  if (!hasFrontMatterConvention(promptKindOf(path))) return undefined;
  const split = splitFrontMatter(text);
  if (!split || 'unclosedLine' in split) return undefined;
  const { source, diagnostics } = ownedYaml(path, split);
  return { source, diagnostics };
}

/** The front matter names a `ratchet:` key on a line of its own (so its YAML is Ratchet's to check). */
export function holdsRatchetKey(yaml: string): boolean {
  return /^ratchet[ \t]*:/m.test(yaml);
}

/** Parses the front matter's YAML; its problems are reported only when it holds a `ratchet:` key. */
function ownedYaml(path: string, split: FrontMatterSplit): { source: YamlSource; diagnostics: Diagnostic[]; readable: boolean } {
  const parsed = parseYamlSource(path, split.yaml, split.yamlLine - 1);
  const readable = !parsed.diagnostics.some((d) => d.severity === 'error');
  return { source: parsed.source, diagnostics: holdsRatchetKey(split.yaml) ? parsed.diagnostics : [], readable };
}

function readPromptFile(path: string, text: string): { file: PromptFile | undefined; diagnostics: Diagnostic[] } {
  const kind = promptKindOf(path);
  const eol = detectEol(text);
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const whole: PromptFile = {
    path,
    kind,
    text,
    frontMatterRaw: bom,
    frontMatterYaml: undefined,
    frontMatterLine: 0,
    frontMatter: undefined,
    body: text.slice(bom.length),
    bodyOffset: bom.length,
    bodyLine: 1,
    eol,
  };
  if (!hasFrontMatterConvention(kind)) return { file: whole, diagnostics: [] };
  const split = splitFrontMatter(text);
  if (!split) return { file: whole, diagnostics: [] };
  if ('unclosedLine' in split) {
    const loc = { file: path, line: split.unclosedLine, column: 1, endLine: split.unclosedLine, endColumn: 4 };
    return { file: undefined, diagnostics: [diagnostic(loc, 'front matter opened with --- is never closed; add a --- line after it')] };
  }
  const { source, diagnostics, readable } = ownedYaml(path, split);
  const value: unknown = source.value;
  if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value))) {
    const loc = { file: path, line: split.yamlLine, column: 1, endLine: split.yamlLine, endColumn: 1 };
    diagnostics.push(diagnostic(loc, 'front matter must be a YAML mapping (key: value lines)'));
  }
  const bodyOffset = split.raw.length;
  return {
    file: {
      ...whole,
      frontMatterRaw: split.raw,
      frontMatterYaml: split.yaml,
      frontMatterLine: split.yamlLine,
      // A front matter whose YAML did not parse (not Ratchet's to report) reads as none.
      frontMatter: !readable ? undefined : ((value ?? {}) as Record<string, unknown>),
      body: text.slice(bodyOffset),
      bodyOffset,
      bodyLine: countLines(split.raw) + 1,
    },
    diagnostics,
  };
}

function countLines(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

/**
 * The file's text with a new body and everything else unchanged. The new body takes the file's
 * line ending (an LLM answers with `\n`; a CRLF file stays CRLF), and keeps a final line ending if
 * the old body had one, so accepting an edit does not produce a whitespace-only diff at the end.
 */
export function withBody(file: PromptFile, newBody: string): string {
  if (newBody === file.body) return file.text;
  let body = file.eol === '\r\n' ? newBody.replace(/\r?\n/g, '\r\n') : newBody.replace(/\r\n/g, '\n');
  const hadFinalEol = /\r?\n$/.test(file.body);
  if (hadFinalEol && !/\r?\n$/.test(body)) body += file.eol;
  return file.frontMatterRaw + body;
}

/** The body with `\n` line endings: what the LLM sees and edits. */
export function bodyForModel(file: PromptFile): string {
  return file.body.replace(/\r\n/g, '\n');
}
