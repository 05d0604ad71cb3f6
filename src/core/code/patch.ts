/**
 * A proposal applied to its parent, frozen text kept byte for byte, or refused with a message the
 * proposer can act on in the same chat (ShinkaEvolve's patch step, made stricter where Shinka guesses).
 *
 * SEARCH/REPLACE blocks apply in order, each to the text the previous ones left, as in Shinka. A
 * SEARCH text is looked for exactly first, then with indentation and trailing white space ignored
 * (the REPLACE text is then re-indented to where the match sits). Where Shinka takes the first
 * occurrence anywhere and fails when it is frozen, here a match must be the only one inside the
 * editable regions: matches in frozen code are ignored while one editable match exists, several
 * editable matches are ambiguous. Marker lines a SEARCH and its REPLACE both begin or end with are
 * context (Shinka strips them); any other marker line in either is refused, since the blocks of the
 * file are fixed. An empty SEARCH inserts the REPLACE text at the end of the last editable region
 * (Shinka's insertion). A failing block fails the whole answer.
 */
import type { Answer, SearchReplace } from './answers';
import { RatchetError } from '../errors';
import { classifyLine, describeSpans, eolOf, frozenSegments, lineOffsets, parseBlocks, spliceFrozen } from './blocks';
import type { Blocks, EditErrorKind, EditResult, Span } from './blocks';

export function applyAnswer(parentText: string, answer: Answer, path?: string): EditResult {
  return answer.kind === 'diff' ? applyDiff(parentText, answer.edits, path) : applyFull(parentText, answer.code, path);
}

/** A full rewrite (or cross-over): the parent's frozen text spliced back into `code`. */
export function applyFull(parentText: string, code: string, path?: string): EditResult {
  const r = spliceFrozen(parentText, code, path);
  if (r.ok) assertFrozenKept(parentText, r.text, path);
  return r;
}

export function applyDiff(parentText: string, edits: readonly SearchReplace[], path?: string): EditResult {
  const eol = eolOf(parentText);
  let text = parentText;
  let moved = false;
  for (const [k, edit] of edits.entries()) {
    const r = applyOne(text, parseBlocks(text, path), edit, { n: k + 1, eol, moved });
    if (!r.ok) return r;
    moved ||= lineOffsets(r.text).length !== lineOffsets(text).length;
    text = r.text;
  }
  assertFrozenKept(parentText, text, path);
  return { ok: true, text };
}

interface Ctx {
  /** 1-based index of the block in the answer. */
  n: number;
  eol: '\n' | '\r\n';
  /** Earlier blocks changed the line count, so line numbers in a message are not the parent's. */
  moved: boolean;
}

const isMarker = (line: string): boolean => {
  const c = classifyLine(line);
  return c !== undefined && !('mention' in c);
};

function applyOne(text: string, blocks: Blocks, edit: SearchReplace, ctx: Ctx): EditResult {
  const fail = (kind: EditErrorKind, what: string): EditResult => ({
    ok: false,
    error: { kind, edit: ctx.n, message: `SEARCH/REPLACE block ${ctx.n}: ${what}${ctx.moved ? ' (line numbers count after the earlier blocks of this answer were applied)' : ''}` },
  });
  const search = edit.search.split('\n');
  const replace = edit.replace.split('\n');
  while (search.length > 1 && replace.length > 0 && sameMarker(search[0]!, replace[0]!)) {
    search.shift();
    replace.shift();
  }
  while (search.length > 1 && replace.length > 0 && sameMarker(search.at(-1)!, replace.at(-1)!)) {
    search.pop();
    replace.pop();
  }
  const sMarker = search.find(isMarker);
  if (sMarker !== undefined) return fail('marker', `the SEARCH text includes the marker line \`${sMarker.trim()}\`. Marker lines cannot change: keep each SEARCH and REPLACE inside one editable region (${describeSpans(blocks.spans)}).`);
  const rMarker = replace.find(isMarker);
  if (rMarker !== undefined) return fail('marker', `the REPLACE text adds the marker line \`${rMarker.trim()}\`. The blocks of the file are fixed: leave EVOLVE-BLOCK markers out of REPLACE.`);

  // Blank lines at the edges are layout around the markers of the answer, not text to match
  // (Shinka's pattern skips them too); kept, a trailing one would swallow a line break.
  const want = trimBlankEdges(search);
  const put = trimBlankEdges(replace);
  if (want.length === 0 && edit.search.trim() !== '') {
    return fail('marker', `the SEARCH text holds nothing but marker lines. Marker lines cannot change: SEARCH for code inside an editable region (${describeSpans(blocks.spans)}) and put the new code in REPLACE.`);
  }
  if (want.length === 0) return insertAtEnd(text, blocks, put, ctx.eol);

  const exact = locate(blocks, exactMatches(text, want.join(ctx.eol)));
  const tolerant = exact.inside.length === 0 ? locate(blocks, tolerantMatches(text, want)) : undefined;
  const lines = lineOffsets(text);
  const lineOf = (pos: number): number => lineIndex(lines, pos) + 1;
  const range = (m: Match): string => {
    const a = lineOf(m.start);
    const b = lineOf(Math.max(m.start, m.end - 1));
    return a === b ? `line ${a}` : `lines ${a}–${b}`;
  };
  const inside = tolerant && tolerant.inside.length > 0 ? tolerant.inside : exact.inside;
  if (inside.length > 1) {
    const where = inside.map((m) => lineOf(m.start));
    return fail('ambiguous', `the SEARCH text matches ${where.length} places in the editable regions (lines ${listing(where)}). Add neighbouring lines to SEARCH so that it matches one place.`);
  }
  const m = inside[0];
  if (m === undefined) {
    const crossing = [...exact.crossing, ...(tolerant?.crossing ?? [])][0];
    if (crossing) {
      const marker = blocks.markers.find((k) => k.start < crossing.end && k.end > crossing.start);
      const across = marker ? `, across the marker line ${marker.line}` : ', partly outside the editable regions';
      return fail('marker', `the SEARCH text matches ${range(crossing)}${across}. Marker lines and the code outside the blocks cannot change: keep each SEARCH inside one editable region (${describeSpans(blocks.spans)}).`);
    }
    const frozen = [...exact.frozen, ...(tolerant?.frozen ?? [])][0];
    if (frozen) return fail('outside', `the SEARCH text matches ${range(frozen)}, outside the EVOLVE-BLOCK regions (frozen code). Only ${describeSpans(blocks.spans)} may change; edit code there.`);
    return fail('notFound', notFoundMessage(text, blocks, want));
  }
  if (tolerant) return { ok: true, text: splice(text, m, reindent(want, put, text.slice(m.start, m.end).split(/\r?\n/)).join(ctx.eol)) };
  // A one-line SEARCH found after the indentation of its line: later REPLACE lines need that indentation too.
  const lineStart = lines[lineOf(m.start) - 1]!.start;
  if (want.length === 1 && m.start > lineStart && text.slice(lineStart, m.start).trim() === '') {
    const whole = { start: lineStart, end: m.end };
    return { ok: true, text: splice(text, whole, reindent(want, put, [text.slice(lineStart, m.end)]).join(ctx.eol)) };
  }
  return { ok: true, text: splice(text, m, put.join(ctx.eol)) };
}

