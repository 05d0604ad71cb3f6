// Where a workspace's run daemon listens: the same folders (in any order) and version find the
// same daemon after a reload; other folders or another version get their own; the directory that
// holds the socket is the user's alone.
import { chmodSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonAddress, ensureDaemonDir } from '../../../src/node/daemonAddress';

const saved = process.env.TMPDIR;
afterEach(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
});

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

  it.skipIf(process.platform === 'win32')('makes the socket directory private, and closes one left open', () => {
    process.env.TMPDIR = mkdtempSync(join(tmpdir(), 'ratchet-addr-'));
    const address = daemonAddress(['/w'], '0.1.0');
    ensureDaemonDir(address);
    expect(statSync(dirname(address.socket)).mode & 0o777).toBe(0o700);
    chmodSync(dirname(address.socket), 0o755);
    ensureDaemonDir(address);
    expect(statSync(dirname(address.socket)).mode & 0o777).toBe(0o700);
  });
});
