import { describe, expect, it } from 'vitest';
import { isolationWords } from '../../../src/core/code/isolation';

describe('isolationWords', () => {
  it('says what each tier keeps from the program, for the network the spec asks', () => {
    expect(isolationWords('jail', 'off')).toBe('isolated: no network, no home, own process tree');
    expect(isolationWords('jail', 'on')).toBe('isolated: network on, no home, own process tree');
    expect(isolationWords('namespaces', 'off')).toBe('partly isolated: own process tree, no network; the program can read your files');
    expect(isolationWords('none', 'off')).toBe('not isolated: the program can read your files, see your processes and reach the network');
    expect(isolationWords('none', 'on')).toBe('not isolated: the program can read your files and see your processes');
    expect(isolationWords('off', 'off')).toBe('not isolated (evaluator.isolation: off): the program can read your files, see your processes and reach the network');
  });
});