function sameMarker(a: string, b: string): boolean {
  const ca = classifyLine(a);
  const cb = classifyLine(b);
  return ca !== undefined && cb !== undefined && 'kind' in ca && 'kind' in cb && ca.kind === cb.kind;
}

interface Match {
  start: number;
  end: number;
}

function exactMatches(text: string, needle: string): Match[] {
  const out: Match[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) out.push({ start: at, end: at + needle.length });
  return out;
}

/** Windows of whole lines equal to `search` once each side's common indentation and trailing white space are removed. */
function tolerantMatches(text: string, search: readonly string[]): Match[] {
  const want = dedent(search);
  const lines = lineOffsets(text);
  const content = lines.map(({ start, end }) => text.slice(start, end).replace(/\r?\n$/, ''));
  // `search` has no blank edge lines, so a window can only match where its first line does.
  const first = search[0]!.trim();
  const out: Match[] = [];
  for (let i = 0; i + want.length <= content.length; i++) {
    if (content[i]!.trim() !== first) continue;
    const got = dedent(content.slice(i, i + want.length));
    if (got.every((l, j) => l === want[j])) {
      const last = lines[i + want.length - 1]!;
      out.push({ start: lines[i]!.start, end: last.start + content[i + want.length - 1]!.length });
    }
  }
  return out;
}

function trimBlankEdges(lines: readonly string[]): string[] {
  let a = 0;
  let b = lines.length;
  while (a < b && lines[a]!.trim() === '') a++;
  while (b > a && lines[b - 1]!.trim() === '') b--;
  return lines.slice(a, b);
}

function commonIndent(lines: readonly string[]): string {
  let indent: string | undefined;
  for (const l of lines) {
    if (l.trim() === '') continue;
    const own = /^[ \t]*/.exec(l)![0];
    if (indent === undefined) indent = own;
    else {
      let k = 0;
      while (k < indent.length && k < own.length && indent[k] === own[k]) k++;
      indent = indent.slice(0, k);
    }
  }
  return indent ?? '';
}

function dedent(lines: readonly string[]): string[] {
  const indent = commonIndent(lines);
  return lines.map((l) => (l.trim() === '' ? '' : l.slice(indent.length).trimEnd()));
}

/** REPLACE lines moved from the SEARCH text's indentation to the matched lines'. */
function reindent(search: readonly string[], replace: readonly string[], matched: readonly string[]): string[] {
  const from = commonIndent(search);
  const to = commonIndent(matched);
  return replace.map((l) => (l.trim() === '' ? '' : to + (l.startsWith(from) ? l.slice(from.length) : l.trimStart()).trimEnd()));
}

