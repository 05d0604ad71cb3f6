/**
 * The one command table: each name of commandTable.ts gets its handler here (a missing one does
 * not compile), and every command is registered the same way — routed by commandTable's rules
 * (not built yet / server down / run) and with errors reported once, with Open Log.
 */
import * as vscode from 'vscode';
import { COMMANDS, COMMAND_NAMES, commandId, notYetMessage, routeCommand, serverDownMessage } from '../commandTable';
import type { CommandName } from '../commandTable';
import { RESTART_SERVER, ServerDownError, phaseWords } from '../server/serverHost';
import type { CommandContext, Handler } from './context';
import { codeSearchCommands } from './codeSearchCommands';
import { genDataCommands } from './genDataCommands';
import { reviewCommands } from './reviewCommands';
import { runCommands } from './runCommands';
import { setupCommands } from './setupCommands';

/** Registered elsewhere: the panel module owns `ratchet.showPanel` (and its serializer). */
export const REGISTERED_BY_PANEL = 'registeredByPanel';

type Entry = Handler | typeof REGISTERED_BY_PANEL;

function handlers(ctx: CommandContext): Record<CommandName, Entry> {
  return {
    ...runCommands(ctx),
    ...codeSearchCommands(ctx),
    ...genDataCommands(ctx),
    ...reviewCommands(ctx),
    ...setupCommands(ctx),
    // Rarely run: Convert to Skill's module (the skill mapping, the spec's move) is imported on its
    // first use, bundled apart (out/skillCommands.js), not read at activation.
    convertToSkill: async (...args: unknown[]) => (await import('./skillCommands')).skillCommands(ctx).convertToSkill(...args),
    showPanel: REGISTERED_BY_PANEL,
  };
}

async function serverDown(ctx: CommandContext, name: CommandName): Promise<void> {
  const choice = await ctx.errors.show('warning', serverDownMessage(COMMANDS[name], phaseWords(ctx.host.phase)), [RESTART_SERVER]);
  if (choice === RESTART_SERVER) await ctx.host.restart();
}

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  const table = handlers(ctx);
  return COMMAND_NAMES.flatMap((name) => {
    const handler = table[name];
    if (handler === REGISTERED_BY_PANEL) return [];
    const spec = COMMANDS[name];
    return [
      vscode.commands.registerCommand(commandId(name), async (...args: unknown[]) => {
        switch (routeCommand(spec, ctx.host.running)) {
          case 'notYet':
            void vscode.window.showInformationMessage(notYetMessage(spec));
            return;
          case 'serverDown':
            // Not awaited: the command's promise should not wait for the user to close a message.
            void serverDown(ctx, name);
            return;
          case 'run':
            break;
        }
        try {
          await handler(...args);
        } catch (err) {
          // The server went down between the check and the request.
          if (err instanceof ServerDownError) void serverDown(ctx, name);
          else void ctx.errors.report(spec.title, err);
        }
      }),
    ];
  });
}
