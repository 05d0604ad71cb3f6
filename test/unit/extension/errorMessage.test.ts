// Issue #29 item 10: a broken spec's toast said its problem twice, with absolute paths. Now once,
// at the workspace-relative path; the log keeps the full one.
import { describe, expect, it, vi } from 'vitest';
vi.mock('vscode', () => ({ window: {}, workspace: {} }));
const { userMessage } = await import('../../../src/extension/errors');
const { badInputError, diagnostic } = await import('../../../src/core/data/diagnostics');

describe('userMessage', () => {
  const relative = (p: string) => p.replace('/home/u/w/', '');

  it('says a broken spec’s problem once, at the workspace-relative path', () => {
    const err = badInputError([diagnostic({ file: '/home/u/w/math/t.ratchet.yaml', line: 3, column: 1, endLine: 3, endColumn: 6 }, 'unknown key "gatee"; did you mean "gate"?')]);
    const said = userMessage('Evolve', err, relative);
    expect(said).toBe('Ratchet: Evolve failed — math/t.ratchet.yaml:3:1: unknown key "gatee"; did you mean "gate"?');
    expect(said.split('unknown key').length).toBe(2);
    expect(said).not.toContain('/home/u/w');
  });

  it('names the place when the message does not', () => {
    const err = Object.assign(new Error('The evaluator is missing.'), {});
    expect(userMessage('Start Code Search', err, relative)).toBe('Ratchet: Start Code Search failed — The evaluator is missing.');
  });
});
