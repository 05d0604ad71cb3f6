/**
 * Prompts, run specs and datasets are read as UTF-8, strictly. A lenient decoder turns each byte
 * of another encoding (latin-1's "é" is the lone byte 0xE9) into U+FFFD without a word: the model
 * is then shown "caf�", and an edit written back over the file replaces the user's bytes for good.
 * So a file that is not UTF-8 is refused, naming the first byte that is not, where it is.
 */

export interface Utf8Scan {
  /** Offset of the first byte that starts no valid sequence; undefined when every byte does. */
  invalidAt?: number;
  /** Bytes from the start that end on a whole sequence; the rest (at most 3) may be the start of one cut off by the buffer's end. */
  complete: number;
}

/** Validates UTF-8 as the standard has it: no overlong forms, no surrogates, nothing past U+10FFFF. */
export function scanUtf8(bytes: Uint8Array): Utf8Scan {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const need = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
    if (need === 0) return { invalidAt: i, complete: i };
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return { complete: i };
      if (!continues(lead, k, bytes[i + k]!)) return { invalidAt: i, complete: i };
    }
    i += need + 1;
  }
  return { complete: n };
}

function continues(lead: number, k: number, byte: number): boolean {
  if ((byte & 0xc0) !== 0x80) return false;
  if (k > 1) return true;
  // The second byte's narrower ranges: no overlong three- or four-byte forms, no surrogates, nothing past U+10FFFF.
  if (lead === 0xe0) return byte >= 0xa0;
  if (lead === 0xed) return byte <= 0x9f;
  if (lead === 0xf0) return byte >= 0x90;
  if (lead === 0xf4) return byte <= 0x8f;
  return true;
}

/** `<file>:<line>: byte <offset> (0xE9) is not UTF-8 …` — what to do included. */
export function notUtf8Message(file: string, offset: number, byte: number | undefined, line: number): string {
  const shown = byte === undefined ? `the file ends inside a character, at byte ${offset}` : `byte ${offset} (0x${byte.toString(16).toUpperCase().padStart(2, '0')}) is not UTF-8`;
  return `${file}:${line}: ${shown}; Ratchet reads prompts, run specs and datasets as UTF-8 — save the file as UTF-8 (from latin-1: iconv -f latin1 -t utf-8).`;
}
