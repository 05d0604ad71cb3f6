// A hunk's Accept / Reject / Diff / Evidence as links in the widget that draws the change
// (review/commandLinks.ts): what VS Code's Markdown renderer is given.
import { describe, expect, it } from 'vitest';
import { RatchetCommands } from '../../../src/protocol/lsp';
import { commandLinksMarkdown } from '../../../src/extension/review/commandLinks';
import type { WireCommand } from '../../../src/protocol/suggestionLenses';

const args = ['file:///w/a (1).prompt.md', 'r1', 'c1'];
const accept: WireCommand = { title: '$(check) Accept c1', command: RatchetCommands.acceptSuggestion, arguments: args };
const reject: WireCommand = { title: '$(close) Reject (part 2 of 3)', command: RatchetCommands.rejectSuggestion, arguments: args };
const diff: WireCommand = { title: 'Diff', command: RatchetCommands.showDiff, arguments: args };

/** The links of the Markdown, as a renderer reads them: [label](target "title"). */
const links = (md: string) => [...md.matchAll(/\[((?:\\.|[^\]\\])*)\]\((\S+) "((?:\\.|[^"\\])*)"\)/g)].map(([, label = '', target = '', title = '']) => ({ label, target, title }));

describe('commandLinksMarkdown', () => {
  it('one link per command, its key in the tooltip, the icon kept as VS Code icon syntax', () => {
    const found = links(commandLinksMarkdown([accept, reject, diff], false));
    expect(found.map((l) => l.label)).toEqual(['$(check) Accept c1', '$(close) Reject \\(part 2 of 3\\)', 'Diff']);
    expect(found.map((l) => l.title)).toEqual(['Accept c1 (Ctrl+Shift+Enter)', 'Reject (part 2 of 3) (Ctrl+Shift+Backspace)', 'Diff']);
    expect(commandLinksMarkdown([accept], true)).toContain('"Accept c1 (⇧⌘Enter)"');
  });

  it("each link runs its command with the suggestion's arguments", () => {
    const [link] = links(commandLinksMarkdown([accept], false));
    const [scheme, rest] = [link!.target.slice(0, link!.target.indexOf(':')), link!.target.slice(link!.target.indexOf(':') + 1)];
    const [command, query] = rest.split('?');
    expect({ scheme, command, args: JSON.parse(decodeURIComponent(query!)) }).toEqual({ scheme: 'command', command: RatchetCommands.acceptSuggestion, args });
    // Nothing in the target that Markdown would end a link at.
    expect(link!.target).not.toMatch(/[\s()]/);
  });

  it('a title is text, not Markdown: a candidate id with markup stays as it is written', () => {
    const odd: WireCommand = { ...accept, title: '$(check) Accept c1](command:evil) *x* "q"' };
    const md = commandLinksMarkdown([odd], false);
    const found = links(md);
    expect(found).toHaveLength(1);
    expect(found[0]!.target.startsWith(`command:${RatchetCommands.acceptSuggestion}?`)).toBe(true);
    expect(found[0]!.label).toBe('$(check) Accept c1\\]\\(command:evil\\) \\*x\\* "q"');
  });

  it("leaves out a command that is not a suggestion's", () => {
    expect(commandLinksMarkdown([{ title: 'Evolve', command: RatchetCommands.evolve, arguments: [] }, diff], false)).not.toContain(RatchetCommands.evolve);
  });
});
