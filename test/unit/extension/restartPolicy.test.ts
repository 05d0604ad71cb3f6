import { describe, expect, it } from 'vitest';
import { RestartPolicy, gaveUpMessage, keepConnection } from '../../../src/extension/server/restartPolicy';

describe('RestartPolicy', () => {
  it('restarts 4 times within 3 minutes, then gives up', () => {
    let t = 0;
    const policy = new RestartPolicy({ now: () => t });
    const verdicts = [0, 10_000, 20_000, 30_000, 40_000].map((at) => {
      t = at;
      return policy.onClosed();
    });
    expect(verdicts).toEqual([
      { restart: true, attempt: 1 },
      { restart: true, attempt: 2 },
      { restart: true, attempt: 3 },
      { restart: true, attempt: 4 },
      { restart: false, crashes: 5, windowMs: 180_000 },
    ]);
  });

  it('forgets crashes older than the window', () => {
    let t = 0;
    const policy = new RestartPolicy({ now: () => t, maxRestarts: 2, windowMs: 1000 });
    policy.onClosed();
    t = 500;
    policy.onClosed();
    t = 1200;
    expect(policy.onClosed()).toEqual({ restart: true, attempt: 2 });
  });

  it("starts a fresh budget after the user's restart", () => {
    const policy = new RestartPolicy({ now: () => 0, maxRestarts: 1 });
    policy.onClosed();
    expect(policy.onClosed().restart).toBe(false);
    policy.reset();
    expect(policy.onClosed()).toEqual({ restart: true, attempt: 1 });
  });

  it('says what happened and what to do', () => {
    expect(gaveUpMessage({ restart: false, crashes: 5, windowMs: 180_000 })).toBe('Ratchet: the language server stopped 5 times in 3 minutes, so it was not started again. Open the log to see why, then restart it.');
  });

  it('keeps the connection through a few transport errors, not more', () => {
    expect([undefined, 1, 3, 4].map(keepConnection)).toEqual([false, true, true, false]);
  });
});
