import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countGroup, statFields } from '../../../src/node/sandbox/sandboxWatchdog';

describe('statFields', () => {
  it('reads state and process group after the command name, which may hold spaces and parentheses', () => {
    expect(statFields('4242 (sh) S 4200 4242 4242 0 -1 4194560 …')).toEqual({ state: 'S', pgrp: 4242 });
    expect(statFields('77 (my (odd) name) Z 1 70 70 0')).toEqual({ state: 'Z', pgrp: 70 });
  });
});

describe.skipIf(process.platform !== 'linux')('countGroup', () => {
  it("counts this process's group, which holds at least this process", () => {
    const own = statFields(readFileSync('/proc/self/stat', 'utf8')).pgrp;
    expect(countGroup(own)).toBeGreaterThanOrEqual(1);
    expect(countGroup(2 ** 30)).toBe(0);
  });
});
