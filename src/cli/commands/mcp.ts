/**
 * `ratchet mcp`: serves Ratchet's tools to an MCP client over stdio (src/mcp/server.ts). The
 * client launches it; its stdout is the protocol's, so this command prints nothing there.
 */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { endpointDefaultsFromEnv } from '../../core/run/endpointDefaults';
import { serveStdio } from '../../mcp/server';
import { modelFlag } from '../flags';

interface McpFlags {
  workspace: string[];
  trust?: boolean;
  baseUrl?: string;
  model?: string;
}

const HELP = `
Tools: judge_edit (is this edit of a prompt file really better? an anytime-valid verdict),
evaluate (a file's score on its dev or test split), start_run / run_status / cancel_run /
list_runs (gated evolution and code search), explain_decision. Resources: ratchet://runs/<id>
and ratchet://runs/<id>/decisions/<n>.

Where paths may point: inside the client's roots (roots/list); from a client without roots,
inside the --workspace folders (default: the current folder). Runs are journaled under
<root>/.ratchet/runs like any run.

Trust: without --trust nothing from the workspace runs — a run spec whose scorer is a command or
a JavaScript module, and every code search (its evaluator), is refused. Pass --trust only for a
workspace whose code you would run yourself; code evaluators always run in the code-search
sandbox. The editor passes it when VS Code trusts the workspace.

Models: the run spec's, else --model or RATCHET_MODEL. Calls go to --base-url, OPENAI_BASE_URL
or OpenAI with OPENAI_API_KEY; with none of these set and a client that offers sampling, they go
to the client's own models (sampling/createMessage), priced at $0. Keys stay in the environment:
no tool result carries one.

Budgets: every call has one. judge_edit and evaluate default to 200 LLM calls and 100
evaluations (and $1 when every model is priced) and are refused before any call when they could
need more; start_run defaults to 5 candidates and 200 calls (evolve), 10 proposals and 40
evaluations (search).

Client entries (see the README, "Ratchet for agents"):
  { "command": "npx", "args": ["ratchet", "mcp", "--workspace", "/path/to/project"] }`;

export function registerMcp(program: Command, version: string): void {
  program
    .command('mcp')
    .description('Serve Ratchet to an agent over the Model Context Protocol (stdio): judge edits, evaluate, run and follow gated runs.')
    .option('-w, --workspace <dir>', 'a folder the server may use when the client has no roots (repeatable; default: the current folder)', (v: string, all: string[]) => [...all, v], [] as string[])
    .option('--trust', 'the workspace is trusted: command and module scorers and code evaluators may run (evaluators in the sandbox)')
    .option('--base-url <url>', 'OpenAI-compatible endpoint for every role (else the spec, else OPENAI_BASE_URL; none: the client’s models by sampling)')
    .addOption(modelFlag())
    .addHelpText('after', HELP)
    .action(async (flags: McpFlags) => {
      const env = endpointDefaultsFromEnv(process.env);
      const endpoint = {
        ...env,
        ...(flags.baseUrl ? { baseURL: flags.baseUrl, baseURLFrom: '--base-url' } : {}),
        ...(flags.model ? { model: flags.model, modelFrom: '--model' } : {}),
      };
      await serveStdio({
        workspaces: (flags.workspace.length > 0 ? flags.workspace : ['.']).map((w) => resolve(w)),
        trusted: flags.trust === true,
        endpoint,
        endpointConfigured: endpoint.baseURL !== undefined || endpoint.apiKey !== undefined,
        version,
      });
      // The client closed the connection: runs still going stop where they are, journaled and resumable.
      process.exit(0);
    });
}
