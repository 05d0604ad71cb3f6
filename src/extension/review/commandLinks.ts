/**
 * A hunk's commands (Accept, Reject, Diff, Evidence; src/protocol/suggestionLenses.ts) as a line
 * of links at the top of the widget that draws the hunk (inlineReview.ts), each with its key in
 * its tooltip. No VS Code import; unit-tested.
 *
 * Why links in the change and not code lenses over it: VS Code takes a lens away only when it next
 * asks for lenses, 250 ms at the least after it hears they changed and longer after a reload, so a
 * rejected suggestion's lenses stayed on screen 0.3–0.8 s after the key (bench:editor); and each time
 * any extension registers a lens provider, VS Code redraws every editor's lenses without links (a
 * click does nothing) until its next request. The widget and its links go the moment Ratchet
 * disposes of it, and are drawn with it.
 */
import { SUGGESTION_COMMANDS } from '../../protocol/suggestionLenses';
import type { WireCommand } from '../../protocol/suggestionLenses';
import { keyTooltip } from '../keyTable';

/** A leading `$(icon) `, kept as VS Code's icon syntax; the rest of a title is text. */
const ICON = /^\$\([a-z0-9-]+\)\s*/;

/** Markdown's punctuation escaped, so a title is read as text (a candidate id comes from the run). */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+!|~$-]/g, (c) => `\\${c}`);
}

/** `command:<id>?<arguments as JSON>`, VS Code's command link; brackets encoded too, so Markdown never ends the link early. */
function commandUri(c: WireCommand): string {
  const query = encodeURIComponent(JSON.stringify(c.arguments)).replace(/[()]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `command:${c.command}?${query}`;
}

export function commandLinksMarkdown(commands: readonly WireCommand[], mac: boolean): string {
  return commands
    .filter((c) => SUGGESTION_COMMANDS.includes(c.command))
    .map((c) => {
      const icon = ICON.exec(c.title)?.[0] ?? '';
      const label = `${icon.trimEnd()}${icon ? ' ' : ''}${escapeMarkdown(c.title.slice(icon.length))}`;
      const tooltip = (keyTooltip(c.title, c.command, mac) ?? c.title.slice(icon.length)).replace(/["\\]/g, (ch) => `\\${ch}`);
      return `[${label}](${commandUri(c)} "${tooltip}")`;
    })
    .join(' · ');
}
