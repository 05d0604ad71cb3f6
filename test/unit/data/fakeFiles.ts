// Files port fakes for the data/spec/prompt tests: an in-memory tree, and a read-only view of the
// real disk (for loading the examples/ workspace exactly as a user's editor would).
import { readFile, readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { Files } from '../../../src/core/ports';
import { linesOfText } from '../../fixtures/llmPorts';

export function memFiles(tree: Record<string, string>): Files & { tree: Record<string, string> } {
  const norm = (p: string): string => path.posix.normalize(p);
  const files = new Map(Object.entries(tree).map(([k, v]) => [norm(k), v]));
  const dirs = new Set<string>();
  const exists = (p: string): boolean => files.has(norm(p)) || dirs.has(norm(p)) || [...files.keys()].some((k) => k.startsWith(`${norm(p)}/`));
  return {
    tree,
    readText: async (p) => {
      const t = files.get(norm(p));
      if (t === undefined) throw new Error(`ENOENT: ${p}`);
      return t;
    },
    tryReadText: async (p) => files.get(norm(p)),
    tryReadLines: async (p) => {
      const t = files.get(norm(p));
      return t === undefined ? undefined : linesOfText(t);
    },
    writeTextAtomic: async (p, t) => void files.set(norm(p), t),
    appendDurable: async (p, t) => void files.set(norm(p), (files.get(norm(p)) ?? '') + t),
    exists: async (p) => exists(p),
    mkdirp: async () => undefined,
    mkdirExclusive: async (p) => {
      if (exists(p)) return false;
      dirs.add(norm(p));
      return true;
    },
    list: async (p) => [...new Set([...files.keys()].filter((k) => k.startsWith(`${norm(p)}/`)).map((k) => k.slice(norm(p).length + 1).split('/')[0]!))],
    join: (...parts) => path.posix.join(...parts),
    resolve: (...parts) => path.posix.resolve('/', ...parts),
    dirname: (p) => path.posix.dirname(p),
  };
}

export function diskFiles(root: string): Files {
  const abs = (p: string): string => path.resolve(root, p);
  return {
    readText: (p) => readFile(abs(p), 'utf8'),
    tryReadText: async (p) => {
      try {
        return await readFile(abs(p), 'utf8');
      } catch {
        return undefined;
      }
    },
    tryReadLines: async (p) => {
      try {
        return linesOfText(await readFile(abs(p), 'utf8'));
      } catch {
        return undefined;
      }
    },
    writeTextAtomic: () => Promise.reject(new Error('read-only')),
    appendDurable: () => Promise.reject(new Error('read-only')),
    exists: async (p) => {
      try {
        await stat(abs(p));
        return true;
      } catch {
        return false;
      }
    },
    mkdirp: () => Promise.reject(new Error('read-only')),
    mkdirExclusive: () => Promise.reject(new Error('read-only')),
    list: async (p) => {
      try {
        return await readdir(abs(p));
      } catch {
        return [];
      }
    },
    join: (...parts) => path.join(...parts),
    resolve: (...parts) => path.resolve(root, ...parts),
    dirname: (p) => path.dirname(p),
  };
}
