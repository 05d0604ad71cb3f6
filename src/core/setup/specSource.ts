/**
 * Where a run spec is written: a sidecar `<name>.ratchet.yaml` next to the prompt, and/or a
 * `ratchet:` key in the prompt's front matter. Both may be used; each top-level key (dataset,
 * gate, …) may be set in only one of them — a key set in both is an error at both places rather
 * than a silent precedence rule, since the user cannot see which value won.
 */
import { diagnostic } from '../data/diagnostics';
import type { Diagnostic, Location } from '../data/diagnostics';
import { isPlainObject } from '../data/item';
import { locatePath, parseYamlSource } from '../data/yamlSource';
import type { YamlPath, YamlSource } from '../data/yamlSource';
import { PROMPT_EXTENSIONS, RUN_SPEC_EXTENSION, RUN_SPEC_EXTENSIONS, isRunSpecPath } from '../files/fileKinds';
import { frontMatterSource, promptFileDiagnostics } from '../prompt/promptFile';
import type { SpecLocate } from './specSchema';
import type { SpecSource } from '../run/specTypes';

export interface SpecText extends SpecSource {
  value: Record<string, unknown>;
  locate: SpecLocate;
}

/** A sidecar is the run-spec kind of file. */
export const isSidecarPath = isRunSpecPath;

/** `word-problems.prompt.md` → `word-problems.ratchet.yaml` (same directory). */
export function sidecarPathFor(promptPath: string): string {
  const lower = promptPath.toLowerCase();
  const ext = PROMPT_EXTENSIONS.find((e) => lower.endsWith(e));
  const stem = ext ? promptPath.slice(0, -ext.length) : promptPath.replace(/\.[^./\\]*$/, '');
  return `${stem}${RUN_SPEC_EXTENSION}`;
}

/** The prompt files a sidecar may belong to, most specific first. */
export function promptCandidatesFor(sidecarPath: string): string[] {
  const ext = RUN_SPEC_EXTENSIONS.find((e) => sidecarPath.toLowerCase().endsWith(e)) ?? '';
  const stem = sidecarPath.slice(0, sidecarPath.length - ext.length);
  return PROMPT_EXTENSIONS.map((e) => stem + e);
}

function fileStart(file: string, line = 1): Location {
  return { file, line, column: 1, endLine: line, endColumn: 1 };
}

function yamlLocate(src: YamlSource, prefix: YamlPath): SpecLocate {
  return (path, part = 'value') => locatePath(src, [...prefix, ...path], part);
}

/**
 * Reads the spec part of a sidecar or prompt file. `spec` is undefined when the file holds no spec
 * (a prompt without a `ratchet:` key) or when it cannot be read as one (then `diagnostics` says why).
 */
export function readSpecText(file: string, text: string): { spec: SpecText | undefined; diagnostics: Diagnostic[] } {
  if (isSidecarPath(file)) {
    const { source, diagnostics } = parseYamlSource(file, text);
    if (diagnostics.some((d) => d.severity === 'error')) return { spec: undefined, diagnostics };
    const value: unknown = source.value ?? {};
    if (!isPlainObject(value)) {
      diagnostics.push(diagnostic(yamlLocate(source, [])([]), 'a run spec must be a YAML mapping (key: value lines)'));
      return { spec: undefined, diagnostics };
    }
    return { spec: { file, kind: 'sidecar', value, locate: yamlLocate(source, []) }, diagnostics };
  }
  const fm = frontMatterSource(file, text);
  if (!fm) return { spec: undefined, diagnostics: promptFileDiagnostics(file, text) };
  const { source, diagnostics } = fm;
  if (diagnostics.some((d) => d.severity === 'error')) return { spec: undefined, diagnostics };
  const front: unknown = source.value;
  if (!isPlainObject(front) || !('ratchet' in front)) return { spec: undefined, diagnostics };
  const value = front.ratchet ?? {};
  const locate = yamlLocate(source, ['ratchet']);
  if (!isPlainObject(value)) {
    diagnostics.push(diagnostic(locate([], 'key'), 'the ratchet: block must be a mapping (indented key: value lines)', { field: 'ratchet' }));
    return { spec: undefined, diagnostics };
  }
  return { spec: { file, kind: 'front-matter', value, locate }, diagnostics };
}

export interface MergedSpec {
  value: Record<string, unknown>;
  sources: SpecSource[];
  locate: SpecLocate;
}

/** Merges the front matter and sidecar specs by top-level key; a key in both is an error. */
export function mergeSpecTexts(texts: readonly SpecText[], fallbackFile: string): { merged: MergedSpec; diagnostics: Diagnostic[] } {
  const owner = new Map<string, SpecText>();
  const diagnostics: Diagnostic[] = [];
  const value: Record<string, unknown> = {};
  for (const t of texts) {
    for (const [key, v] of Object.entries(t.value)) {
      const prior = owner.get(key);
      if (prior) {
        for (const [here, there] of [
          [t, prior],
          [prior, t],
        ] as const) {
          const thereLine = there.locate([key], 'key').line;
          diagnostics.push(diagnostic(here.locate([key], 'key'), `"${key}" is set both here and in ${describeSource(there)} (line ${thereLine}); keep one`, { field: key }));
        }
        continue;
      }
      owner.set(key, t);
      value[key] = v;
    }
  }
  const first = texts[0];
  const locate: SpecLocate = (path, part) => {
    const head = path[0];
    const src = (typeof head === 'string' ? owner.get(head) : undefined) ?? first;
    return src ? src.locate(path, part) : fileStart(fallbackFile);
  };
  return { merged: { value, sources: texts.map((t) => ({ file: t.file, kind: t.kind })), locate }, diagnostics };
}

function describeSource(s: SpecSource): string {
  const name = s.file.split(/[\\/]/).pop() ?? s.file;
  return s.kind === 'sidecar' ? name : `the front matter of ${name}`;
}
