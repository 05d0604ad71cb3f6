// The editor's per-call timeout on the server side: checked, then handed to runs as an override of
// every run spec's callTimeoutSeconds.
import { describe, expect, it } from 'vitest';
import { readSettings, settingsOverrides } from '../../../src/server/settings';

describe('server settings: the per-call timeout', () => {
  it('passes a good timeout to runs and reports a bad one', () => {
    expect(settingsOverrides(readSettings({ provider: 'openai', trusted: true, callTimeoutSeconds: 600 }).settings)).toEqual({ callTimeoutSeconds: 600 });
    const { settings, problems } = readSettings({ provider: 'openai', trusted: true, callTimeoutSeconds: -3 });
    expect(settings.callTimeoutSeconds).toBeUndefined();
    expect(problems).toEqual(['ratchet settings: callTimeoutSeconds must be a number of seconds above 0; ignored']);
  });
});
