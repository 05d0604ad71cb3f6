/**
 * The block structure of a code-search file: which text is mutable and which is frozen.
 *
 * A marker line is `EVOLVE-BLOCK-START` or `EVOLVE-BLOCK-END` in a comment that has the line to
 * itself (any indentation): `#`, `//`, `--`, `;`, `!` (repeated openers such as `##` or `;;` too;
 * any words may follow the marker, as ShinkaEvolve accepts), or `/* … *\/`, `<!-- … -->`,
 * `(* … *)` closed on the same line (ShinkaEvolve's marker_validation rejects an unclosed one, since
 * it would comment out the code below), or the bare word alone on its line (ShinkaEvolve's
 * "plain text" marker). A mention of the word anywhere else (a string, prose, a comment after code)
 * is not a marker; it only feeds the hint of a pairing error.
 *
 * Marker lines are frozen, every one of them, and so is everything outside the outermost blocks.
 * Nesting (decided for issue #13): ShinkaEvolve pairs markers with a stack and lets an edit land in
 * any pair's span, so the outermost block is what is mutable; here too, but the inner marker lines
 * stay frozen so a candidate keeps the file's block structure (a later run, or a person, may rely on
 * the inner block). The mutable text is therefore every gap between two consecutive marker lines
 * that lies inside some block. A file with no marker line is mutable as a whole, with a notice.
 *
 * Offsets index the text as given: CRLF files are parsed and kept CRLF.
 */
import { RatchetError } from '../errors';

export type MarkerKind = 'start' | 'end';

export interface MarkerLine {
  kind: MarkerKind;
  /** 1-based. */
  line: number;
  /** Offset of the line's first character. */
  start: number;
  /** Offset just past the line's terminator (the text's end on a last line without one). */
  end: number;
}

/** One START…END pair. */
export interface Block {
  /** Offsets of the text between the two marker lines (inner marker lines included). */
  start: number;
  end: number;
  /** 1-based lines of the START and END marker lines. */
  startLine: number;
  endLine: number;
  /** 0 for an outermost block, 1 inside it, and so on. */
  depth: number;
}

/** A stretch of text a candidate may change: whole lines between two marker lines. */
export interface Span {
  start: number;
  end: number;
  /** 1-based first and last lines of the text; `lastLine = firstLine - 1` when it is empty. */
  firstLine: number;
  lastLine: number;
}

export interface Blocks {
  /** Every block, in the order of their START lines. Empty for a file without markers. */
  regions: Block[];
  /** The marker lines in file order. */
  markers: MarkerLine[];
  /** The mutable text, in file order; the whole file when there are no markers. */
  spans: Span[];
  wholeFile: boolean;
  notice?: string;
}

const MARKER_WORD = /EVOLVE-BLOCK-(START|END)(?![\w-])/;
/** Indentation, an optional comment opener, the marker word, the rest of the line. */
const MARKER_LINE = /^[ \t]*(#+|\/\/+|--+|;+|!+|\/\*+|<!--|\(\*)?[ \t]*EVOLVE-BLOCK-(START|END)(?![\w-])(.*)$/;
const BLOCK_CLOSERS: Readonly<Record<string, string>> = { '/*': '*/', '<!--': '-->', '(*': '*)' };

type LineClass = { kind: MarkerKind } | { malformed: string } | { mention: MarkerKind } | undefined;

/** What a line (without its terminator) is: a marker, a malformed marker, a mere mention, or none of these. */
export function classifyLine(line: string): LineClass {
  const word = MARKER_WORD.exec(line);
  if (!word) return undefined;
  const kind: MarkerKind = word[1] === 'START' ? 'start' : 'end';
  const m = MARKER_LINE.exec(line.replace(/\r$/, ''));
  if (!m) return { mention: kind };
  const opener = m[1];
  const rest = m[3]!;
  if (opener === undefined) return rest.trim() === '' ? { kind } : { mention: kind };
  const closer = BLOCK_CLOSERS[opener.startsWith('/*') ? '/*' : opener];
  if (closer === undefined) return { kind };
  const at = rest.indexOf(closer);
  const marker = `EVOLVE-BLOCK-${m[2]}`;
  if (at < 0) return { malformed: `the ${opener} comment holding ${marker} is not closed on its line (write \`${opener} ${marker} ${closer}\`)` };
  if (rest.slice(at + closer.length).trim() !== '') return { malformed: `nothing may follow the ${marker} comment on its line (write \`${opener} ${marker} ${closer}\` alone)` };
  return { kind };
}

function where(path: string | undefined, line: number): string {
  return path === undefined ? `line ${line}` : `${path}:${line}`;
}

/** Lines 1-based, each with its offset and the offset past its terminator. */
export function lineOffsets(text: string): { start: number; end: number }[] {
  const lines: { start: number; end: number }[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) {
      if (start < text.length || lines.length === 0) lines.push({ start, end: text.length });
      return lines;
    }
    lines.push({ start, end: nl + 1 });
    start = nl + 1;
  }
}

