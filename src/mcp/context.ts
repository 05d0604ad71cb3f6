/**
 * What every tool of one `ratchet mcp` server shares: the folders it may use (the client's roots),
 * whether the workspace is trusted, where LLM calls go (the configured endpoint, or the client's
 * models through sampling), the runs it started, and the scrubbing every result goes through so no
 * secret reaches the agent.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RatchetError } from '../core/errors';
import type { LlmTransport } from '../core/ports';
import { ROLES } from '../core/llm/types';
import { REDACTED, redact, redactText, redactUrlsIn } from '../core/redact';
import type { EndpointDefaults } from '../core/run/endpointDefaults';
import type { RunSpec } from '../core/run/specTypes';
import { runController } from '../node/runController';
import { Roots } from './roots';
import { SamplingTransport } from './sampling';

export interface McpOptions {
  /** The folders a client without roots may use, and where relative paths of one start. */
  workspaces: string[];
  /**
   * Whether the workspace's code may run: command and module scorers, code evaluators (always in
   * the code-search sandbox). Off unless `--trust` (the editor passes it for a trusted workspace).
   */
  trusted: boolean;
  /** The endpoint and keys (the CLI's environment, `--base-url`, `--model`). Secret: never in a result. */
  endpoint: EndpointDefaults;
  /** `--base-url` / OPENAI_BASE_URL / OPENAI_API_KEY said where calls go; else sampling when the client offers it. */
  endpointConfigured: boolean;
  version: string;
}

export class McpContext {
  readonly roots: Roots;
  private readonly secrets: string[];

  constructor(
    readonly server: McpServer,
    readonly options: McpOptions,
  ) {
    const client = () => server.server.getClientCapabilities();
    this.roots = new Roots({ offersRoots: () => client()?.roots !== undefined, listRoots: () => server.server.listRoots() }, options.workspaces);
    this.secrets = secretValues(options.endpoint);
  }

  /**
   * Where a run's calls go: the configured endpoint (or the one its spec names for every called
   * role), else the client's models when it offers sampling. Neither: refused before any call.
   */
  transportFor(spec: Pick<RunSpec, 'models'> | undefined): { transport?: LlmTransport; free: boolean } {
    const specNamesEndpoint = spec !== undefined && ROLES.some((r) => spec.models[r].baseURL !== undefined);
    if (this.options.endpointConfigured || specNamesEndpoint) return { free: false };
    if (this.server.server.getClientCapabilities()?.sampling !== undefined) return { transport: new SamplingTransport(this.server.server), free: true };
    throw new RatchetError(
      'badInput',
      "No model endpoint is configured for ratchet mcp and this MCP client does not offer sampling: set OPENAI_API_KEY (and OPENAI_BASE_URL for another provider) in the server's environment, pass --base-url, name one in the run spec's models, or use a client that offers sampling.",
      { field: 'endpoint' },
    );
  }

  /** A run's abort controller, aborted when the client cancels the request (`notifications/cancelled`). */
  controllerFor(request: AbortSignal): AbortController {
    const controller = runController();
    const cancel = () => controller.abort(new RatchetError('cancelled', 'Cancelled by the MCP client.'));
    if (request.aborted) cancel();
    else request.addEventListener('abort', cancel, { once: true });
    return controller;
  }

  /** Text as it may leave for the client: every key Ratchet knows, and anything that looks like one, blanked. */
  scrub(text: string): string {
    let out = redactUrlsIn(redactText(text));
    for (const secret of this.secrets) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** A tool's answer: its one-paragraph summary and its structured content, scrubbed. */
  result(summary: string, structured: Record<string, unknown>): CallToolResult {
    const clean = JSON.parse(this.scrub(JSON.stringify(redact(structured)))) as Record<string, unknown>;
    return { content: [{ type: 'text', text: this.scrub(summary) }], structuredContent: clean };
  }

  /** A refusal or failure as the client sees it: the one sentence, scrubbed, flagged as an error. */
  error(err: unknown): CallToolResult {
    const message = err instanceof Error ? err.message : String(err);
    return { content: [{ type: 'text', text: this.scrub(message) }], isError: true };
  }
}

/** The key values to blank wherever they appear: the default key and every key a role may name. */
function secretValues(endpoint: EndpointDefaults): string[] {
  const named = Object.entries(endpoint.apiKeys ?? {})
    .filter(([name]) => /(KEY|TOKEN|SECRET|PASSWORD)$/i.test(name))
    .map(([, v]) => v);
  return [...new Set([endpoint.apiKey, ...named].filter((v): v is string => typeof v === 'string' && v.length >= 4))];
}
