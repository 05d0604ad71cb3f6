/**
 * Commands that set Ratchet up: the API key (SecretStorage), the VS Code language model, the
 * server restart. None needs a running server.
 */
import * as vscode from 'vscode';
import { ListModelsRequest } from '../../protocol/lsp';
import { isTerminalRunState } from '../../core/journal/runStates';
import { commandId } from '../commandTable';
import type { CommandContext } from './context';

/** Where Ollama listens by default, with its OpenAI-compatible API. */
export const OLLAMA_BASE_URL = 'http://localhost:11434/v1';

export function setupCommands(ctx: CommandContext) {
  return {
    async setApiKey(): Promise<void> {
      const existing = await ctx.apiKeys.get();
      const value = await vscode.window.showInputBox({
        title: 'Ratchet: API key for the OpenAI-compatible endpoint',
        prompt: existing
          ? 'A key is stored. Enter a new one to replace it, or leave empty and press Enter to remove it.'
          : 'Stored in the OS keychain (VS Code SecretStorage), never in settings. Local servers (Ollama, LM Studio) need none.',
        password: true,
        ignoreFocusOut: true,
        placeHolder: 'sk-…',
      });
      if (value === undefined) return;
      const key = value.trim();
      if (key === '') {
        if (!existing) return;
        await ctx.apiKeys.delete();
        void vscode.window.showInformationMessage('Ratchet: API key removed.');
      } else {
        await ctx.apiKeys.set(key);
        void vscode.window.showInformationMessage('Ratchet: API key stored.');
      }
      await ctx.host.sendSettings();
    },

    async selectModel(): Promise<void> {
      const models = await vscode.lm.selectChatModels();
      if (models.length === 0) {
        const open = 'Open Settings';
        const choice = await vscode.window.showWarningMessage('Ratchet: no VS Code language model is available. Install a chat model provider, or point Ratchet at an OpenAI-compatible endpoint in settings.', open);
        if (choice === open) await vscode.commands.executeCommand('workbench.action.openSettings', 'ratchet.endpoint');
        return;
      }
      const current = ctx.config.settings;
      const picked = await vscode.window.showQuickPick(
        models.map((m) => ({
          label: m.name,
          description: `${m.vendor} · ${m.family}`,
          detail: `${m.id} — up to ${m.maxInputTokens} input tokens`,
          picked: current.provider === 'vscode-lm' && current.models.default === m.id,
          model: m,
        })),
        { title: 'Ratchet: model for every role (through VS Code)', placeHolder: 'Runs will use this model via the Language Model API', matchOnDetail: true },
      );
      if (!picked) return;
      await ctx.config.setGlobal('models.default', picked.model.id);
      await ctx.config.setGlobal('endpoint.provider', 'vscode-lm');
      void vscode.window.showInformationMessage(`Ratchet: runs will use ${picked.model.name} through VS Code's Language Model API.`);
    },

    /**
     * Asks the endpoint runs would use for its models (`GET /models`, through the server, which
     * resolves the endpoint as a run does) and says plainly whether it answered; then the user may
     * pick one as `ratchet.models.default`. A failure is reported by the command table, in the
     * endpoint's words, naming the setting the base URL came from.
     */
    async testConnection(): Promise<void> {
      if (ctx.config.settings.provider === 'vscode-lm') {
        // No endpoint to test: VS Code's language models answer, and picking one is Select Model.
        await vscode.commands.executeCommand(commandId('selectModel'));
        return;
      }
      const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Ratchet: testing the connection…', cancellable: true }, async (_progress, token) => {
        // The settings as they are now, ahead of the request on the same connection: right after
        // an edit of the base URL, the change event may not have reached the server yet, and the
        // test would ask the endpoint the user just replaced.
        await ctx.host.sendSettings();
        return ctx.host.request(ListModelsRequest, {}, token);
      });
      const where = `${result.baseURL} (${result.baseURLFrom})`;
      if (result.models.length === 0) {
        void vscode.window.showWarningMessage(`Ratchet: connected to ${where}, but it lists no models. Pull or load a model there, then test again.`);
        return;
      }
      const current = result.current;
      const missing = current !== undefined && !result.models.includes(current.model) ? ` Your model ${current.model} (${current.from}) is not among them.` : '';
      const picked = await vscode.window.showQuickPick(
        result.models.map((id) => ({ label: id, ...(id === current?.model ? { description: `current (${current.from})` } : {}) })),
        {
          title: `Ratchet: connected to ${where} — ${result.models.length} model${result.models.length === 1 ? '' : 's'}.${missing}`,
          placeHolder: 'Pick the model every role uses (ratchet.models.default), or press Escape to keep yours',
          ignoreFocusOut: true,
        },
      );
      if (!picked) return;
      await ctx.config.setGlobal('models.default', picked.label);
      void vscode.window.showInformationMessage(`Ratchet: runs will use ${picked.label} (setting ratchet.models.default) wherever a run spec names no model.`);
    },

    /** The walkthrough's local choice: Ollama's default address, then the model list to pick from. */
    async useOllama(): Promise<void> {
      await ctx.config.setGlobal('endpoint.baseUrl', OLLAMA_BASE_URL);
      if (ctx.config.settings.provider !== 'openai') await ctx.config.setGlobal('endpoint.provider', 'openai');
      // The server asks the endpoint it knows of: it must have the new address before the test.
      await ctx.host.sendSettings();
      await vscode.commands.executeCommand(commandId('testConnection'));
    },

    async restartServer(): Promise<void> {
      const running = ctx.store.runs().filter((r) => !isTerminalRunState(r.status)).length;
      if (running > 0 && ctx.host.running) {
        const restart = 'Restart';
        const choice = await vscode.window.showWarningMessage(
          `Ratchet: restarting the language server stops ${running} run${running === 1 ? '' : 's'} in progress. ${running === 1 ? 'It' : 'They'} can be resumed from the journal afterwards ("Ratchet: Resume Run").`,
          { modal: true },
          restart,
        );
        if (choice !== restart) return;
      }
      await ctx.host.restart();
    },
  };
}
