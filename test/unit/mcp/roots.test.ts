// Where an MCP client may point Ratchet: inside its roots, every link followed.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Roots } from '../../../src/mcp/roots';

function tree() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'ratchet-roots-')));
  const root = join(base, 'project');
  const outside = join(base, 'elsewhere');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(root, 'a.prompt.md'), 'a');
  writeFileSync(join(outside, 'b.prompt.md'), 'b');
  symlinkSync(join(outside, 'b.prompt.md'), join(root, 'link.prompt.md'));
  symlinkSync(root, join(base, 'alias'));
  return { base, root, outside };
}

describe('Roots', () => {
  it('takes the client’s roots when it has them, the server’s folders otherwise', async () => {
    const { root, outside } = tree();
    let listed = 0;
    const client = new Roots({ offersRoots: () => true, listRoots: async () => (listed++, { roots: [{ uri: `file://${outside}` }] }) }, [root]);
    expect(await client.folders()).toEqual([outside]);
    await expect(client.resolve(join(root, 'a.prompt.md'))).rejects.toThrow(/is outside the folders this MCP server may use/);
    await client.folders();
    expect(listed).toBe(1);
    client.changed();
    await client.folders();
    expect(listed).toBe(2);
    const none = new Roots({ offersRoots: () => false, listRoots: async () => ({ roots: [] }) }, [root]);
    expect(await none.resolve('a.prompt.md')).toEqual({ path: join(root, 'a.prompt.md'), root });
    // A client that offers roots but lists none leaves the server's folders.
    const empty = new Roots({ offersRoots: () => true, listRoots: async () => ({ roots: [] }) }, [root]);
    expect(await empty.folders()).toEqual([root]);
  });

  it('follows links before it decides: a link out is refused, a link to the root is the root', async () => {
    const { base, root } = tree();
    const roots = new Roots({ offersRoots: () => false, listRoots: async () => ({ roots: [] }) }, [join(base, 'alias')]);
    expect(await roots.resolve(`file://${join(base, 'alias', 'a.prompt.md')}`)).toEqual({ path: join(root, 'a.prompt.md'), root });
    await expect(roots.resolve('link.prompt.md')).rejects.toThrow(/outside/);
    await expect(roots.resolve('../elsewhere/b.prompt.md')).rejects.toThrow(/outside/);
    await expect(roots.resolve('missing.prompt.md')).rejects.toMatchObject({ code: 'notFound' });
  });
});
