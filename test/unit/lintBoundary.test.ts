// The core boundary is mechanical: the project's own ESLint config must reject Node, VS Code and
// LSP imports in src/core and webview/, and accept them elsewhere. Linting source text under a
// virtual path inside those folders proves the rule bites without leaving bad files in the tree.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImportErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('core boundary lint rule', () => {
  it.each([
    ["import * as vscode from 'vscode';", 'VS Code'],
    ["import { readFile } from 'node:fs';", 'Node built-ins'],
    ["import { createConnection } from 'vscode-languageserver/node';", 'VS Code or LSP'],
    ["import { spawn } from 'child_process';", 'Node built-ins'],
  ])('rejects %s in src/core', async (code, why) => {
    const errors = await restrictedImportErrors(`${code}\nexport const x = 1;\n`, 'src/core/llm/boundaryProbe.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(why);
  });

  it('rejects node:fs in webview/', async () => {
    const errors = await restrictedImportErrors("import { readFile } from 'node:fs';\nexport const x = readFile;\n", 'webview/boundaryProbe.ts');
    expect(errors).toHaveLength(1);
  });

  it('allows the same imports in src/node and src/extension', async () => {
    expect(await restrictedImportErrors("import { readFile } from 'node:fs';\nexport const x = readFile;\n", 'src/node/boundaryProbe.ts')).toEqual([]);
    expect(await restrictedImportErrors("import * as vscode from 'vscode';\nexport const x = vscode;\n", 'src/extension/boundaryProbe.ts')).toEqual([]);
  });

  it('allows pure imports in src/core', async () => {
    expect(await restrictedImportErrors("import { parse } from 'yaml';\nexport const x = parse;\n", 'src/core/boundaryProbe.ts')).toEqual([]);
  });

  it.each([
    ["import type { EvolveRunOptions } from '../node/evolveRun';", 'src/core only'],
    ["import type { RunHost } from '../server/runHost';", 'src/core only'],
    ["import * as vscode from 'vscode';", 'VS Code'],
    ["import { createConnection } from 'vscode-languageserver/node';", 'VS Code'],
    ["import { SocketMessageReader } from 'vscode-jsonrpc/node';", 'transport'],
    ["import { readFile } from 'node:fs';", 'Node built-ins'],
  ])('rejects %s in src/protocol', async (code, why) => {
    const errors = await restrictedImportErrors(`${code}\nexport const x = 1;\n`, 'src/protocol/boundaryProbe.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(why);
  });

  it('allows the engine and vscode-jsonrpc in src/protocol', async () => {
    const code = "import { RequestType } from 'vscode-jsonrpc';\nimport type { EngineEvent } from '../core/run/events';\nexport const x = RequestType;\nexport type E = EngineEvent;\n";
    expect(await restrictedImportErrors(code, 'src/protocol/boundaryProbe.ts')).toEqual([]);
  });
});
