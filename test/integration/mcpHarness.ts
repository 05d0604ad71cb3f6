// Drives the built `ratchet mcp` (out/cli.js) over stdio with the MCP SDK's own Client, against the
// fake OpenAI-compatible endpoint: what an agent's host does when it launches the server.
import { readFileSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from './evolveCli';
import type { Workspace } from './evolveWorkspace';
import type { FakeServer } from '../fixtures/fakeOpenAI/server';

export interface McpSession {
  client: Client;
  /** Every tool result and resource text the server sent, as JSON: what a secret must never appear in. */
  seen: string[];
  call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal; onprogress?: (p: { progress: number; total?: number; message?: string }) => void }): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface SessionOptions {
  /** `ratchet mcp` flags after `mcp`. */
  args: string[];
  /** The server's environment on top of PATH and HOME (nothing else of this process's: no stray key). */
  env?: Record<string, string>;
  /** Answer sampling requests (the client lends its model): each is sent here. */
  sampling?: (req: CreateMessageRequest['params']) => Promise<CreateMessageResult>;
  /** Offer roots: these folders (file URIs). */
  roots?: string[];
}

export async function openSession(o: SessionOptions): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...o.args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...o.env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'ratchet-test', version: '1.0.0' }, { capabilities: { ...(o.sampling ? { sampling: {} } : {}), ...(o.roots ? { roots: { listChanged: true } } : {}) } });
  if (o.sampling) client.setRequestHandler(CreateMessageRequestSchema, (req) => o.sampling!(req.params));
  if (o.roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: o.roots!.map((dir) => ({ uri: `file://${dir}`, name: dir })) }));
  await client.connect(transport);
  const seen: string[] = [];
  return {
    client,
    seen,
    async call(name, args, options = {}) {
      const r = (await client.callTool({ name, arguments: args }, undefined, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onprogress ? { onprogress: options.onprogress } : {}),
        // A test that runs long on a loaded machine is not a failure of the server.
        timeout: 300_000,
      })) as CallToolResult;
      seen.push(JSON.stringify(r));
      return r;
    },
    close: () => client.close(),
  };
}

export function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/**
 * A sampling client whose model is the fake endpoint: each request is sent there as a chat
 * completion, the role chosen by the model the server hinted (the spec's `sim-*` models).
 */
export function samplingVia(fake: FakeServer, counter: { calls: number }) {
  return async (req: CreateMessageRequest['params']): Promise<CreateMessageResult> => {
    counter.calls++;
    const model = req.modelPreferences?.hints?.[0]?.name ?? 'sim-agent';
    const messages = [
      ...(req.systemPrompt ? [{ role: 'system', content: req.systemPrompt }] : []),
      ...req.messages.map((m) => ({ role: m.role, content: Array.isArray(m.content) ? m.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : m.content.type === 'text' ? m.content.text : '' })),
    ];
    const res = await fetch(`${fake.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, messages, temperature: req.temperature, max_tokens: req.maxTokens }) });
    const body = (await res.json()) as { choices: { message: { content: string } }[]; model: string };
    return { role: 'assistant', model: `client-${body.model}`, content: { type: 'text', text: body.choices[0]!.message.content }, stopReason: 'endTurn' };
  };
}

/** Replaces the workspace's spec scorer (a trust test): `scorer:` lines as YAML under the key. */
export function setScorer(ws: Workspace, scorerYaml: string): void {
  const specPath = ws.promptPath.replace(/\.prompt\.md$/, '.ratchet.yaml');
  const text = readFileSync(specPath, 'utf8').replace(/scorer:\n {2}type: numeric/, `scorer:\n${scorerYaml}`);
  writeFileSync(specPath, text);
}
