/**
 * YAML text kept together with its node positions, so a problem found in the parsed value (by the
 * JSON schema, by a semantic check) can be pointed at the exact key or value in the file.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document, Node, Pair } from 'yaml';
import { diagnostic } from './diagnostics';
import type { Diagnostic, Location } from './diagnostics';
import { MAX_NESTING, nestingDepth, tooDeepMessage } from './nesting';

export type YamlPath = readonly (string | number)[];

export interface YamlSource {
  file: string;
  doc: Document;
  lineCounter: LineCounter;
  /** Lines of the file before the YAML text (front matter starts after the opening `---`). */
  lineOffset: number;
  /** The document as plain values; undefined when it has errors (the diagnostics say which). */
  value: unknown;
}

/** Parses YAML; syntax errors come back as diagnostics (the document is still returned). */
export function parseYamlSource(file: string, text: string, lineOffset = 0): { source: YamlSource; diagnostics: Diagnostic[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const source: YamlSource = { file, doc, lineCounter, lineOffset, value: undefined };
  const diagnostics = [
    ...doc.errors.map((e) =>
      // The parser recurses per level: a document nested thousands deep overflows its stack.
      diagnostic(yamlLocation(source, e.pos), /call stack/i.test(e.message) ? `the YAML ${tooDeepMessage()}` : `not valid YAML: ${cleanYamlMessage(e.message)}`),
    ),
    ...doc.warnings.map((e) => diagnostic(yamlLocation(source, e.pos), `YAML: ${cleanYamlMessage(e.message)}`, { severity: 'warning' })),
  ];
  if (diagnostics.some((d) => d.severity === 'error')) return { source, diagnostics };
  const start = yamlLocation(source, doc.contents?.range ?? [0, 0]);
  try {
    source.value = doc.toJS();
  } catch (err) {
    // yaml refuses aliases that expand past its maxAliasCount (a "billion laughs" file) with a
    // message about attacks; anything else it throws is still this file's problem.
    const message = err instanceof Error ? err.message : String(err);
    const why = /alias/i.test(message) ? 'YAML aliases (*name) here expand to too much data; write the values out or use fewer aliases' : `YAML could not be read: ${cleanYamlMessage(message)}`;
    diagnostics.push(diagnostic(start, why));
    return { source, diagnostics };
  }
  if (nestingDepth(source.value) > MAX_NESTING) {
    source.value = undefined;
    diagnostics.push(diagnostic(start, `the YAML ${tooDeepMessage()}`));
  }
  return { source, diagnostics };
}

/** The yaml package appends "at line N, column M" and a code frame; our location says that already. */
function cleanYamlMessage(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?\s*$/, '');
}

export function yamlLocation(src: YamlSource, range: readonly [number, number] | readonly number[]): Location {
  const start = range[0] ?? 0;
  const end = range[1] ?? start;
  const a = src.lineCounter.linePos(start);
  const b = src.lineCounter.linePos(Math.max(start, end));
  return { file: src.file, line: a.line + src.lineOffset, column: a.col, endLine: b.line + src.lineOffset, endColumn: b.col };
}

interface Found {
  node: Node | null;
  pair: Pair | undefined;
  /** How many path segments were matched before the walk stopped. */
  depth: number;
}

function walk(src: YamlSource, path: YamlPath): Found {
  let node = (src.doc.contents ?? null) as Node | null;
  let pair: Pair | undefined;
  let depth = 0;
  for (const seg of path) {
    if (isMap(node)) {
      const p = node.items.find((it) => isPair(it) && isScalar(it.key) && String(it.key.value) === String(seg));
      if (!p) break;
      pair = p;
      node = (p.value ?? null) as Node | null;
    } else if (isSeq(node) && typeof seg === 'number' && seg < node.items.length) {
      pair = undefined;
      node = (node.items[seg] ?? null) as Node | null;
    } else {
      break;
    }
    depth++;
  }
  return { node, pair, depth };
}

/**
 * Where a path's key (`part: 'key'`) or value sits. A path that does not exist resolves to its
 * deepest existing ancestor, so a "missing field" problem points at the mapping that lacks it.
 */
export function locatePath(src: YamlSource, path: YamlPath, part: 'key' | 'value' = 'value'): Location {
  const { node, pair, depth } = walk(src, path);
  const complete = depth === path.length;
  const keyNode = pair && isScalar(pair.key) ? pair.key : undefined;
  if ((part === 'key' || !complete || !node?.range) && keyNode?.range) return yamlLocation(src, keyNode.range);
  if (node?.range) return yamlLocation(src, node.range);
  return { file: src.file, line: 1 + src.lineOffset, column: 1, endLine: 1 + src.lineOffset, endColumn: 1 };
}

/** True when the path exists in the document (a key written with a null value counts). */
export function hasPath(src: YamlSource, path: YamlPath): boolean {
  return walk(src, path).depth === path.length;
}

/** The 1-based line where a path's node starts (for items in a YAML list). */
export function lineOfPath(src: YamlSource, path: YamlPath): number {
  return locatePath(src, path).line;
}
