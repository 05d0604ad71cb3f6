// Prompts, run specs and datasets are UTF-8 or refused at the first byte that is not (issue #27):
// latin-1's "é" (0xE9) used to be read as U+FFFD without a word.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanUtf8 } from '../../../src/core/files/utf8';
import { NodeFiles } from '../../../src/node/files';

const dir = mkdtempSync(join(tmpdir(), 'ratchet-utf8-'));
function file(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

async function lines(path: string): Promise<string[]> {
  const out: string[] = [];
  for await (const line of (await new NodeFiles().tryReadLines(path))!) out.push(line);
  return out;
}

describe('scanUtf8', () => {
  it.each([
    ['ASCII', [0x61, 0x62], { complete: 2 }],
    ['é in UTF-8', [0x63, 0xc3, 0xa9], { complete: 3 }],
    ['é in latin-1', [0x63, 0x61, 0x66, 0xe9, 0x0a], { invalidAt: 3, complete: 3 }],
    ['an overlong "/"', [0xc0, 0xaf], { invalidAt: 0, complete: 0 }],
    ['a surrogate', [0xed, 0xa0, 0x80], { invalidAt: 0, complete: 0 }],
    ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], { invalidAt: 0, complete: 0 }],
    ['a character cut off at the end', [0x61, 0xe2, 0x82], { complete: 1 }],
  ])('%s', (_, bytes, expected) => {
    expect(scanUtf8(Uint8Array.from(bytes))).toEqual(expected);
  });
});

describe('NodeFiles reads UTF-8 or refuses, naming the file, the line and the byte', () => {
  it('a prompt in latin-1', async () => {
    const path = file('latin1.prompt.md', Buffer.from('Say hi.\nCaf\xe9 {{name}}\n', 'latin1'));
    await expect(new NodeFiles().tryReadText(path)).rejects.toMatchObject({
      code: 'badInput',
      message: `${path}:2: byte 11 (0xE9) is not UTF-8; Ratchet reads prompts, run specs and datasets as UTF-8 — save the file as UTF-8 (from latin-1: iconv -f latin1 -t utf-8).`,
      details: { file: path, line: 2, byteOffset: 11 },
    });
  });

  it('a file that ends inside a character', async () => {
    const path = file('cut.txt', Buffer.from([0x61, 0xe2, 0x82]));
    await expect(new NodeFiles().tryReadText(path)).rejects.toMatchObject({ details: { file: path, line: 1, byteOffset: 1 } });
  });

  it('a JSONL dataset in latin-1, read line by line', async () => {
    const path = file('latin1.jsonl', Buffer.from('{"q":"a"}\n{"q":"b"}\n{"q":"\xe9"}\n', 'latin1'));
    await expect(lines(path)).rejects.toMatchObject({ details: { file: path, line: 3, byteOffset: 26 } });
  });

  it("reads UTF-8 whole, a character split across the stream's chunks included", async () => {
    const head = 'x'.repeat(64 * 1024 - 1);
    const path = file('split.jsonl', Buffer.from(`${head}é\nnext\n`, 'utf8'));
    expect(await lines(path)).toEqual([`${head}é`, 'next', '']);
    expect(await new NodeFiles().tryReadText(path)).toBe(`${head}é\nnext\n`);
  });
});
