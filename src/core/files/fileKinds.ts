/**
 * The files Ratchet works on, once. The server (lenses, diagnostics, runs), the client (document
 * selector, Evolve's enablement), the manifest (activation, menus, schema association; written
 * from it by `npm run manifest`), the CLI, the prompt parser, the Runs view and Prompt History all
 * ask `fileKind` or read this table.
 *
 * Decisions (issue #12): a prompt is `.prompt.md` or `.prompty` (by name: front matter may hold a
 * `ratchet:` run spec) or `.md`, `.markdown`, `.txt` (plain body; a prompt once a run spec names
 * it, through a sidecar). `.markdown` is the long spelling of `.md`, so it is accepted wherever
 * `.md` is. A run spec is `<name>.ratchet.yaml`, also read as `.ratchet.yml`; Ratchet writes
 * `.yaml`. Code with EVOLVE-BLOCK markers is recognised by its text, whatever its name.
 *
 * Issue #31: Copilot's customization files are prompts too, each claimed by its name wherever it
 * is (`.github/prompts/`, `.github/instructions/`, `.github/agents/`, `.github/skills/<name>/`, the
 * workspace root): `SKILL.md`, `*.agent.md` (and the older `*.chatmode.md`), `*.instructions.md`,
 * `AGENTS.md` and `.github/copilot-instructions.md`. They follow Copilot's conventions
 * (`copilot`): `${input:name}` is a template variable, and `${…}`, `#tool:…` and Markdown links
 * are frozen tokens no edit may drop. Each says how a version of it is evaluated (`evaluatedAs`).
 */

export type PromptKind = 'prompt-md' | 'prompty' | 'skill' | 'agent-md' | 'instructions-md' | 'copilot-instructions' | 'agents-md' | 'markdown' | 'text';
export type FileKind = PromptKind | 'run-spec' | 'code';
export type FileRole = 'prompt' | 'run-spec' | 'code';

/**
 * How a version of a prompt meets the model (README "Copilot customizations"):
 * - `user-message`: the file, its variables filled from the item, is the user message (a prompt);
 * - `system-message`: the file is the system message and the item's message the user message
 *   (instructions and agents: their effect on the model's answers);
 * - `skill`: as `system-message` once the skill is loaded; first the model, shown the skill's name
 *   and `description`, decides whether to load it (core/evolve/harness.ts).
 */
export type EvaluatedAs = 'user-message' | 'system-message' | 'skill';

export interface FileKindRow {
  readonly kind: FileKind;
  readonly role: FileRole;
  /**
   * Where a file of this kind is, compared without regard to case: a name ending (`*.prompt.md`),
   * a whole name (`SKILL.md`) or the tail of a path (`.github/copilot-instructions.md`); `*`
   * matches within one name. The first is the one Ratchet writes. Empty: known by its text.
   */
  readonly patterns: readonly string[];
  /**
   * The name alone makes it Ratchet's: the extension activates on it, the client sends it to the
   * server, its title-bar actions and code lens appear. A plain `.md` is far too common for that.
   */
  readonly byName: boolean;
  /** Carries optional YAML front matter between `---` lines, which may hold a `ratchet:` run spec. */
  readonly frontMatter: boolean;
  /** Copilot's conventions: `${input:name}` variables; `${…}`, `#tool:…` and Markdown links frozen. */
  readonly copilot: boolean;
  /** Prompts: how a version is evaluated by default. */
  readonly evaluatedAs?: EvaluatedAs;
  /** The group the Runs view and Prompt History put it in. */
  readonly group?: string;
  /** The text that marks the file as this kind when its name does not. */
  readonly marker?: RegExp;
}

const prompt = { role: 'prompt' } as const;

