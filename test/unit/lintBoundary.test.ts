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
});
