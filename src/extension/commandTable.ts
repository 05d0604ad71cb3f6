/**
 * Every Ratchet command as data: its name (the id is `ratchet.<name>`), its title, and whether it
 * needs the language server. No VS Code import, so the manifest is pinned to this table by a unit
 * test, and commands.ts must give each name a handler (a `Record<CommandName, …>` does not compile
 * with one missing).
 */
import { RatchetCommands } from '../protocol/lsp';

export const CATEGORY = 'Ratchet';
export const COMMAND_PREFIX = 'ratchet';

export interface CommandSpec {
  title: string;
  /**
   * true: it talks to the language server, so while the server is down it says so instead of
   * running. false: it works without one (settings, secrets, views, the panel).
   */
  needsServer: boolean;
  /** Not implemented in this build: it says so plainly. Names the issue that will deliver it. */
  notYet?: string;
}

export const COMMANDS = {
  evolve: { title: 'Evolve Prompt', needsServer: true },
  startCodeSearch: { title: 'Start Code Search', needsServer: false, notYet: 'gated code search (EVOLVE-BLOCK regions with an evaluator command)' },
  evaluate: { title: 'Evaluate Prompt', needsServer: true },
  generateDevSet: { title: 'Generate Dev Set', needsServer: false, notYet: 'zero-data dev set generation (the Challenger role)' },
  acceptSuggestion: { title: 'Accept Suggestion', needsServer: true },
  rejectSuggestion: { title: 'Reject Suggestion', needsServer: true },
  showDiff: { title: 'Show Suggestion Diff', needsServer: false },
  showEvidence: { title: 'Show Evidence', needsServer: false },
  showPanel: { title: 'Show Panel', needsServer: false },
  cancelRun: { title: 'Cancel Run', needsServer: true },
  resumeRun: { title: 'Resume Run', needsServer: true },
  setApiKey: { title: 'Set API Key', needsServer: false },
  selectModel: { title: 'Select Model', needsServer: false },
  openJournal: { title: 'Open Run Journal', needsServer: true },
  restartServer: { title: 'Restart Server', needsServer: false },
  configure: { title: 'Configure Run', needsServer: true },
  refreshRuns: { title: 'Refresh Runs', needsServer: true },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

export function commandId(name: CommandName): string {
  return `${COMMAND_PREFIX}.${name}`;
}

/** The ids the server puts on code lenses must be commands of this table. */
export const LENS_COMMAND_IDS: readonly string[] = Object.values(RatchetCommands);

/** What a command does in this situation: run, say the server is down, or say it is not built yet. */
export type CommandRoute = 'run' | 'serverDown' | 'notYet';

export function routeCommand(spec: CommandSpec, serverRunning: boolean): CommandRoute {
  if (spec.notYet !== undefined) return 'notYet';
  if (spec.needsServer && !serverRunning) return 'serverDown';
  return 'run';
}

export function notYetMessage(spec: CommandSpec): string {
  return `Ratchet: "${spec.title}" is not available yet in this build — ${spec.notYet ?? 'it is still being built'} is coming in a later version.`;
}

export function serverDownMessage(spec: CommandSpec, state: string): string {
  return `Ratchet: "${spec.title}" needs the Ratchet language server, which is ${state}. Restart it, or open the log to see why it stopped.`;
}
