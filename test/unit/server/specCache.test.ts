// The lenses' run spec cache: a second ask reads nothing while the files it was loaded from are as
// they were; a change to any of them (the prompt, its sidecar, a dataset, one that appears or goes)
// loads it again.
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Files } from '../../../src/core/ports';
import { NodeFiles } from '../../../src/node/files';
import { RunSpecCache } from '../../../src/server/specCache';

const DATA = Array.from({ length: 30 }, (_, i) => JSON.stringify({ question: `q${i}`, expected: i })).join('\n');

let dir: string;
let reads: string[];
/** The disk, with each read of a file's text noted. */
let files: Files;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ratchet-spec-cache-'));
  writeFileSync(join(dir, 't.prompt.md'), 'Solve: {{question}}\n');
  writeFileSync(join(dir, 't.ratchet.yaml'), 'dataset: d.jsonl\nscorer: numeric\nseed: 1\n');
  writeFileSync(join(dir, 'd.jsonl'), DATA);
  reads = [];
  const disk = new NodeFiles();
  files = Object.assign(Object.create(disk) as NodeFiles, {
    tryReadText: (p: string) => {
      reads.push(p);
      return disk.tryReadText(p);
    },
  });
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('RunSpecCache', () => {
  it('loads a prompt’s spec once while none of its files changes', async () => {
    const cache = new RunSpecCache(files);
    const prompt = join(dir, 't.prompt.md');
    expect((await cache.spec(prompt))?.seed).toBe(1);
    const first = reads.length;
    expect(first).toBeGreaterThan(0);
    expect((await cache.spec(prompt))?.seed).toBe(1);
    expect(reads.length).toBe(first);
  });

  it('loads it again when the sidecar, the dataset or the prompt changes', async () => {
    const cache = new RunSpecCache(files);
    const prompt = join(dir, 't.prompt.md');
    await cache.spec(prompt);
    writeFileSync(join(dir, 't.ratchet.yaml'), 'dataset: d.jsonl\nscorer: numeric\nseed: 2\n');
    expect((await cache.spec(prompt))?.seed).toBe(2);

    // The dataset now misses a field the prompt uses: the spec still loads (its problems are
    // diagnostics), but it was read again.
    const before = reads.length;
    writeFileSync(join(dir, 'd.jsonl'), `${DATA}\n`);
    await cache.spec(prompt);
    expect(reads.length).toBeGreaterThan(before);

    writeFileSync(join(dir, 't.prompt.md'), '---\nratchet: { seed: 3 }\n---\nSolve: {{question}}\n');
    writeFileSync(join(dir, 't.ratchet.yaml'), 'dataset: d.jsonl\nscorer: numeric\n');
    expect((await cache.spec(prompt))?.seed).toBe(3);
  });

  it('sees a file appear or go: a spec that did not load loads once its dataset is written; without its sidecar it names no dataset', async () => {
    const cache = new RunSpecCache(files);
    const prompt = join(dir, 't.prompt.md');
    unlinkSync(join(dir, 'd.jsonl'));
    expect(await cache.spec(prompt)).toBeUndefined();
    writeFileSync(join(dir, 'd.jsonl'), DATA);
    expect(await cache.spec(prompt)).toBeDefined();
    unlinkSync(join(dir, 't.ratchet.yaml'));
    // No sidecar and no front matter: the defaults, with no dataset.
    expect((await cache.spec(prompt))?.dataset).toBeUndefined();
  });
});
