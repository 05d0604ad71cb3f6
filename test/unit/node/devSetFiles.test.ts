import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NodeFiles } from '../../../src/node/files';
import { writeFilePair } from '../../../src/node/runs/devSetFiles';

/** The real file system, except that writing `failing` fails as a full disk does. */
class FullDiskAt extends NodeFiles {
  constructor(private readonly failing: string) {
    super();
  }
  override async writeTextAtomic(file: string, text: string): Promise<void> {
    if (file === this.failing) throw Object.assign(new Error(`ENOSPC: no space left on device, write '${file}'`), { code: 'ENOSPC' });
    await super.writeTextAtomic(file, text);
  }
}

function folder() {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-pair-'));
  return { dev: join(dir, 'x.dev.jsonl'), test: join(dir, 'x.test.jsonl') };
}

// Not UTF-8 (latin-1 "é"): put back byte for byte, not as the text it would decode to.
const OLD_DEV = Buffer.from([0x7b, 0x22, 0x71, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d, 0x0a]);
const OLD_TEST = '{"q":"old test"}\n';

describe('writeFilePair: the dev set and its test split, both or neither', () => {
  it('writes both', async () => {
    const p = folder();
    writeFileSync(p.dev, OLD_DEV);
    await writeFilePair(new NodeFiles(), { path: p.dev, text: 'new dev\n' }, { path: p.test, text: 'new test\n' });
    expect(readFileSync(p.dev, 'utf8')).toBe('new dev\n');
    expect(readFileSync(p.test, 'utf8')).toBe('new test\n');
  });

  it('when the test split cannot be written, puts the dev set back and says both are as they were', async () => {
    const p = folder();
    writeFileSync(p.dev, OLD_DEV);
    writeFileSync(p.test, OLD_TEST);
    const err = await writeFilePair(new FullDiskAt(p.test), { path: p.dev, text: 'new dev\n' }, { path: p.test, text: 'new test\n' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'badInput', details: { file: p.test } });
    expect((err as Error).message).toBe(`${p.test} could not be written (ENOSPC); ${p.dev} was put back, so both files are as they were.`);
    expect(readFileSync(p.dev).equals(OLD_DEV)).toBe(true);
    expect(readFileSync(p.test, 'utf8')).toBe(OLD_TEST);
  });

  it('when there was no dev set before, removes the new one again', async () => {
    const p = folder();
    const err = await writeFilePair(new FullDiskAt(p.test), { path: p.dev, text: 'new dev\n' }, { path: p.test, text: 'new test\n' }).catch((e: unknown) => e);
    expect((err as Error).message).toContain('both files are as they were');
    expect(existsSync(p.dev)).toBe(false);
    expect(existsSync(p.test)).toBe(false);
  });

  it('when the dev set cannot be written, touches neither', async () => {
    const p = folder();
    mkdirSync(p.dev);
    writeFileSync(p.test, OLD_TEST);
    const err = await writeFilePair(new NodeFiles(), { path: p.dev, text: 'new dev\n' }, { path: p.test, text: 'new test\n' }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/could not be written \(.+\); nothing was written: .* are as they were\.$/);
    expect(readFileSync(p.test, 'utf8')).toBe(OLD_TEST);
  });
});
