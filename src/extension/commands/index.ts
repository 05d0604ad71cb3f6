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

/**
 * Waits, with a cancellable progress notification, until a starting server is running: true when it
 * is; false when it stopped or failed instead, or the user cancelled. Not bounded by a clock: the
 * server's own start gives up (and says so) when it cannot start.
 */
async function untilServerStarted(ctx: CommandContext, title: string): Promise<boolean> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Ratchet: ${title} waits for the language server to start…`, cancellable: true }, (_progress, token) => {
    return new Promise<boolean>((resolve) => {
      const done = (started: boolean) => {
        for (const d of subscriptions) d.dispose();
        resolve(started);
      };
      const subscriptions = [
        ctx.host.onDidChangePhase((phase) => {
          if (phase !== 'starting') done(phase === 'running');
        }),
        token.onCancellationRequested(() => done(false)),
      ];
      // The phase may have moved between the route and the subscription.
      if (ctx.host.phase !== 'starting') done(ctx.host.phase === 'running');
    });
  });
}

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  const table = handlers(ctx);
  return COMMAND_NAMES.flatMap((name) => {
    const handler = table[name];
    if (handler === REGISTERED_BY_PANEL) return [];
    const spec = COMMANDS[name];
    return [
      vscode.commands.registerCommand(commandId(name), async (...args: unknown[]) => {
        switch (routeCommand(spec, ctx.host.phase)) {
          case 'notYet':
            void vscode.window.showInformationMessage(notYetMessage(spec));
            return;
          case 'waitForServer':
            if (!(await untilServerStarted(ctx, spec.title))) {
              if (!ctx.host.running) void serverDown(ctx, name);
              return;
            }
            break;
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
