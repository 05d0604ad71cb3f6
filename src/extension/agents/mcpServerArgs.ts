/**
 * How the editor launches `ratchet mcp` for its agents: the extension's own CLI bundle on the
 * editor's Node, the workspace folders as the server's folders, `--trust` exactly when VS Code
 * trusts the workspace (so command scorers and code evaluators run only there), and the endpoint
 * and model of the settings. No key: a key never travels in a process's arguments or environment
 * (CONTRIBUTING.md); without a keyless endpoint the server asks the editor's own chat models
 * through MCP sampling. Pure, so it is unit-tested without VS Code.
 */
import { redactUrl } from '../../core/redact';
import type { RatchetSettings } from '../settings';

export interface McpLaunchFacts {
  /** The extension's `out/cli.js`. */
  cli: string;
  folders: readonly string[];
  trusted: boolean;
}

export function mcpServerArgs(s: Pick<RatchetSettings, 'provider' | 'baseUrl' | 'models'>, facts: McpLaunchFacts): string[] {
  const args = [facts.cli, 'mcp', ...facts.folders.flatMap((f) => ['--workspace', f])];
  if (facts.trusted) args.push('--trust');
  // vscode-lm: every call goes to the editor's models, which is what sampling asks for. A URL
  // carrying credentials (user:pw@, ?api-key=) is a key too, and process arguments are public.
  if (s.provider === 'openai' && s.baseUrl !== undefined && redactUrl(s.baseUrl) === s.baseUrl) args.push('--base-url', s.baseUrl);
  if (s.models.default !== undefined) args.push('--model', s.models.default);
  return args;
}
