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
);
