// The jail's seccomp filter as bytes; that it refuses the keyring calls in a real jail is proven by
// test/integration/cli-search-hostile.test.ts ("a key in the session keyring").
import { describe, expect, it } from 'vitest';
import { keyringFilter } from '../../../src/node/sandbox/seccomp';

/** The program as [code, jt, jf, k] instructions (little-endian, as on x86-64 and AArch64). */
function decode(b: Buffer): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < b.length; i += 8) out.push([b.readUInt16LE(i), b.readUInt8(i + 2), b.readUInt8(i + 3), b.readUInt32LE(i + 4)]);
  return out;
}

/** Runs the filter on one call, as the kernel would: what it returns. */
function run(prog: number[][], arch: number, nr: number): number {
  for (let pc = 0, a = 0; pc < prog.length;) {
    const [code, jt, jf, k] = prog[pc]!;
    if (code === 0x20) a = k === 0 ? nr : arch;
    else if (code === 0x15) pc += a === k ? jt! : jf!;
    else if (code === 0x35) pc += a >= k! ? jt! : jf!;
    else if (code === 0x06) return k!;
    pc++;
  }
  throw new Error('fell off the end');
}

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;

describe('keyringFilter', () => {
  it('x86-64: keyctl, add_key and request_key refused under x86-64 and i386, x32 refused whole, everything else allowed', () => {
    const prog = decode(keyringFilter('x64')!);
    const [x64, i386] = [0xc000003e, 0x40000003];
    for (const nr of [248, 249, 250]) expect(run(prog, x64, nr)).toBe(EPERM);
    for (const nr of [286, 287, 288]) expect(run(prog, i386, nr)).toBe(EPERM);
    expect(run(prog, x64, 0x40000000 + 250)).toBe(EPERM);
    for (const nr of [0, 1, 59, 101, 251, 286]) expect(run(prog, x64, nr)).toBe(ALLOW);
    for (const nr of [3, 4, 250]) expect(run(prog, i386, nr)).toBe(ALLOW);
  });

  it('AArch64: the same calls refused under AArch64 and 32-bit ARM', () => {
    const prog = decode(keyringFilter('arm64')!);
    for (const nr of [217, 218, 219]) expect(run(prog, 0xc00000b7, nr)).toBe(EPERM);
    for (const nr of [309, 310, 311]) expect(run(prog, 0x40000028, nr)).toBe(EPERM);
    for (const nr of [63, 64, 220]) expect(run(prog, 0xc00000b7, nr)).toBe(ALLOW);
  });

  it('no filter on an architecture it does not know', () => {
    expect(keyringFilter('riscv64')).toBeUndefined();
  });
});
