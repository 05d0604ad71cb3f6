/**
 * `npm run manifest`: rewrites every generated file (scripts/tables.ts lists them) from the
 * tables; with `--check` it writes nothing and fails, naming each stale file and where it first
 * differs, so CI catches a table edited without regenerating (or a generated file edited by hand).
 * The entry is scripts/manifest.ts; this half takes the folder and the output as arguments so a
 * test can run it on a temporary copy.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED } from './tables';

export interface Output {
  log(line: string): void;
  error(line: string): void;
}

export const USAGE = 'usage: npm run manifest [-- --check]';

/** The exit code: 0 when every file is (now) current, 1 when `--check` found a stale one, 2 on bad usage. */
export function manifestCommand(argv: readonly string[], root: string, out: Output): number {
  const unknown = argv.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    out.error(`unknown argument ${unknown.join(' ')}; ${USAGE}`);
    return 2;
  }
  const check = argv.includes('--check');
  let stale = 0;
  for (const { path, render } of GENERATED) {
    const before = readFileSync(join(root, path), 'utf8');
    const after = render(before);
    if (after === before) continue;
    if (check) {
      stale++;
      out.error(`${path} is stale (${firstDifference(path, before, after)}): run npm run manifest and commit what it writes`);
    } else {
      writeFileSync(join(root, path), after);
      out.log(`wrote ${path}`);
    }
  }
  return stale > 0 ? 1 : 0;
}

/** Where two versions of a file first differ: a JSON pointer for JSON, else a line number. */
export function firstDifference(path: string, before: string, after: string): string {
  if (path.endsWith('.json')) {
    try {
      const at = firstJsonDifference(JSON.parse(before), JSON.parse(after), '');
      if (at !== undefined) return `first at ${at === '' ? 'the top' : at}`;
      return 'same values, different formatting';
    } catch {
      // Not parseable (a merge conflict left in it): the line says more.
    }
  }
  const a = before.split('\n');
  const b = after.split('\n');
  const line = a.findIndex((l, i) => l !== b[i]);
  return `first at line ${(line < 0 ? a.length : line) + 1}`;
}

function firstJsonDifference(a: unknown, b: unknown, at: string): string | undefined {
  if (a === b) return undefined;
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
  if (!isObject(a) || !isObject(b) || Array.isArray(a) !== Array.isArray(b)) return at;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const key of keys) {
    const found = firstJsonDifference(a[key], b[key], `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (found !== undefined) return found;
  }
  // Same members in another order.
  return Object.keys(a).join() === Object.keys(b).join() ? undefined : at;
}
