// The extension starts the language server with a compile cache in the user's own storage
// (serverHost.ts): the server writes the code it compiled there as soon as it is initialized, not
// only at a clean exit, so the next start — every window reload — reads it instead of compiling
// its bundle again (bench:bundles prints both starts).
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SERVER, TestClient } from './serverHarness';

beforeAll(() => {
  if (!existsSync(SERVER)) execSync('npm run build', { stdio: 'inherit' });
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Bytes of the files under `dir`, however Node lays its cache out. */
function bytesUnder(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((n, e) => n + statSync(join(e.parentPath, e.name)).size, 0);
}

describe('the language server and its compile cache', () => {
  it('writes the code it compiled into the cache it was given once initialized, while it still runs', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ratchet-compile-cache-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const cache = join(root, 'node-compile-cache');
    const workspace = join(root, 'workspace');
    mkdirSync(workspace);
    const client = await TestClient.start({ folders: [workspace], settings: { provider: 'openai', trusted: false }, env: { NODE_COMPILE_CACHE: cache } });
    cleanups.push(() => client.stop());
    // The flush follows `initialized`: wait for its effect with a generous deadline, never a fixed pause.
    const deadline = Date.now() + 60_000;
    while (bytesUnder(cache) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // The shared bundle alone compiles to hundreds of kilobytes.
    expect(bytesUnder(cache)).toBeGreaterThan(100_000);
    expect(client.child.exitCode).toBeNull();
  });
});
