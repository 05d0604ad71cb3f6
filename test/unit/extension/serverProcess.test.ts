// The extension forks the language server itself (serverProcess.ts), as the language client
// library did: node IPC, the extension host's pid to watch, run-as-node for Electron, the
// environment on top of the host's, the heap limit the user set.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forkServer, isAlive } from '../../../src/extension/server/serverProcess';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('forkServer', () => {
  it('starts the server module over node IPC with the host pid, its env on top of the host’s, and the given execArgv', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-server-process-'));
    dirs.push(dir);
    // A stand-in server: says what it was started with over the IPC channel, then exits.
    const module = join(dir, 'server.js');
    writeFileSync(
      module,
      'process.send({ argv: process.argv.slice(2), execArgv: process.execArgv, env: { cache: process.env.NODE_COMPILE_CACHE, asNode: process.env.ELECTRON_RUN_AS_NODE, path: process.env.PATH } }, () => process.exit(0));\n',
    );
    const child = forkServer({ module, execArgv: ['--max-old-space-size=300'], env: { NODE_COMPILE_CACHE: join(dir, 'cache') } });
    const said = await new Promise<{ argv: string[]; execArgv: string[]; env: Record<string, string | undefined> }>((resolve) => child.once('message', resolve as never));
    await new Promise((resolve) => child.once('exit', resolve));
    expect(said.argv).toEqual(['--node-ipc', `--clientProcessId=${process.pid}`]);
    expect(said.execArgv).toEqual(['--max-old-space-size=300']);
    expect(said.env).toEqual({ cache: join(dir, 'cache'), asNode: '1', path: process.env.PATH });
    expect(isAlive(child)).toBe(false);
  });
});
