/**
 * The files Ratchet works on, once. The server (lenses, diagnostics, runs), the client (document
 * selector, Evolve's enablement), the manifest (activation, menus, schema association; written
 * from it by `npm run manifest`), the CLI and the prompt parser all ask `fileKind`.
 *
 * Decisions (issue #12): a prompt is `.prompt.md` or `.prompty` (by name: front matter may hold a
 * `ratchet:` run spec) or `.md`, `.markdown`, `.txt` (plain body; a prompt once a run spec names
 * it, through a sidecar). `.markdown` is the long spelling of `.md`, so it is accepted wherever
 * `.md` is. A run spec is `<name>.ratchet.yaml`, also read as `.ratchet.yml`; Ratchet writes
 * `.yaml`. Code with EVOLVE-BLOCK markers is recognised by its text, whatever its name.
 */

export type PromptKind = 'prompt-md' | 'prompty' | 'markdown' | 'text';
export type FileKind = PromptKind | 'run-spec' | 'code';
export type FileRole = 'prompt' | 'run-spec' | 'code';

export interface FileKindRow {
  readonly kind: FileKind;
  readonly role: FileRole;
  /** Name endings, lower case; the first is the one Ratchet writes. Empty: known by its text. */
  readonly extensions: readonly string[];
  /**
   * The name alone makes it Ratchet's: the extension activates on it, the client sends it to the
   * server, its title-bar actions and code lens appear. A plain `.md` is far too common for that.
   */
  readonly byName: boolean;
  /** Carries optional YAML front matter between `---` lines, which may hold a `ratchet:` run spec. */
  readonly frontMatter: boolean;
  /** The text that marks the file as this kind when its name does not. */
  readonly marker?: RegExp;
}

/** Most specific ending first (`.prompt.md` before `.md`); by-name kinds in the manifest's order. */
export const FILE_KINDS: readonly FileKindRow[] = [
  { kind: 'prompt-md', role: 'prompt', extensions: ['.prompt.md'], byName: true, frontMatter: true },
  { kind: 'prompty', role: 'prompt', extensions: ['.prompty'], byName: true, frontMatter: true },
  { kind: 'run-spec', role: 'run-spec', extensions: ['.ratchet.yaml', '.ratchet.yml'], byName: true, frontMatter: false },
  { kind: 'markdown', role: 'prompt', extensions: ['.md', '.markdown'], byName: false, frontMatter: false },
  { kind: 'text', role: 'prompt', extensions: ['.txt'], byName: false, frontMatter: false },
  { kind: 'code', role: 'code', extensions: [], byName: false, frontMatter: false, marker: /EVOLVE-BLOCK-START/ },
];

function rowOf(kind: FileKind): FileKindRow {
  return FILE_KINDS.find((r) => r.kind === kind)!;
}

function byExtension(path: string): FileKindRow | undefined {
  const name = path.toLowerCase();
  return FILE_KINDS.find((r) => r.extensions.some((e) => name.endsWith(e)));
}

/** What the file is by its name, else by its text (when given); undefined when neither says. */
export function fileKind(path: string, text?: string): FileKind | undefined {
  const named = byExtension(path);
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
export const isClaimedByName = (path: string): boolean => byExtension(path)?.byName === true;
/** A run spec, or a prompt whose front matter may hold one. */
export const mayHoldRunSpec = (path: string): boolean => {
  const row = byExtension(path);
  return row !== undefined && (row.role === 'run-spec' || row.frontMatter);
};

/**
 * How a prompt file is parsed. A file of no known kind is read as plain text: `ratchet evolve`
 * takes any file it is pointed at.
 */
export function promptKindOf(path: string): PromptKind {
  const row = byExtension(path);
  return row?.role === 'prompt' ? (row.kind as PromptKind) : 'text';
}

export function hasFrontMatterConvention(kind: PromptKind): boolean {
  return rowOf(kind).frontMatter;
}

/** Every prompt ending, most specific first (a sidecar's stem + each is where its prompt may be). */
export const PROMPT_EXTENSIONS: readonly string[] = FILE_KINDS.filter((r) => r.role === 'prompt').flatMap((r) => r.extensions);
/** The run-spec ending Ratchet writes. */
export const RUN_SPEC_EXTENSION = rowOf('run-spec').extensions[0]!;
export const RUN_SPEC_EXTENSIONS = rowOf('run-spec').extensions;

/** `.prompt.md, .prompty, .md, .markdown or .txt`, for messages. */
export function promptExtensionsText(): string {
  return `${PROMPT_EXTENSIONS.slice(0, -1).join(', ')} or ${PROMPT_EXTENSIONS.at(-1)}`;
}

/** The endings the editor claims by name (activation, document selector, menus). */
export const BY_NAME_EXTENSIONS: readonly string[] = FILE_KINDS.filter((r) => r.byName).flatMap((r) => r.extensions);
/** The same as workspace globs: the client's document selector and the manifest's activation events. */
export const BY_NAME_GLOBS: readonly string[] = BY_NAME_EXTENSIONS.map((e) => `**/*${e}`);

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

/** `/\.(prompt\.md|…)$/` as VS Code's when-clause `=~` wants it (the manifest's menus). */
export function byNameWhenRegex(): string {
  const alternatives = BY_NAME_EXTENSIONS.map((e) => e.slice(1).replace(/\./g, '\\.'));
  return `/\\.(${alternatives.join('|')})$/`;
}
