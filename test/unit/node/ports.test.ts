import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LlmClient } from '../../../src/core/ports';
import { SeededRandom } from '../../../src/core/random';
import { nodePorts } from '../../../src/node/ports';

const llm: LlmClient = {
  chat: () => Promise.reject(new Error('not used')),
  embed: () => Promise.reject(new Error('not used')),
};

describe('nodePorts', () => {
  it('assembles working ports whose randomness is the seed’s', async () => {
    const ports = nodePorts({ llm, seed: 42, log: { write: () => undefined } });
    const reference = new SeededRandom(42);
    expect([ports.random.next(), ports.random.int(1000)]).toEqual([reference.next(), reference.int(1000)]);
    expect(ports.llm).toBe(llm);
    expect(Math.abs(ports.clock.now() - Date.now())).toBeLessThan(60_000);
    expect(ports.files.join('a', 'b')).toBe(`a${path.sep}b`);
    const echo = await ports.proc.run(process.execPath, ['-e', 'console.log(1 + 1)'], {});
    expect(echo.stdout).toBe('2\n');
    await ports.close();
  });
});
