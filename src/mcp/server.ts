/**
 * `ratchet mcp`: Ratchet as a Model Context Protocol server, so any agent (Copilot's agent mode,
 * Claude Code, Codex, Cursor) can ask the referee "is this edit really better?" and get an
 * anytime-valid verdict. One McpServer (the official SDK) with Ratchet's tools and resources;
 * `serveStdio` runs it over stdin/stdout, the transport every one of those clients launches.
 *
 * stdout belongs to the protocol: nothing else is ever written there (a warning goes to stderr).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpContext } from './context';
import type { McpOptions } from './context';
import { registerEvaluateTool } from './evaluateTool';
import { registerJudgeTool } from './judgeTool';
import { registerResources } from './resources';
import { registerRunTools } from './runTools';

const INSTRUCTIONS = [
  'Ratchet is a referee for edits of prompt files (prompts, instructions, skills) that have a Ratchet run spec (a `ratchet:` block in the front matter or a <name>.ratchet.yaml sidecar naming a dataset and scorer).',
  'Call judge_edit with the file and your candidate text (or a unified diff) before keeping an edit: it answers commit only when a paired anytime-valid test on the file’s own dev items finds the evidence, so a candidate that is not better gets through with probability at most α.',
  'It never shows dev items or outputs: tune on your own examples, not on its answers. Each call is one test; trying many variants of one edit raises the chance that one of them passes by luck (at most α per call).',
  'evaluate scores a file on its dev or test split; start_run / run_status / cancel_run / list_runs run and follow gated evolution or code search; explain_decision and the ratchet://runs/<id> resources explain a decision in plain words.',
].join(' ');

export function createMcpServer(options: McpOptions): { server: McpServer; context: McpContext } {
  const server = new McpServer({ name: 'ratchet', title: 'Ratchet', version: options.version }, { instructions: INSTRUCTIONS, capabilities: { logging: {} } });
  const context = new McpContext(server, options);
  registerJudgeTool(context);
  registerEvaluateTool(context);
  registerRunTools(context);
  registerResources(context);
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => context.roots.changed());
  return { server, context };
}

/** Serves until the client closes stdin; resolves then. Runs still going stop where they are (resumable). */
export async function serveStdio(options: McpOptions): Promise<void> {
  const { server } = createMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
}
