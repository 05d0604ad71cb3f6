// The boundaries are mechanical: the project's own ESLint config must reject Node, VS Code and
// LSP imports in src/core and webview/ (and accept them elsewhere), the server and the daemon
// importing each other, and src/extension naming a server method other than through the typed
// contract. Linting source text under a virtual path inside those folders proves each rule bites
// without leaving bad files in the tree.
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

describe('process boundary lint rule', () => {
  it.each([
    ["import { DaemonRuns } from '../daemon/runs';", 'src/server/boundaryProbe.ts', 'src/server must not import src/daemon'],
    ["import type { ClientLink } from '../daemon/clientLink';", 'src/server/boundaryProbe.ts', 'src/server must not import src/daemon'],
    ["import { RunHost } from '../server/runHost';", 'src/daemon/boundaryProbe.ts', 'src/daemon must not import src/server'],
  ])('rejects %s in %s', async (code, filePath, why) => {
    const errors = await restrictedImportErrors(`${code}\nexport const x = 1;\n`, filePath);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(why);
  });

  it('allows what both share: the protocol, the Node ports, the engine', async () => {
    const code = "import { guarded } from '../protocol/errors';\nimport { daemonAddress } from '../node/daemonAddress';\nimport { RatchetError } from '../core/errors';\nexport const x = [guarded, daemonAddress, RatchetError];\n";
    expect(await restrictedImportErrors(code, 'src/server/boundaryProbe.ts')).toEqual([]);
    expect(await restrictedImportErrors(code, 'src/daemon/boundaryProbe.ts')).toEqual([]);
  });
});

describe('extension import lint rule', () => {
  it.each([
    ["import { waitNote } from '../../../webview/model/header';", 'src/extension/views/boundaryProbe.ts'],
    ["import type { HeaderModel } from '../../webview/model/header';", 'src/extension/boundaryProbe.ts'],
  ])('rejects %s in %s', async (code, filePath) => {
    const errors = await restrictedImportErrors(`${code}\nexport const x = 1;\n`, filePath);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('src/extension must not import webview/');
  });

  it('allows the webview contract and fold in src/protocol', async () => {
    const code = "import type { RunState } from '../../protocol/webview';\nimport { costTotals } from '../../protocol/runState';\nexport const x = costTotals;\nexport type S = RunState;\n";
    expect(await restrictedImportErrors(code, 'src/extension/views/boundaryProbe.ts')).toEqual([]);
  });
});

describe('extension wire lint rule', () => {
  async function syntaxErrors(code: string, filePath = 'src/extension/server/boundaryProbe.ts'): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  }
  const client = 'declare const client: { onNotification(m: string, h: (p: unknown) => void): void };\n';

  it.each([
    ["client.onNotification('ratchet/runEvnt', () => undefined);", 'No method strings'],
    ['client.onNotification(`ratchet/${"runEvent"}`, () => undefined);', 'No method strings'],
    ["import { RunEventNotification } from '../../protocol/lsp';\nclient.onNotification(RunEventNotification.method, () => undefined);", 'typedClient.ts'],
    ["import { NotificationType } from 'vscode-jsonrpc';\nexport const Mine = new NotificationType<string>('editor/mine');", 'written once, in src/protocol'],
  ])('rejects %s in src/extension', async (code, why) => {
    const errors = await syntaxErrors(client + code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(why);
  });

  it('allows the typed helpers, which alone take the method off the constant', async () => {
    const code = "import { RunEventNotification } from '../../protocol/lsp';\nimport { onNotification } from './typedClient';\nonNotification(client as never, RunEventNotification, () => undefined);\n";
    expect(await syntaxErrors(client + code)).toEqual([]);
    expect(await syntaxErrors(client + 'client.onNotification(RunEventNotification.method, () => undefined);', 'src/extension/server/typedClient.ts')).toEqual([]);
  });
});
