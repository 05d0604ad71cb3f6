/**
 * The jail's seccomp filter, as bubblewrap's `--seccomp FD` takes it: a classic BPF program,
 * built here (no libseccomp). It refuses the kernel keyring calls — keyctl, add_key, request_key —
 * with EPERM. A process keeps the session keyring of whoever started it, through every namespace
 * bubblewrap makes, and possesses the keys in it: a key a login session, `keyctl add … @s` or a
 * Kerberos KEYRING: cache put there would be the program's to read. Docker's default profile
 * refuses the same calls for the same reason. Every other call is allowed.
 *
 * The calls are refused under each ABI a process of the machine can use: x86-64 (and its x32 form,
 * refused whole) with i386, AArch64 with 32-bit ARM. On another architecture there is no filter
 * (undefined), and docs/sandbox.md says so.
 */
import { endianness } from 'node:os';

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
/** SECCOMP_RET_ERRNO | EPERM. */
const RET_EPERM = 0x00050001;
/** Offsets in struct seccomp_data. */
const NR = 0;
const ARCH = 4;
const X32_BIT = 0x40000000;

interface Abi {
  audit: number;
  /** keyctl, add_key, request_key. */
  calls: number[];
  x32?: boolean;
}

const ABIS: Record<string, Abi[]> = {
  x64: [
    { audit: 0xc000003e, calls: [250, 248, 249], x32: true },
    { audit: 0x40000003, calls: [288, 286, 287] },
  ],
  arm64: [
    { audit: 0xc00000b7, calls: [219, 217, 218] },
    { audit: 0x40000028, calls: [311, 309, 310] },
  ],
};

type Insn = [code: number, jt: number, jf: number, k: number];

/** The filter's bytes for this machine's architecture, or undefined where there is none. */
export function keyringFilter(arch: string = process.arch): Buffer | undefined {
  const abis = ABIS[arch];
  if (abis === undefined) return undefined;
  const prog: Insn[] = [];
  for (const abi of abis) {
    // Each ABI's block: its arch, else on to the next block; then each call, refused; else allowed.
    const body: Insn[] = [[LD_W_ABS, 0, 0, NR]];
    const checks = [...(abi.x32 ? [[JGE_K, X32_BIT] as const] : []), ...abi.calls.map((c) => [JEQ_K, c] as const)];
    // From check i, the refusal is after the remaining checks and the allow.
    checks.forEach(([code, k], i) => body.push([code, checks.length - i, 0, k]));
    body.push([RET_K, 0, 0, RET_ALLOW], [RET_K, 0, 0, RET_EPERM]);
    prog.push([LD_W_ABS, 0, 0, ARCH], [JEQ_K, 0, body.length, abi.audit], ...body);
  }
  prog.push([RET_K, 0, 0, RET_ALLOW]);
  const out = Buffer.alloc(prog.length * 8);
  const le = endianness() === 'LE';
  prog.forEach(([code, jt, jf, k], i) => {
    if (le) out.writeUInt16LE(code, i * 8);
    else out.writeUInt16BE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    if (le) out.writeUInt32LE(k, i * 8 + 4);
    else out.writeUInt32BE(k, i * 8 + 4);
  });
  return out;
}
