// The README's architecture map is what a newcomer reads first to find their way: a folder it
// leaves out is one they cannot place. Every folder under src/ must appear in it, at its place
// (a nested folder indented under its parent), and the map names no folder that is gone.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');

function foldersUnder(dir: string): string[] {
  return readdirSync(resolve(root, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => {
      const path = join(dir, e.name);
      return [`${path}/`, ...foldersUnder(path)];
    });
}

/**
 * The folders the map names, as full paths: a line's leading folder names ("prompt/ data/") are
 * children of the nearest line above indented two spaces less.
 */
function mappedFolders(readme: string): string[] {
  const section = readme.slice(readme.indexOf('## Architecture'));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const parents: string[] = [];
  const found: string[] = [];
  for (const line of block.split('\n')) {
    const match = /^( *)((?:[\w.-]+\/)+(?: (?:[\w.-]+\/)+)*)(?: |$)/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 2;
    for (const name of match[2]!.split(' ')) {
      const path = depth === 0 ? name : `${parents[depth - 1] ?? '?/'}${name}`;
      found.push(path);
      parents[depth] = path;
    }
  }
  return found;
}

describe("the README's architecture map", () => {
  const mapped = mappedFolders(readFileSync(resolve(root, 'README.md'), 'utf8'));

  it('shows every folder under src/', () => {
    const missing = foldersUnder('src').filter((f) => !mapped.includes(f));
    expect(missing, 'folders to add to the map in README.md, "Architecture"').toEqual([]);
  });

  it('names no src/ folder that does not exist', () => {
    const present = new Set(foldersUnder('src'));
    expect(mapped.filter((f) => f.startsWith('src/') && !present.has(f))).toEqual([]);
  });
});