/**
 * The blocks of `text`, or a located `badInput` error (`path:line: …`) for an END without a START,
 * a START never closed, or a malformed marker line. `path` only names the file in messages.
 */
export function parseBlocks(text: string, path?: string): Blocks {
  const markers: MarkerLine[] = [];
  const mentions: { kind: MarkerKind; line: number }[] = [];
  const lines = lineOffsets(text);
  lines.forEach(({ start, end }, i) => {
    const c = classifyLine(text.slice(start, end).replace(/\r?\n$/, ''));
    if (c === undefined) return;
    if ('malformed' in c) throw located(path, i + 1, c.malformed);
    if ('mention' in c) mentions.push({ kind: c.mention, line: i + 1 });
    else markers.push({ kind: c.kind, line: i + 1, start, end });
  });
  if (markers.length === 0) {
    const name = path ?? 'The file';
    return {
      regions: [],
      markers,
      spans: [{ start: 0, end: text.length, firstLine: 1, lastLine: lines.length }],
      wholeFile: true,
      notice: `${name} has no EVOLVE-BLOCK-START/EVOLVE-BLOCK-END marker lines, so the whole file is mutable.`,
    };
  }
  const hint = (kind: MarkerKind): string => {
    const m = mentions.find((x) => x.kind === kind);
    const word = kind === 'start' ? 'EVOLVE-BLOCK-START' : 'EVOLVE-BLOCK-END';
    return m ? ` (line ${m.line} mentions ${word} but is not a marker line: a marker stands alone on its line, in a comment)` : '';
  };
  const regions: Block[] = [];
  const open: { marker: MarkerLine; index: number }[] = [];
  const spans: Span[] = [];
  markers.forEach((marker, i) => {
    if (marker.kind === 'start') {
      open.push({ marker, index: regions.length });
      regions.push({ start: marker.end, end: -1, startLine: marker.line, endLine: -1, depth: open.length - 1 });
    } else {
      const top = open.pop();
      if (!top) throw located(path, marker.line, `EVOLVE-BLOCK-END without a START${hint('start')}`);
      const region = regions[top.index]!;
      region.end = marker.start;
      region.endLine = marker.line;
    }
    const next = markers[i + 1];
    if (open.length > 0 && next) spans.push({ start: marker.end, end: next.start, firstLine: marker.line + 1, lastLine: next.line - 1 });
  });
  if (open.length > 0) {
    const lines_ = open.map((o) => o.marker.line);
    const others = lines_.length > 1 ? ` (nor are those on lines ${lines_.slice(1).join(', ')})` : '';
    throw located(path, lines_[0]!, `EVOLVE-BLOCK-START is never closed by an EVOLVE-BLOCK-END${others}${hint('end')}`, { lines: lines_ });
  }
  return { regions, markers, spans, wholeFile: false };
}

function located(path: string | undefined, line: number, what: string, more: Record<string, unknown> = {}): RatchetError {
  return new RatchetError('badInput', `${where(path, line)}: ${what}`, { ...(path === undefined ? {} : { file: path }), line, ...more });
}

/** The frozen text: what lies before, between and after the mutable spans (`spans.length + 1` pieces). */
export function frozenSegments(text: string, blocks: Blocks): string[] {
  const out: string[] = [];
  let at = 0;
  for (const s of blocks.spans) {
    out.push(text.slice(at, s.start));
    at = s.end;
  }
  out.push(text.slice(at));
  return out;
}

/** The line break a text uses: its first one decides (a file mixing both keeps its bytes anyway). */
export function eolOf(text: string): '\n' | '\r\n' {
  const nl = text.indexOf('\n');
  return nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
}

export function withEol(text: string, eol: '\n' | '\r\n'): string {
  return text.replace(/\r?\n/g, eol);
}

/** What an edit came to: the candidate's text, or a message meant for the proposer, in the same chat. */
export type EditResult = { ok: true; text: string } | { ok: false; error: EditError };

export type EditErrorKind =
  | 'notFound' // a SEARCH text is not in the program
  | 'ambiguous' // a SEARCH text matches more than one place in the editable regions
  | 'outside' // a SEARCH text matches frozen code only
  | 'marker' // a SEARCH or REPLACE text touches or adds a marker line
  | 'blocks'; // a full rewrite's blocks do not match the program's

export interface EditError {
  kind: EditErrorKind;
  message: string;
  /** 1-based index of the SEARCH/REPLACE block that failed. */
  edit?: number;
}

