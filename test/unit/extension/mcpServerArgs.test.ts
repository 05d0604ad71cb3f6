// How the editor launches `ratchet mcp` for its agents.
import { describe, expect, it } from 'vitest';
import { mcpServerArgs } from '../../../src/extension/agents/mcpServerArgs';

const facts = { cli: '/ext/out/cli.js', folders: ['/w/a', '/w/b'], trusted: false };

describe('mcpServerArgs', () => {
  it('gives the workspace folders, trust only when VS Code trusts the workspace, the endpoint and model of the settings', () => {
    expect(mcpServerArgs({ provider: 'openai', baseUrl: undefined, models: {} }, facts)).toEqual(['/ext/out/cli.js', 'mcp', '--workspace', '/w/a', '--workspace', '/w/b']);
    expect(mcpServerArgs({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', models: { default: 'llama3.1' } }, { ...facts, trusted: true })).toEqual([
      '/ext/out/cli.js',
      'mcp',
      '--workspace',
      '/w/a',
      '--workspace',
      '/w/b',
      '--trust',
      '--base-url',
      'http://127.0.0.1:11434/v1',
      '--model',
      'llama3.1',
    ]);
  });

  it('never puts a key in the arguments: a URL with credentials is left out, and so is any endpoint with vscode-lm', () => {
    expect(mcpServerArgs({ provider: 'openai', baseUrl: 'https://user:pw@example.com/v1', models: {} }, facts)).not.toContain('--base-url');
    expect(mcpServerArgs({ provider: 'openai', baseUrl: 'https://x.openai.azure.com/v1?api-key=abc', models: {} }, facts)).not.toContain('--base-url');
    expect(mcpServerArgs({ provider: 'vscode-lm', baseUrl: 'http://127.0.0.1:11434/v1', models: {} }, facts)).not.toContain('--base-url');
  });
});
