/**
 * The lines a hunk adds, as the Markdown body of the inline widget that shows them in place: each
 * line in monospace on the theme's added-line background, wrapped at the widget's width. The text
 * comes from an LLM, so it is escaped as text and never rendered as Markdown or HTML of its own;
 * the only markup is ours. No VS Code import; unit-tested.
 *
 * Why this markup: VS Code's sanitizer keeps a `style` only on a `<span>` (and only colours), and
 * the comment widget's CSS sets `white-space: pre` on every `<pre>` and every `<span>` in a body,
 * so a `<pre>` or a line-long span never wraps: at the default width a long line ran off under a
 * scrollbar. Here a line is a `<code>` (the editor's font; normal wrapping) holding one span per
 * word with its spaces (so indentation and runs of spaces keep their width) and a `<wbr>` between
 * spans: the line may break there, and only there. The whole body is one `<div>` on one source
 * line, an HTML block that Markdown passes through untouched, blank lines of the text included.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** A span no longer than this breaks into pieces, so a long unbroken token (a URL) still wraps. */
const LONGEST_PIECE = 40;

/** A line's pieces: each word with the spaces after it (leading spaces form their own piece), none longer than LONGEST_PIECE. */
export function linePieces(line: string): string[] {
  const words = line.match(/\s+|\S+\s*/g) ?? [];
  return words.flatMap((w) => Array.from({ length: Math.ceil(w.length / LONGEST_PIECE) }, (_, i) => w.slice(i * LONGEST_PIECE, (i + 1) * LONGEST_PIECE)));
}

export function addedLinesMarkdown(lines: readonly string[], backgroundVariable: string): string {
  const span = (piece: string): string => `<span style="background-color:var(${backgroundVariable});">${escapeHtml(piece)}</span>`;
  const body = lines.map((line) => `<code>${linePieces(line).map(span).join('<wbr>')}</code>`).join('<br>');
  return `<div>${body}</div>`;
}
