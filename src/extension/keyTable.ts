/**
 * The keyboard shortcuts Ratchet contributes, as data: `npm run manifest` writes the manifest's
 * `contributes.keybindings` from this table (scripts/contributes.ts), so they are listed in the
 * Keyboard Shortcuts editor, and the client writes the same keys into the tooltips of the links in
 * a drawn suggestion (the titles stay short: "Accept c1" fits beside the panel). No VS Code import.
 *
 * The review keys are Continue's (Ctrl/Cmd+Shift+Enter, Ctrl/Cmd+Shift+Backspace). Their `when`
 * holds only while the cursor is on a drawn hunk, so anywhere else the editor's own bindings of
 * these keys (insert line above, delete to the line start) are untouched.
 */
import { commandId } from './commandTable';
import type { CommandName } from './commandTable';
import { CONTEXT_KEYS } from './menuTable';

export interface KeySpec {
  command: CommandName;
  /** VS Code's key syntax (`ctrl+shift+enter`), for Windows and Linux. */
  key: string;
  mac: string;
  when: string;
}

const inHunk = `editorTextFocus && ${CONTEXT_KEYS.cursorInPendingHunk}`;

export const KEYBINDINGS: readonly KeySpec[] = [
  { command: 'acceptSuggestion', key: 'ctrl+shift+enter', mac: 'cmd+shift+enter', when: inHunk },
  { command: 'rejectSuggestion', key: 'ctrl+shift+backspace', mac: 'cmd+shift+backspace', when: inHunk },
];

const MAC_SYMBOLS: Record<string, string> = { cmd: '⌘', shift: '⇧', alt: '⌥', ctrl: '⌃' };

/** A key as VS Code shows it: `Ctrl+Shift+Enter` on Windows and Linux, `⇧⌘Enter` on a Mac. */
export function keyLabel(spec: KeySpec, mac: boolean): string {
  const parts = (mac ? spec.mac : spec.key).split('+');
  const capital = (p: string): string => p.charAt(0).toUpperCase() + p.slice(1);
  if (!mac) return parts.map(capital).join('+');
  const key = parts.pop() ?? '';
  // The Mac's modifier order: ⌃ ⌥ ⇧ ⌘.
  const order = ['ctrl', 'alt', 'shift', 'cmd'];
  return [...parts.sort((a, b) => order.indexOf(a) - order.indexOf(b)).map((m) => MAC_SYMBOLS[m] ?? capital(m)), capital(key)].join('');
}

/** The key of a command of the table, as VS Code shows it. */
export function keyFor(command: (typeof KEYBINDINGS)[number]['command'], mac: boolean): string | undefined {
  const spec = KEYBINDINGS.find((k) => k.command === command);
  return spec && keyLabel(spec, mac);
}

/**
 * A link's tooltip naming the key of its command, when the command has one: "Accept c1
 * (Ctrl+Shift+Enter)". Not in the title: at the default width a title with its key was cut
 * ("Reject (Ctrl+Shift+Backspa…"). The title's icon (`$(check) `) is left out of the tooltip.
 */
export function keyTooltip(title: string, command: string, mac: boolean): string | undefined {
  const spec = KEYBINDINGS.find((k) => commandId(k.command) === command);
  return spec ? `${title.replace(/^\$\([^)]*\)\s*/, '')} (${keyLabel(spec, mac)})` : undefined;
}
