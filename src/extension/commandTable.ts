/**
 * Every Ratchet command as data: its name (the id is `ratchet.<name>`), its title, icon, and whether
 * it needs the language server. No VS Code import, so `npm run manifest` writes the manifest's
 * `contributes.commands` from it (scripts/contributes.ts), and commands/index.ts must give each
 * name a handler (a `Record<CommandName, …>` does not compile with one missing).
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
  /** A codicon name, shown where a menu puts the command in a title bar or inline. */
  icon?: string;
}

export const COMMANDS = {
  evolve: { title: 'Evolve Prompt', icon: 'play', needsServer: true },
  startCodeSearch: { title: 'Start Code Search', icon: 'search', needsServer: true },
  configureCodeSearch: { title: 'Configure Code Search', icon: 'gear', needsServer: false },
  testEvaluator: { title: 'Test Evaluator', icon: 'beaker', needsServer: true },
  evaluate: { title: 'Evaluate Prompt', icon: 'beaker', needsServer: true },
  generateDevSet: { title: 'Generate Dev Set', icon: 'wand', needsServer: true },
  convertToSkill: { title: 'Convert to Skill', icon: 'extensions', needsServer: false },
  acceptSuggestion: { title: 'Accept Suggestion', icon: 'check', needsServer: true },
  rejectSuggestion: { title: 'Reject Suggestion', icon: 'close', needsServer: true },
  acceptAllSuggestions: { title: "Accept All of the Run's Suggestions", icon: 'check-all', needsServer: true },
  rejectAllSuggestions: { title: "Reject All of the Run's Suggestions", icon: 'close-all', needsServer: true },
  showDiff: { title: 'Show Suggestion Diff', icon: 'diff', needsServer: false },
  showEvidence: { title: 'Show Evidence', icon: 'law', needsServer: false },
  showPanel: { title: 'Show Panel', icon: 'graph-line', needsServer: false },
  cancelRun: { title: 'Cancel Run', icon: 'debug-stop', needsServer: true },
  resumeRun: { title: 'Resume Run', icon: 'debug-continue', needsServer: true },
  setApiKey: { title: 'Set API Key', icon: 'key', needsServer: false },
  selectModel: { title: 'Select Model', icon: 'sparkle', needsServer: false },
  testConnection: { title: 'Test Connection', icon: 'plug', needsServer: true },
  useOllama: { title: 'Use Ollama on This Machine', icon: 'server', needsServer: true },
  openJournal: { title: 'Open Run Journal', icon: 'history', needsServer: true },
  restartServer: { title: 'Restart Server', icon: 'debug-restart', needsServer: false },
  configure: { title: 'Configure Run', icon: 'gear', needsServer: true },
  refreshRuns: { title: 'Refresh Runs', icon: 'refresh', needsServer: true },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

export function commandId(name: CommandName): string {
  return `${COMMAND_PREFIX}.${name}`;
}

/** The ids the server puts on code lenses must be commands of this table. */
export const LENS_COMMAND_IDS: readonly string[] = Object.values(RatchetCommands);

/**
 * What a command does in this situation: run; wait for a server that is still starting (a command
 * run in the first seconds after the window opens, or after a restart, is not told to restart a
 * server that is about to answer); say the server is down; or say the command is not built yet.
 */
export type CommandRoute = 'run' | 'waitForServer' | 'serverDown' | 'notYet';

export function routeCommand(spec: CommandSpec, server: 'starting' | 'running' | 'stopped' | 'failed'): CommandRoute {
  if (spec.notYet !== undefined) return 'notYet';
  if (!spec.needsServer || server === 'running') return 'run';
  return server === 'starting' ? 'waitForServer' : 'serverDown';
}

export function notYetMessage(spec: CommandSpec): string {
  return `Ratchet: "${spec.title}" is not available yet in this build — ${spec.notYet ?? 'it is still being built'} is coming in a later version.`;
}

export function serverDownMessage(spec: CommandSpec, state: string): string {
  return `Ratchet: "${spec.title}" needs the Ratchet language server, which is ${state}. Restart it, or open the log to see why it stopped.`;
}
