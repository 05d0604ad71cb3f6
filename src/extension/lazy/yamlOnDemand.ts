/**
 * The `yaml` package as the extension host sees it (scripts/build.mjs aliases `yaml` to this file
 * in out/extension.js only). `yaml` is ~115 KB minified and no part of activation needs it: it
 * reads specs, datasets and front matter when a command or view asks. So it lives in its own
 * bundle, out/yaml.js, required on the first call — activation neither loads nor parses it.
 *
 * Only what the core's modules reachable from the extension import is here; an import of anything
 * else fails the build ("No matching export"), so a new use cannot silently get `undefined`.
 */
import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

function yaml(): typeof Yaml {
  // A runtime require of a sibling bundle in out/, not an import: esbuild must not inline it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./yaml.js') as typeof Yaml;
  return loaded;
}

// Each stands in for the function of the same name; the cast keeps yaml's overloads and generics.
export const parse = ((...args: unknown[]) => (yaml().parse as (...a: unknown[]) => unknown)(...args)) as typeof Yaml.parse;
export const parseDocument = ((...args: unknown[]) => (yaml().parseDocument as (...a: unknown[]) => unknown)(...args)) as typeof Yaml.parseDocument;
export const isMap = ((node: unknown) => yaml().isMap(node)) as typeof Yaml.isMap;
export const isSeq = ((node: unknown) => yaml().isSeq(node)) as typeof Yaml.isSeq;
export const isScalar = ((node: unknown) => yaml().isScalar(node)) as typeof Yaml.isScalar;
export const isPair = ((node: unknown) => yaml().isPair(node)) as typeof Yaml.isPair;

/** `new LineCounter()` returns the real class's instance: a constructor that returns an object yields it. */
export const LineCounter = function LineCounter() {
  return new (yaml().LineCounter)();
} as unknown as typeof Yaml.LineCounter;
