// The extension host's bundles hash with Node's SHA-256 in place of @noble/hashes
// (scripts/build.mjs aliases it): the digests and their hex must be the core's, byte for byte,
// or a content hash the editor computes would not match the engine's.
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { bytesToHex as nobleHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { bytesToHex, sha256 } from '../../../src/extension/lazy/nodeSha256';

describe("the extension host's SHA-256", () => {
  const encoder = new TextEncoder();
  it.each(['', 'abc', 'candidate\u001fseed 7', 'non-ASCII — ↔ ’ 数字', 'x'.repeat(100_000)])('gives @noble’s digest and hex for %#', (text) => {
    const bytes = encoder.encode(text);
    expect(bytesToHex(sha256(bytes))).toBe(nobleHex(nobleSha256(bytes)));
  });

  it('reads only the view it is given, not the whole buffer under it', () => {
    const whole = encoder.encode('prefix|payload|suffix');
    const view = whole.subarray(7, 14);
    expect(bytesToHex(sha256(view))).toBe(nobleHex(nobleSha256(encoder.encode('payload'))));
    expect(bytesToHex(view)).toBe(nobleHex(view));
  });
});
