/**
 * `@noble/hashes` as the extension host sees it (scripts/build.mjs aliases `@noble/hashes/sha2.js`
 * and `@noble/hashes/utils.js` to this file in the extension host's bundles only). The core hashes
 * with @noble so it runs anywhere; the extension host is Node, whose built-in SHA-256 gives the same
 * bytes without bundling ~6 KB of JavaScript into activation. An import of anything else fails the
 * build ("No matching export").
 */
import { createHash } from 'node:crypto';

export function sha256(bytes: Uint8Array): Uint8Array {
  return createHash('sha256').update(bytes).digest();
}

export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