/** Most specific first (`*.prompt.md` and `SKILL.md` before `*.md`); by-name kinds in the manifest's order. */
export const FILE_KINDS: readonly FileKindRow[] = [
  { kind: 'prompt-md', ...prompt, patterns: ['*.prompt.md'], byName: true, frontMatter: true, copilot: true, evaluatedAs: 'user-message', group: 'Prompt files' },
  { kind: 'prompty', ...prompt, patterns: ['*.prompty'], byName: true, frontMatter: true, copilot: false, evaluatedAs: 'user-message', group: 'Prompt files' },
  { kind: 'skill', ...prompt, patterns: ['SKILL.md'], byName: true, frontMatter: true, copilot: true, evaluatedAs: 'skill', group: 'Skills' },
  { kind: 'agent-md', ...prompt, patterns: ['*.agent.md', '*.chatmode.md'], byName: true, frontMatter: true, copilot: true, evaluatedAs: 'system-message', group: 'Custom agents' },
  { kind: 'instructions-md', ...prompt, patterns: ['*.instructions.md'], byName: true, frontMatter: true, copilot: true, evaluatedAs: 'system-message', group: 'Instructions' },
  { kind: 'copilot-instructions', ...prompt, patterns: ['.github/copilot-instructions.md'], byName: true, frontMatter: true, copilot: true, evaluatedAs: 'system-message', group: 'Instructions' },
  // AGENTS.md is plain Markdown for every agent that reads it: a leading `---` is a rule, not front matter.
  { kind: 'agents-md', ...prompt, patterns: ['AGENTS.md'], byName: true, frontMatter: false, copilot: true, evaluatedAs: 'system-message', group: 'Instructions' },
  { kind: 'run-spec', role: 'run-spec', patterns: ['*.ratchet.yaml', '*.ratchet.yml'], byName: true, frontMatter: false, copilot: false },
  { kind: 'markdown', ...prompt, patterns: ['*.md', '*.markdown'], byName: false, frontMatter: false, copilot: false, evaluatedAs: 'user-message', group: 'Prompts' },
  { kind: 'text', ...prompt, patterns: ['*.txt'], byName: false, frontMatter: false, copilot: false, evaluatedAs: 'user-message', group: 'Prompts' },
  { kind: 'code', role: 'code', patterns: [], byName: false, frontMatter: false, copilot: false, group: 'Programs', marker: /EVOLVE-BLOCK-START/ },
];

function rowOf(kind: FileKind): FileKindRow {
  return FILE_KINDS.find((r) => r.kind === kind)!;
}

const escapeRe = (s: string): string => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
/** A path separator, and anything but one, as regex sources (Windows paths use `\`). */
const SEP = '[\\\\/]';
const NOT_SEP = '[^\\\\/]';
/** A pattern as a regex source over the tail of a path. */
const patternBody = (pattern: string): string =>
  pattern
    .split('/')
    .map((part) => escapeRe(part).replace(/\*/g, `${NOT_SEP}*`))
    .join(SEP);
const MATCHERS = new Map(FILE_KINDS.flatMap((r) => r.patterns.map((p) => [p, new RegExp(`(?:^|${SEP})${patternBody(p)}$`, 'i')] as const)));

function byName(path: string): FileKindRow | undefined {
  return FILE_KINDS.find((r) => r.patterns.some((p) => MATCHERS.get(p)!.test(path)));
}

/** What the file is by its name, else by its text (when given); undefined when neither says. */
export function fileKind(path: string, text?: string): FileKind | undefined {
  const named = byName(path);
  if (named) return named.kind;
  if (text === undefined) return undefined;
  return FILE_KINDS.find((r) => r.marker?.test(text))?.kind;
}

/** Where the code kind's marker is in the text (a lens goes on its line); null when absent. */
export function codeMarker(text: string): RegExpExecArray | null {
  return rowOf('code').marker!.exec(text);
}

export function fileRole(path: string, text?: string): FileRole | undefined {
  const kind = fileKind(path, text);
  return kind && rowOf(kind).role;
}

export const isPromptPath = (path: string): boolean => fileRole(path) === 'prompt';
export const isRunSpecPath = (path: string): boolean => fileRole(path) === 'run-spec';
/** A prompt or run spec whose name alone makes it Ratchet's (`byName`). */
export const isClaimedByName = (path: string): boolean => byName(path)?.byName === true;
/** A run spec, or a prompt whose front matter may hold one. */
export const mayHoldRunSpec = (path: string): boolean => {
  const row = byName(path);
  return row !== undefined && (row.role === 'run-spec' || row.frontMatter);
};

/**
 * How a prompt file is parsed. A file of no known kind is read as plain text: `ratchet evolve`
 * takes any file it is pointed at.
 */
export function promptKindOf(path: string): PromptKind {
  const row = byName(path);
  return row?.role === 'prompt' ? (row.kind as PromptKind) : 'text';
}

export function hasFrontMatterConvention(kind: PromptKind): boolean {
  return rowOf(kind).frontMatter;
}

/** The kind follows Copilot's conventions (`${input:name}`, frozen tokens). */
export function followsCopilot(kind: PromptKind): boolean {
  return rowOf(kind).copilot;
}

/** How a version of a prompt of this kind is evaluated. */
export function evaluatedAs(kind: PromptKind): EvaluatedAs {
  return rowOf(kind).evaluatedAs!;
}

/** The group a file of this kind is listed under (the Runs view, Prompt History); a file of no kind is a prompt's. */
export function kindGroup(path: string, text?: string): string {
  return rowOf(fileKind(path, text) ?? 'text').group!;
}

/** A code search's program, whatever its name: its group. */
export const PROGRAMS_GROUP = rowOf('code').group!;

