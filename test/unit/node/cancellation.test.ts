// The one bridge between AbortSignal and JSON-RPC's CancellationToken, both ways.
import { CancellationTokenSource } from 'vscode-jsonrpc';
import { describe, expect, it } from 'vitest';
import { signalOf, tokenOf } from '../../../src/node/cancellation';

describe('cancellation bridge', () => {
  it('cancels the token when the signal aborts, already or later, and lets go of the signal once disposed', () => {
    const late = new AbortController();
    const a = tokenOf(late.signal);
    expect(a.token.isCancellationRequested).toBe(false);
    late.abort();
    expect(a.token.isCancellationRequested).toBe(true);
    expect(tokenOf(AbortSignal.abort()).token.isCancellationRequested).toBe(true);

    const kept = new AbortController();
    const b = tokenOf(kept.signal);
    b.dispose();
    kept.abort();
    expect(b.token.isCancellationRequested).toBe(false);
  });

  it('aborts the signal when the token is cancelled, already or later', () => {
    const source = new CancellationTokenSource();
    const signal = signalOf(source.token);
    expect(signal.aborted).toBe(false);
    source.cancel();
    expect(signal.aborted).toBe(true);
    const done = new CancellationTokenSource();
    done.cancel();
    expect(signalOf(done.token).aborted).toBe(true);
  });
});
