/**
 * `vscode-jsonrpc` as out/extension.js sees it (scripts/build.mjs aliases it to this file there).
 * The extension host only names the contract's requests and notifications (src/protocol/lsp.ts):
 * it sends them by method through the lazily loaded language client, which carries the whole
 * library (src/extension/server/lazyClient.ts). So only the library's transport-free message
 * types are bundled — not its ~50 KB of connection code. An import of anything else fails the
 * build ("No matching export").
 */
// The package's exports map hides this module, which its own index re-exports unchanged.
export { NotificationType, RequestType } from '../../../node_modules/vscode-jsonrpc/lib/common/messages.js';