/** The groups in the table's order, each once: how the views order them. */
export const KIND_GROUPS: readonly string[] = [...new Set(FILE_KINDS.flatMap((r) => (r.group ? [r.group] : [])))];

/** A pattern's name ending (`*.prompt.md` → `.prompt.md`); undefined for a whole name or path. */
const endingOf = (pattern: string): string | undefined => (/^\*[^*/]+$/.test(pattern) ? pattern.slice(1).toLowerCase() : undefined);

/**
 * Every prompt name ending, most specific first: a sidecar's stem + each is where its prompt may be
 * (`SKILL.md` and `AGENTS.md` are found through `.md`).
 */
export const PROMPT_EXTENSIONS: readonly string[] = FILE_KINDS.filter((r) => r.role === 'prompt').flatMap((r) => r.patterns.flatMap((p) => endingOf(p) ?? []));
/** The run-spec ending Ratchet writes. */
export const RUN_SPEC_EXTENSIONS: readonly string[] = rowOf('run-spec').patterns.map((p) => endingOf(p)!);
export const RUN_SPEC_EXTENSION = RUN_SPEC_EXTENSIONS[0]!;

/** A file's name without its kind's ending (`triage.prompt.md` → `triage`), else without its last extension. */
export function fileStem(path: string): string {
  const name = path.split(/[\\/]/).pop() ?? path;
  const ending = PROMPT_EXTENSIONS.find((e) => name.toLowerCase().endsWith(e));
  return ending ? name.slice(0, -ending.length) : name.replace(/\.[^.]*$/, '');
}

/** The file name of a kind whose pattern is a whole name (`SKILL.md`). */
export function kindFileName(kind: 'skill' | 'agents-md'): string {
  return rowOf(kind).patterns[0]!;
}

/** One kind's patterns as a when-clause regex over `resourcePath` (a command for that kind only). */
export function kindWhenRegex(kind: FileKind): string {
  return `/(?:^|${SEP})(?:${rowOf(kind).patterns.map(patternBody).join('|')})$/i`;
}

/** `.prompt.md, .prompty, SKILL.md, … or .txt`, for messages. */
export function promptExtensionsText(): string {
  const names = FILE_KINDS.filter((r) => r.role === 'prompt').flatMap((r) => r.patterns.map((p) => endingOf(p) ?? p));
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** The patterns the editor claims by name (activation, document selector, menus). */
const BY_NAME_PATTERNS: readonly string[] = FILE_KINDS.filter((r) => r.byName).flatMap((r) => r.patterns);
/** The same as workspace globs: the client's document selector and the manifest's activation events. */
export const BY_NAME_GLOBS: readonly string[] = BY_NAME_PATTERNS.map((p) => `**/${p}`);
/** Every prompt pattern as a workspace glob (the provenance hover's selector: plain `.md` files included). */
export const PROMPT_GLOBS: readonly string[] = FILE_KINDS.filter((r) => r.role === 'prompt').flatMap((r) => r.patterns.map((p) => `**/${p}`));

/**
 * Source files the editor also hands the language server, so a program with EVOLVE-BLOCK markers
 * gets its code-search lens and marker Problems. Code is known by its text, but a document selector
 * can only select by name: these are the languages a code search is likely to evolve (the server
 * does nothing with one that has no marker). Each ending (lower case, without the dot) with the
 * language id VS Code gives it: opening one activates the extension (`onLanguage:`), so a program
 * with markers and no run spec beside it still gets its lens.
 */
const PROGRAM_LANGUAGES: Readonly<Record<string, string>> = {
  py: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  jsx: 'javascriptreact',
  tsx: 'typescriptreact',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  rs: 'rust',
  go: 'go',
  java: 'java',
  kt: 'kotlin',
  scala: 'scala',
  swift: 'swift',
  jl: 'julia',
  rb: 'ruby',
  lua: 'lua',
  r: 'r',
  sh: 'shellscript',
  hs: 'haskell',
  ml: 'ocaml',
  f90: 'fortran',
  php: 'php',
};
export const PROGRAM_EXTENSIONS: readonly string[] = Object.keys(PROGRAM_LANGUAGES);
export const PROGRAM_LANGUAGE_IDS: readonly string[] = [...new Set(Object.values(PROGRAM_LANGUAGES))];
export const PROGRAM_GLOB = `**/*.{${PROGRAM_EXTENSIONS.join(',')}}`;

/**
 * The by-name patterns as one regex over `resourcePath` for VS Code's when clauses (the manifest's
 * menus): `/(?:^|[\\/])(?:[^\\/]*\.prompt\.md|…|SKILL\.md|\.github[\\/]copilot-instructions\.md|…)$/i`.
 */
export function byNameWhenRegex(): string {
  return `/(?:^|${SEP})(?:${BY_NAME_PATTERNS.map(patternBody).join('|')})$/i`;
}
