/**
 * Where the commands of the command table appear in VS Code's menus, and under which `when`
 * clause. No VS Code import: `npm run manifest` writes the manifest's `contributes.menus` from this
 * table (scripts/contributes.ts), in this order.
 *
 * A `when` clause may test only what VS Code knows (`resourceScheme`, `view`, `viewItem`…) and
 * the context keys below, which the extension sets itself; test/unit/extension/manifest.test.ts
 * fails on a `ratchet.*` key that nothing sets, since such a menu entry would never show.
 */
import { byNameWhenRegex, kindWhenRegex } from '../core/files/fileKinds';
import type { CommandName } from './commandTable';
import { SUGGESTION_SCHEME } from './review/target';

/** The context keys the extension sets (`setContext`). */
export const CONTEXT_KEYS = {
  /** The active editor shows a drawn suggestion (inlineReview.ts). */
  suggestionShown: 'ratchet.suggestionShown',
  /** The cursor of the active editor is on a hunk of a drawn suggestion (inlineReview.ts): the review keys answer it. */
  cursorInPendingHunk: 'ratchet.cursorInPendingHunk',
  /** The active editor holds a prompt file claimed by its name (main.ts; the walkthrough's step). */
  promptFileOpen: 'ratchet.promptFileOpen',
  /**
   * The walkthrough's Evolve and Accept steps (walkthrough.ts): set once a run started, once a
   * suggestion was answered. Their `onCommand` events do not fire for a code lens click, which VS
   * Code runs through an internal command that carries the lens's arguments.
   */
  runStarted: 'ratchet.runStarted',
  suggestionAnswered: 'ratchet.suggestionAnswered',
  /** The active editor holds a program with EVOLVE-BLOCK markers (views/evolveBlocks.ts). */
  evolveBlocksOpen: 'ratchet.evolveBlocksOpen',
} as const;

/** The Runs tree view (runsView.ts). */
export const RUNS_VIEW_ID = 'ratchet.runs';

export type MenuId = 'commandPalette' | 'editor/title' | 'explorer/context' | 'view/title' | 'view/item/context';

export interface MenuEntry {
  command: CommandName;
  when?: string;
  /** `<group>@<order>`; `navigation` is the title bar, `inline` the tree item's own buttons. */
  group?: string;
}

const suggestion = `${CONTEXT_KEYS.suggestionShown} || resourceScheme == ${SUGGESTION_SCHEME}`;
const runsView = `view == ${RUNS_VIEW_ID}`;
/** A file Ratchet claims by its name (the file-kind table's by-name patterns, some of which name a folder: the path, not the name). */
const claimedFile = `resourcePath =~ ${byNameWhenRegex()}`;
/** A Copilot prompt file (Convert to Skill's). */
const copilotPromptFile = `resourcePath =~ ${kindWhenRegex('prompt-md')}`;

export const MENUS: Readonly<Record<MenuId, readonly MenuEntry[]>> = {
  // Without a `when`, a command is always in the palette; these only make sense in a context.
  commandPalette: [
    { command: 'acceptSuggestion', when: suggestion },
    { command: 'rejectSuggestion', when: suggestion },
    { command: 'acceptAllSuggestions', when: suggestion },
    { command: 'rejectAllSuggestions', when: suggestion },
    { command: 'showDiff', when: CONTEXT_KEYS.suggestionShown },
    // The view's own refresh button; from the palette it would refresh a view that may be hidden.
    { command: 'refreshRuns', when: 'false' },
    // A program's commands, while one is the active editor. Configure Code Search stays listed: it
    // also wakes the extension in a workspace with no run spec yet (no file there activates it).
    { command: 'startCodeSearch', when: CONTEXT_KEYS.evolveBlocksOpen },
    { command: 'testEvaluator', when: CONTEXT_KEYS.evolveBlocksOpen },
  ],
  'editor/title': [
    { command: 'acceptSuggestion', when: suggestion, group: 'navigation@1' },
    { command: 'rejectSuggestion', when: suggestion, group: 'navigation@2' },
    { command: 'showDiff', when: CONTEXT_KEYS.suggestionShown, group: 'navigation@3' },
    { command: 'evolve', when: `resourceScheme == file && ${claimedFile} && !${CONTEXT_KEYS.suggestionShown}`, group: 'navigation@9' },
    { command: 'startCodeSearch', when: `resourceScheme == file && ${CONTEXT_KEYS.evolveBlocksOpen} && !${CONTEXT_KEYS.suggestionShown}`, group: 'navigation@9' },
  ],
  'explorer/context': [
    { command: 'evolve', when: claimedFile, group: 'ratchet@1' },
    { command: 'evaluate', when: claimedFile, group: 'ratchet@2' },
    { command: 'generateDevSet', when: claimedFile, group: 'ratchet@3' },
    { command: 'convertToSkill', when: copilotPromptFile, group: 'ratchet@4' },
  ],
  'view/title': [
    { command: 'refreshRuns', when: runsView, group: 'navigation@1' },
    { command: 'showPanel', when: runsView, group: 'navigation@2' },
  ],
  // viewItem: the tree item's contextValue (runsTree.ts), e.g. `run.hosted.resumable`.
  'view/item/context': [
    { command: 'cancelRun', when: `${runsView} && viewItem =~ /\\bhosted\\b/`, group: 'inline@1' },
    { command: 'resumeRun', when: `${runsView} && viewItem =~ /\\bresumable\\b/`, group: 'inline@1' },
    { command: 'openJournal', when: `${runsView} && viewItem =~ /^run/`, group: 'ratchet@1' },
  ],
};
