// The editor's prices on the server side: checked field by field (one bad price is dropped with a
// problem, the rest kept), then handed to runs as overrides below each run spec's own prices.
import { describe, expect, it } from 'vitest';
import { readSettings, settingsOverrides } from '../../../src/server/settings';

describe('server settings: prices and the free endpoint', () => {
  it('keeps the good prices, reports the bad ones, and passes them to runs in the meter’s terms', () => {
    const { settings, problems } = readSettings({ provider: 'openai', trusted: true, prices: { m: { input: 1, output: 2, cachedInput: 0.1 }, x: { input: 'a', output: 1 } }, free: true });
    expect(settings.prices).toEqual({ m: { input: 1, output: 2, cachedInput: 0.1 } });
    expect(problems).toEqual(['ratchet settings: prices.x must be { input, output } in USD per million tokens (numbers ≥ 0); ignored']);
    expect(settingsOverrides(settings)).toEqual({ prices: { m: { inputPerMTok: 1, outputPerMTok: 2, cachedInputPerMTok: 0.1 } }, free: true });
  });

  it('rejects a prices value that is not a map and a free that is not a boolean', () => {
    const { settings, problems } = readSettings({ provider: 'openai', trusted: false, prices: 3, free: 'yes' });
    expect([settings.prices, settings.free]).toEqual([undefined, undefined]);
    expect(problems).toEqual(['ratchet settings: prices must be an object of model id → { input, output }; ignored', 'ratchet settings: free must be true or false; ignored']);
    expect(settingsOverrides(settings)).toEqual({});
  });
});