/** `lines 4–20 and 31–40`: where a proposer may write. */
export function describeSpans(spans: readonly Span[]): string {
  const and = (xs: string[]): string => (xs.length <= 1 ? (xs[0] ?? 'none') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);
  const range = (s: Span): string => (s.firstLine === s.lastLine ? `${s.firstLine}` : `${s.firstLine}–${s.lastLine}`);
  if (spans.some((s) => s.lastLine < s.firstLine)) {
    return and(spans.map((s) => (s.lastLine < s.firstLine ? `an empty block after line ${s.firstLine - 1}` : `line${s.firstLine === s.lastLine ? '' : 's'} ${range(s)}`)));
  }
  const one = spans.length === 1 && spans[0]!.firstLine === spans[0]!.lastLine;
  return `line${one ? '' : 's'} ${and(spans.map(range))}`;
}

function describeBlocks(b: Blocks): string {
  const outer = b.regions.filter((r) => r.depth === 0);
  const nested = b.regions.length - outer.length;
  const list = outer.map((r) => `${r.startLine}–${r.endLine}`).join(', ');
  return `${outer.length} block${outer.length === 1 ? '' : 's'} (lines ${list})${nested ? ` with ${nested} nested inside` : ''}`;
}

/**
 * A full rewrite made safe: `child` with `parent`'s frozen text restored byte for byte. Blocks are
 * matched by marker order, so the child must keep the parent's marker lines (their comment syntax
 * and indentation may differ; the parent's are restored). As in ShinkaEvolve, a rewrite without any
 * marker is still read when the parent has one block: if it repeats the parent's text before the
 * START line and after the END line, the middle is the new block. The child's line breaks become
 * the parent's.
 */
export function spliceFrozen(parentText: string, childText: string, path?: string): EditResult {
  const parent = parseBlocks(parentText, path);
  const eol = eolOf(parentText);
  const child0 = withEol(childText, eol);
  let child: Blocks;
  try {
    child = parseBlocks(child0);
  } catch (err) {
    if (!RatchetError.is(err, 'badInput')) throw err;
    const keep = parent.wholeFile ? 'The current program has no EVOLVE-BLOCK markers: leave them out.' : 'Keep the EVOLVE-BLOCK-START and EVOLVE-BLOCK-END lines of the current program as they are.';
    return blocksError(`Your rewrite, ${err.message}. ${keep}`);
  }
  if (parent.wholeFile) {
    // Markers would freeze part of a file its owner left wholly mutable.
    if (!child.wholeFile) return blocksError(`Your rewrite adds ${describeBlocks(child)}, but the current program has no EVOLVE-BLOCK markers: leave them out.`);
    const wantsFinal = parentText.endsWith('\n');
    return { ok: true, text: wantsFinal && !child0.endsWith('\n') && child0 !== '' ? child0 + eol : child0 };
  }
  const frozen = frozenSegments(parentText, parent);
  if (child.wholeFile) return spliceUnmarked(parentText, parent, child0, eol);
  const kinds = (b: Blocks): string => b.markers.map((m) => m.kind).join(',');
  if (kinds(child) !== kinds(parent)) {
    return blocksError(
      `Your rewrite has ${describeBlocks(child)} but the current program has ${describeBlocks(parent)}. ` +
        'Keep every EVOLVE-BLOCK-START and EVOLVE-BLOCK-END line of the current program, in the same order; the code outside the blocks is restored from the current program anyway.',
    );
  }
  let text = frozen[0]!;
  child.spans.forEach((s, i) => {
    text += child0.slice(s.start, s.end) + frozen[i + 1]!;
  });
  return { ok: true, text };
}

function spliceUnmarked(parentText: string, parent: Blocks, child: string, eol: string): EditResult {
  const markerHelp = 'Keep the EVOLVE-BLOCK-START and EVOLVE-BLOCK-END lines of the current program in your rewrite; the code outside the blocks is restored from it.';
  if (parent.spans.length !== 1) return blocksError(`Your rewrite has no EVOLVE-BLOCK markers, but the current program has ${describeBlocks(parent)}, so it is unclear which block is which. ${markerHelp}`);
  const [startLine, endLine] = parent.markers as [MarkerLine, MarkerLine];
  const before = parentText.slice(0, startLine.start);
  const after = parentText.slice(endLine.end);
  const trimmedAfter = after.replace(/(\r?\n)+$/, '');
  const suffix = child.endsWith(after) ? after : trimmedAfter !== after && child.endsWith(trimmedAfter) ? trimmedAfter : undefined;
  if (!child.startsWith(before) || suffix === undefined || before.length + suffix.length > child.length) {
    return blocksError(`Your rewrite has no EVOLVE-BLOCK markers and does not repeat the code around the block (lines ${startLine.line}–${endLine.line}) unchanged. ${markerHelp}`);
  }
  let middle = child.slice(before.length, child.length - suffix.length);
  if (middle !== '' && !middle.endsWith('\n')) middle += eol;
  const s = parent.spans[0]!;
  return { ok: true, text: parentText.slice(0, s.start) + middle + parentText.slice(s.end) };
}

function blocksError(message: string): EditResult {
  return { ok: false, error: { kind: 'blocks', message } };
}
