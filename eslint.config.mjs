// Lint rules, including the mechanical core boundary: the engine (src/core) and the panel (webview/)
// never import VS Code, the language server, or Node built-ins; they reach the world through ports.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export const boundaryRule = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          // Anchored names, not `vscode-*`: gitignore-style globs match any path segment, and the
          // panel's own components live under @vscode-elements/elements/dist/vscode-button/.
          group: ['/vscode', '/vscode/*', '/vscode-languageclient', '/vscode-languageclient/*', '/vscode-languageserver*', '/vscode-languageserver*/*', '/vscode-jsonrpc', '/vscode-jsonrpc/*'],
          message: 'src/core and webview/ must not import VS Code or LSP; use a port.',
        },
        { group: ['node:*'], message: 'src/core and webview/ must not import Node built-ins; use a port (src/core/ports.ts).' },
        {
          group: ['fs', 'fs/*', 'path', 'child_process', 'http', 'https', 'net', 'os', 'crypto', 'stream', 'worker_threads'],
          message: 'src/core and webview/ must not import Node built-ins; use a port (src/core/ports.ts).',
        },
      ],
    },
  ],
};

/**
 * The wire contracts (src/protocol) are imported by every end, so they depend on the engine's
 * types and vscode-jsonrpc's transport-free core only: no VS Code, no LSP end, no Node, and none
 * of the ends that import them.
 */
export const protocolBoundaryRule = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          group: ['/vscode', '/vscode/*', '/vscode-languageclient', '/vscode-languageclient/*', '/vscode-languageserver*', '/vscode-languageserver*/*', '/vscode-jsonrpc/*'],
          message: 'src/protocol and src/panelState must not import VS Code, an LSP end or a transport; vscode-jsonrpc itself is transport-free.',
        },
        { group: ['node:*'], message: 'src/protocol and src/panelState must not import Node built-ins.' },
        {
          group: ['fs', 'fs/*', 'path', 'child_process', 'http', 'https', 'net', 'os', 'crypto', 'stream', 'worker_threads'],
          message: 'src/protocol and src/panelState must not import Node built-ins.',
        },
        {
          regex: '^\\.\\./(node|server|daemon|extension|cli)(/|$)|webview/',
          message: 'src/protocol and src/panelState depend on src/core only: move the type into src/core.',
        },
      ],
    },
  ],
};

/**
 * The language server and the run daemon are two processes that meet only on the daemon's socket:
 * what both need (the socket's contract, its address, the engine) lives in src/protocol, src/node
 * or src/core, so neither can come to depend on the other's state or lifetime.
 */
const processBoundary = (self, other) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          regex: `^(\\.\\./)+${other}(/|$)`,
          message: `src/${self} must not import src/${other}: share through src/protocol, src/node or src/core.`,
        },
      ],
    },
  ],
});

/**
 * The extension reaches the language server through the typed contract only (src/protocol/lsp.ts,
 * via src/extension/server/typedClient.ts): a method spelled as a string, or taken off a type with
 * `.method`, would compile against a handler of any parameter type, or a method no end serves.
 */
export const extensionWireRule = {
  'no-restricted-syntax': [
    'error',
    {
      selector: 'Literal[value=/^(ratchet|daemon)\\u002F/]',
      message: 'No method strings in src/extension: send and register through the constants of src/protocol/lsp.ts with typedClient.ts.',
    },
    {
      selector: 'TemplateElement[value.raw=/^(ratchet|daemon)\\u002F/]',
      message: 'No method strings in src/extension: send and register through the constants of src/protocol/lsp.ts with typedClient.ts.',
    },
    {
      selector: 'NewExpression[callee.name=/^(Request|Notification)Type[0-9]?$/]',
      message: 'Wire contracts are written once, in src/protocol; import the constant from there.',
    },
    {
      selector: "MemberExpression[property.name='method']",
      message: 'Only src/extension/server/typedClient.ts takes a method name off a protocol type: use its typed helpers.',
    },
  ],
};

/**
 * The extension host and the panel's view are two ends of the webview contract: what both need
 * (the run-state fold, the message types, the cost totals) lives in src/protocol, so the host never
 * comes to depend on a view model and the view stays free to change its own.
 */
export const extensionImportRule = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          regex: '^(\\.\\./)+webview(/|$)',
          message: 'src/extension must not import webview/: move what both ends need into src/protocol.',
        },
      ],
    },
  ],
};

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', '.tools/**', 'coverage/**', 'test/e2e/artifacts/**', 'test/e2e/node_modules/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['**/*.mjs', '.dependency-cruiser.cjs', 'bench/**/*.cjs', 'bin/**/*.js', 'test/fixtures/**/*.mjs', 'test/e2e/fixtures/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', setTimeout: 'readonly', URL: 'readonly', Buffer: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['src/core/**/*.ts', 'webview/**/*.ts'], rules: boundaryRule },
  { files: ['src/protocol/**/*.ts', 'src/panelState/**/*.ts'], rules: protocolBoundaryRule },
  { files: ['src/server/**/*.ts'], rules: processBoundary('server', 'daemon') },
  { files: ['src/daemon/**/*.ts'], rules: processBoundary('daemon', 'server') },
  { files: ['src/extension/**/*.ts'], ignores: ['src/extension/server/typedClient.ts'], rules: extensionWireRule },
  { files: ['src/extension/**/*.ts'], rules: extensionImportRule },
);
