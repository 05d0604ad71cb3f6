// out/lspProtocol.js: the Language Server Protocol's packages, bundled once for both ends of the
// connection. The language client (out/languageClient.js, extension host) and the language server
// (out/nodeProcesses.js) each require them from here (scripts/build.mjs), so the .vsix carries one
// copy, not two. Keyed by the specifier the bundles import.
import * as jsonRpc from 'vscode-jsonrpc/node';
import * as protocol from 'vscode-languageserver-protocol/node';
import * as textDocument from 'vscode-languageserver-textdocument';
import * as types from 'vscode-languageserver-types';

export const LSP_PACKAGES = {
  'vscode-jsonrpc': jsonRpc,
  'vscode-jsonrpc/node': jsonRpc,
  'vscode-languageserver-protocol': protocol,
  'vscode-languageserver-protocol/node': protocol,
  'vscode-languageserver-textdocument': textDocument,
  'vscode-languageserver-types': types,
};
