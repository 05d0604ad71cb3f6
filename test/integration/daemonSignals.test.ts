// The run daemon stopped by a signal exits as an idle one does: its socket file is gone, so the
// next daemon does not meet a stale one (issue #27).
import { execSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const DAEMON = resolve(__dirname, '../../out/runDaemon.js');

beforeAll(() => {
  if (!existsSync(DAEMON)) execSync('npm run build', { stdio: 'inherit' });
});

describe('the run daemon', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'removes its socket after %s',
    async (signal) => {
      const socket = join(mkdtempSync(join(tmpdir(), 'ratchet-daemon-')), 'd.sock');
      const child = spawn(process.execPath, [DAEMON, '--socket', socket, '--keep-alive-ms', '60000'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
      // Listening is the condition, read from the daemon's own log line (no fixed wait).
      await new Promise<void>((res, rej) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('listening on')) res();
        });
        void exited.then(() => rej(new Error(`the daemon exited before listening: ${out}`)));
      });
      expect(existsSync(socket)).toBe(true);
      child.kill(signal);
      expect(await exited).toBe(0);
      expect(out).toContain(`exiting: ${signal} received`);
      expect(existsSync(socket)).toBe(false);
    },
    60_000,
  );
});