/** Replace `m` by `body`; deleting whole lines takes their line breaks too, so no blank line is left. */
function splice(text: string, m: Match, body: string): string {
  let end = m.end;
  const wholeLines = (m.start === 0 || text[m.start - 1] === '\n') && (end === text.length || text[end] === '\n' || text.startsWith('\r\n', end));
  if (body === '' && wholeLines) end += text.startsWith('\r\n', end) ? 2 : text[end] === '\n' ? 1 : 0;
  return text.slice(0, m.start) + body + text.slice(end);
}

function insertAtEnd(text: string, blocks: Blocks, body: readonly string[], eol: string): EditResult {
  if (body.length === 0) return { ok: true, text };
  const at = blocks.spans.at(-1)!.end;
  // Only a whole file without a final line break ends a span mid-line.
  const inserted = at > 0 && text[at - 1] !== '\n' ? eol + body.join(eol) : body.join(eol) + eol;
  return { ok: true, text: text.slice(0, at) + inserted + text.slice(at) };
}

/** Matches sorted by where they fall: inside one span, across a span's edge, or in frozen text only. */
function locate(blocks: Blocks, matches: readonly Match[]): { inside: Match[]; crossing: Match[]; frozen: Match[] } {
  const inside: Match[] = [];
  const crossing: Match[] = [];
  const frozen: Match[] = [];
  for (const m of matches) {
    if (blocks.spans.some((s) => s.start <= m.start && m.end <= s.end)) inside.push(m);
    else if (blocks.spans.some((s) => s.start < m.end && m.start < s.end)) crossing.push(m);
    else frozen.push(m);
  }
  return { inside, crossing, frozen };
}

function lineIndex(lines: readonly { start: number; end: number }[], pos: number): number {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lines[mid]!.start <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function listing(xs: readonly number[]): string {
  return xs.length <= 1 ? String(xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`;
}

const SHOWN_LINES = 12;

/** What the proposer needs to fix a SEARCH: the most similar lines of the editable regions, with numbers. */
function notFoundMessage(text: string, blocks: Blocks, search: readonly string[]): string {
  const first = search[0]!.trim();
  const lines = lineOffsets(text);
  const content = lines.map(({ start, end }) => text.slice(start, end).replace(/\r?\n$/, ''));
  const best = mostSimilar(content, blocks.spans, search);
  const parts = [`the SEARCH text was not found in the editable regions. It begins: \`${first}\`.`];
  if (best && best.score >= 0.5) {
    const shown = content.slice(best.line, best.line + Math.min(best.length, SHOWN_LINES)).map((l, j) => `  ${String(best.line + j + 1).padStart(4)} | ${l}`);
    if (best.length > SHOWN_LINES) shown.push(`       … (${best.length - SHOWN_LINES} more lines)`);
    parts.push(`The most similar lines there are:\n${shown.join('\n')}`);
  } else parts.push('Nothing in the editable regions resembles it.');
  parts.push(`The editable regions are ${describeSpans(blocks.spans)}. Copy the SEARCH text verbatim from the current program (indentation may differ, nothing else may), or send a shorter SEARCH.`);
  return parts.join('\n');
}

/** The window of the search's length inside one span whose lines resemble the search's most (mean bigram similarity). */
function mostSimilar(content: readonly string[], spans: readonly Span[], search: readonly string[]): { line: number; length: number; score: number } | undefined {
  const want = search.map((l) => bigrams(l.trim()));
  let best: { line: number; length: number; score: number } | undefined;
  for (const s of spans) {
    // 0-based line indices: [a, b) are the span's lines.
    const a = s.firstLine - 1;
    const b = s.lastLine;
    if (b <= a) continue;
    const length = Math.min(search.length, b - a);
    for (let i = a; i + length <= b; i++) {
      let sum = 0;
      for (let j = 0; j < length; j++) sum += dice(want[j]!, content[i + j]!.trim());
      const score = sum / search.length;
      if (!best || score > best.score) best = { line: i, length, score };
    }
  }
  return best;
}

/** Character pairs of ` s `: the padding gives one-character lines (`}`) pairs to compare too. */
function bigrams(text: string): Map<string, number> {
  const s = ` ${text} `;
  const m = new Map<string, number>();
  for (let i = 0; i + 1 < s.length; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Sørensen–Dice similarity of two strings' character bigrams: 1 for equal strings, 0 for nothing shared. */
function dice(a: Map<string, number>, b: string): number {
  const bm = bigrams(b);
  let total = 0;
  let shared = 0;
  for (const n of a.values()) total += n;
  for (const [g, n] of bm) {
    total += n;
    shared += Math.min(n, a.get(g) ?? 0);
  }
  return (2 * shared) / total;
}

/** The invariant every applied candidate keeps; a breach is a bug here, not the proposer's. */
function assertFrozenKept(parentText: string, childText: string, path?: string): void {
  const before = frozenSegments(parentText, parseBlocks(parentText, path));
  const after = frozenSegments(childText, parseBlocks(childText, path));
  if (before.length !== after.length || before.some((s, i) => s !== after[i])) {
    throw new RatchetError('internal', `A candidate of ${path ?? 'the file'} changed its frozen text.`, { ...(path === undefined ? {} : { file: path }) });
  }
}
