// Where a workspace's run daemon listens: the same folders (in any order) and version find the
// same daemon after a reload; other folders or another version get their own; the directory that
// holds the socket is the user's alone — a link or a folder another user planted there is refused.
import { chmodSync, chownSync, lchownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { daemonAddress, ensureDaemonDir } from '../../../src/node/daemonAddress';

const NOBODY = 65534;
const saved = process.env.TMPDIR;
let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ratchet-addr-'));
});
afterEach(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
  rmSync(scratch, { recursive: true, force: true });
});

/** The address a user with no XDG_RUNTIME_DIR gets under a tmpdir of the test's own. */
function inScratch() {
  process.env.TMPDIR = scratch;
  return daemonAddress(['/w'], '0.1.0', {});
}

function refusal(address: ReturnType<typeof daemonAddress>): RatchetError {
  try {
    ensureDaemonDir(address);
  } catch (err) {
    if (RatchetError.is(err)) return err;
    throw err;
  }
  throw new Error('ensureDaemonDir accepted the directory');
}

const mode = (p: string) => statSync(p).mode & 0o777;

describe('daemonAddress', () => {
  it('is the same for the same folders in any order and the same version, and differs otherwise', () => {
    const a = daemonAddress(['/w/one', '/w/two'], '0.1.0');
    expect(daemonAddress(['/w/two', '/w/one/'], '0.1.0')).toEqual(a);
    expect(daemonAddress(['/w/one'], '0.1.0').socket).not.toBe(a.socket);
    expect(daemonAddress(['/w/one', '/w/two'], '0.2.0').socket).not.toBe(a.socket);
  });

  it('keeps the socket path short enough for a Unix socket', () => {
    expect(Buffer.byteLength(daemonAddress(['/' + 'x'.repeat(300)], '0.1.0').socket)).toBeLessThan(104);
  });

  it.skipIf(process.platform === 'win32')('prefers $XDG_RUNTIME_DIR, and ignores a relative one as the spec says', () => {
    const runtime = join(scratch, 'run-user');
    mkdirSync(runtime, { mode: 0o700 });
    const address = daemonAddress(['/w'], '0.1.0', { XDG_RUNTIME_DIR: runtime });
    expect(dirname(address.socket)).toBe(join(runtime, 'ratchet'));
    expect(dirname(address.log)).toBe(join(runtime, 'ratchet'));
    ensureDaemonDir(address);
    expect(mode(join(runtime, 'ratchet'))).toBe(0o700);

    process.env.TMPDIR = scratch;
    expect(dirname(daemonAddress(['/w'], '0.1.0', { XDG_RUNTIME_DIR: 'run/user' }).socket)).toBe(join(scratch, `ratchet-${process.getuid!()}`));
  });
});

describe.skipIf(process.platform === 'win32')('ensureDaemonDir', () => {
  it('makes the socket directory private, and closes one left open', () => {
    const address = inScratch();
    ensureDaemonDir(address);
    expect(mode(dirname(address.socket))).toBe(0o700);
    chmodSync(dirname(address.socket), 0o755);
    ensureDaemonDir(address);
    expect(mode(dirname(address.socket))).toBe(0o700);
  });

  it('refuses a symbolic link planted at its path, and leaves the folder it points at as it was', () => {
    const address = inScratch();
    const dir = dirname(address.socket);
    // A folder of the victim's that the planter knows of, and a link to it where the socket folder goes.
    const target = join(scratch, 'victims-folder');
    mkdirSync(target);
    chmodSync(target, 0o755);
    symlinkSync(target, dir);
    // The link is the other user's, as a planted one would be (only root can give it away).
    if (process.getuid!() === 0) lchownSync(dir, NOBODY, NOBODY);

    const err = refusal(address);
    expect(err.toJSON()).toEqual({
      code: 'internal',
      message: `Ratchet will not put its run socket (which carries your API key) in ${dir}: it is a symbolic link (someone may have planted it to redirect the socket). Remove the link.`,
      details: { file: dir },
    });
    expect(mode(target)).toBe(0o755);
  });

  it('refuses a dangling link too (mkdir must not create its target)', () => {
    const address = inScratch();
    const dir = dirname(address.socket);
    const target = join(scratch, 'not-yet');
    symlinkSync(target, dir);
    expect(refusal(address).message).toContain('is a symbolic link');
    expect(() => statSync(target)).toThrow();
  });

  it('refuses something that is not a directory', () => {
    const address = inScratch();
    writeFileSync(dirname(address.socket), '');
    expect(refusal(address).message).toContain(': it is not a directory. Remove it.');
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a folder another user owns (needs root, to chown it to nobody)', () => {
    const address = inScratch();
    const dir = dirname(address.socket);
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, NOBODY, NOBODY);
    const err = refusal(address);
    expect(err.message).toContain(`in ${dir}: it belongs to another user (uid ${NOBODY})`);
    expect(err.details).toEqual({ file: dir });
    // Left as it was: not taken over, not chmod'ed.
    expect(statSync(dir).uid).toBe(NOBODY);
    expect(mode(dir)).toBe(0o700);
  });

  it('refuses a parent anyone can write to unless it is sticky, as /tmp is', () => {
    const address = inScratch();
    chmodSync(scratch, 0o777);
    expect(refusal(address).message).toContain(`which anyone can write to and which lacks the sticky bit`);
    expect(() => statSync(dirname(address.socket))).toThrow();
    chmodSync(scratch, 0o1777);
    ensureDaemonDir(address);
    expect(mode(dirname(address.socket))).toBe(0o700);
  });

  it('says where, when the folder it should be made in is missing', () => {
    process.env.TMPDIR = join(scratch, 'gone');
    const address = daemonAddress(['/w'], '0.1.0', {});
    expect(refusal(address).message).toContain(`its parent ${join(scratch, 'gone')} does not exist`);
  });

  it.skipIf(process.platform === 'win32')('a stale $XDG_RUNTIME_DIR (missing, or not private) falls back to tmpdir instead of stopping every run', () => {
    process.env.TMPDIR = scratch;
    const own = join(scratch, `ratchet-${process.getuid!()}`);
    expect(dirname(daemonAddress(['/w'], '0.1.0', { XDG_RUNTIME_DIR: join(scratch, 'gone') }).socket)).toBe(own);
    const open = join(scratch, 'open-runtime');
    mkdirSync(open, { mode: 0o755 });
    chmodSync(open, 0o755);
    expect(dirname(daemonAddress(['/w'], '0.1.0', { XDG_RUNTIME_DIR: open }).socket)).toBe(own);
  });
});
