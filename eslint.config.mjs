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
          message: 'src/protocol must not import VS Code, an LSP end or a transport; vscode-jsonrpc itself is transport-free.',
        },
        { group: ['node:*'], message: 'src/protocol must not import Node built-ins.' },
        {
          group: ['fs', 'fs/*', 'path', 'child_process', 'http', 'https', 'net', 'os', 'crypto', 'stream', 'worker_threads'],
          message: 'src/protocol must not import Node built-ins.',
        },
        {
          regex: '^\\.\\./(node|server|daemon|extension|cli)(/|$)|webview/',
          message: 'src/protocol depends on src/core only: move the type into src/core.',
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
    files: ['**/*.mjs', 'bin/**/*.js', 'test/fixtures/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', setTimeout: 'readonly', URL: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['src/core/**/*.ts', 'webview/**/*.ts'], rules: boundaryRule },
  { files: ['src/protocol/**/*.ts'], rules: protocolBoundaryRule },
);
