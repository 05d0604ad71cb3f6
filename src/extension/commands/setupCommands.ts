/**
 * Commands that set Ratchet up: the API key (SecretStorage), the VS Code language model, the
 * server restart. None needs a running server.
 */
import * as vscode from 'vscode';
import type { CommandContext } from './context';

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
        const choice = await vscode.window.showWarningMessage(
          'Ratchet: no VS Code language model is available. Install a chat model provider, or point Ratchet at an OpenAI-compatible endpoint in settings.',
          open,
        );
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

    async restartServer(): Promise<void> {
      const running = ctx.store.runs().filter((r) => r.status === 'running' || r.status === 'pending').length;
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
