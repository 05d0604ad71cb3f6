/**
 * The lines a hunk adds, as the Markdown body of the inline widget that shows them in place: a
 * preformatted block, each line on the theme's added-line background. The text comes from an LLM,
 * so it is escaped as text and never rendered as Markdown or HTML of its own; the only markup is
 * ours (VS Code's sanitizer keeps a span's `background-color: var(--vscode-…)`, nothing else).
 * No VS Code import; unit-tested.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** `<pre>` keeps every space and blank line (an HTML block of its kind runs to `</pre>`, blank lines and all). */
export function addedLinesMarkdown(lines: readonly string[], backgroundVariable: string): string {
  const body = lines.map((line) => `<span style="background-color:var(${backgroundVariable});">${escapeHtml(line)}</span>`).join('\n');
  return `<pre>${body}</pre>`;
}
