/**
 * The Ratchet language server: hosts engine runs in their own process so the editor never
 * freezes. This file only wires the connection; features live in their own modules.
 */
import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

connection.onInitialize(() => ({
  capabilities: {
    textDocumentSync: TextDocumentSyncKind.Incremental,
  },
  serverInfo: { name: 'ratchet-server' },
}));

process.on('uncaughtException', (err) => {
  connection.console.error(`ratchet-server: uncaught exception: ${err.stack ?? String(err)}`);
});

documents.listen(connection);
connection.listen();
