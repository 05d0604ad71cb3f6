// The extension forks the language server itself (serverProcess.ts), as the language client
// library did: node IPC, the extension host's pid to watch, run-as-node for Electron, the
// environment on top of the host's, the heap limit the user set.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { forkServer, isAlive, ServerProcesses } from '../../../src/extension/server/serverProcess';

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

describe('ServerProcesses', () => {
  const script = (body: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'ratchet-server-processes-'));
    dirs.push(dir);
    const module = join(dir, 'server.js');
    writeFileSync(module, body);
    return module;
  };
  const exited = (child: ChildProcess) => (isAlive(child) ? new Promise((resolve) => child.once('exit', resolve)) : Promise.resolve());

  it('hands the client the process forked ahead, then a fresh one for each restart', async () => {
    // A server that stays up until it is told to go (or its IPC channel closes).
    const processes = new ServerProcesses({ module: script("process.on('message', () => process.exit(0)); process.on('disconnect', () => process.exit(0));\n"), execArgv: [], env: {} });
    processes.ahead();
    const first = processes.take();
    expect(processes.current).toBe(first);
    const restart = processes.take();
    expect(restart.pid).not.toBe(first.pid);
    for (const child of [first, restart]) {
      child.kill();
      await exited(child);
    }
  });

  it('does not hand over a process forked ahead that ended before the client took it: the client could never hear its end', async () => {
    // A server that crashes as it boots.
    const forked: ChildProcess[] = [];
    const counting = new ServerProcesses({ module: script('process.exit(3);\n'), execArgv: [], env: {} }, (o) => {
      const child = forkServer(o);
      forked.push(child);
      return child;
    });
    counting.ahead();
    await exited(forked[0]!);
    const taken = counting.take();
    expect(forked).toHaveLength(2);
    expect(taken).toBe(forked[1]);
    await exited(taken);
  });

  it('kills a process forked ahead that no start took', async () => {
    let child: ChildProcess | undefined;
    const processes = new ServerProcesses({ module: script('setInterval(() => undefined, 1000);\n'), execArgv: [], env: {} }, (o) => (child = forkServer(o)));
    processes.ahead();
    processes.dropUnclaimed();
    await exited(child!);
    expect(isAlive(child!)).toBe(false);
    expect(child!.signalCode).toBe('SIGTERM');
  });
});
