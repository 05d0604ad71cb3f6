/**
 * vscode-languageclient and its protocol packages are ~380 KB of CommonJS that esbuild cannot
 * tree-shake. They are bundled apart (client.ts → out/languageClient.js, see scripts/build.mjs) and
 * required when the server starts — after activate() has returned — so loading them never counts
 * against the extension's activation time. Node caches the module: every later call is a lookup.
 */
import type * as ClientModule from './client';

export type LanguageClientModule = typeof ClientModule;

export function loadClientModule(): LanguageClientModule {
  // A runtime require of a sibling bundle in out/, not an import: esbuild must not inline it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./languageClient.js') as LanguageClientModule;
}
