/**
 * What the extension offers agents, as data: the MCP server definition provider (`ratchet mcp`,
 * which Copilot's agent and any MCP-aware chat find without setup) and the Language Model Tool
 * `ratchet_judgeEdit`. No VS Code import, so `npm run manifest` writes the manifest's
 * `contributes.mcpServerDefinitionProviders` and `contributes.languageModelTools` from here
 * (scripts/contributes.ts), and the code registers the same ids.
 */

/** The provider of Ratchet's MCP server (`vscode.lm.registerMcpServerDefinitionProvider`). */
export const MCP_SERVER_PROVIDER = { id: 'ratchet.mcpServer', label: 'Ratchet' } as const;

/** The label the server is listed under in the editor's MCP servers. */
export const MCP_SERVER_LABEL = 'Ratchet';
