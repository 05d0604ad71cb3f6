/**
 * Ratchet's MCP server, offered to the editor's agents (`vscode.lm.registerMcpServerDefinitionProvider`):
 * Copilot's agent mode, and any MCP-aware chat, find `ratchet mcp` without setup. The definition is
 * rebuilt when what it is made of changes — the workspace folders, Workspace Trust, the endpoint
 * and model settings — and the editor restarts the server with it.
 */
import * as vscode from 'vscode';
import type { Config } from '../config';
import { MCP_SERVER_LABEL, MCP_SERVER_PROVIDER } from '../agentTable';
import { mcpServerArgs } from './mcpServerArgs';

export function registerMcpServer(context: vscode.ExtensionContext, config: Config): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const cli = vscode.Uri.joinPath(context.extensionUri, 'out', 'cli.js').fsPath;
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
      const args = mcpServerArgs(config.settings, { cli, folders, trusted: vscode.workspace.isTrusted });
      // The extension host's Node runs the CLI bundle; in the desktop editor that binary is Electron's, run as Node.
      const server = new vscode.McpStdioServerDefinition(MCP_SERVER_LABEL, process.execPath, args, { ELECTRON_RUN_AS_NODE: '1' }, String(context.extension.packageJSON.version));
      if (folders[0]) server.cwd = vscode.Uri.file(folders[0]);
      return [server];
    },
  };
  const fire = () => changed.fire();
  return vscode.Disposable.from(
    changed,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_SERVER_PROVIDER.id, provider),
    vscode.workspace.onDidChangeWorkspaceFolders(fire),
    vscode.workspace.onDidGrantWorkspaceTrust(fire),
    config.onDidChange((change) => {
      if (change.keys.some((k) => k === 'endpoint.provider' || k === 'endpoint.baseUrl' || k === 'models.default')) fire();
    }),
  );
}
