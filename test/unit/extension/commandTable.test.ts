import { describe, expect, it } from 'vitest';
import { COMMANDS, notYetMessage, routeCommand, serverDownMessage } from '../../../src/extension/commandTable';

describe('routeCommand', () => {
  it.each([
    ['evolve', true, 'run'],
    ['evolve', false, 'serverDown'],
    ['acceptSuggestion', false, 'serverDown'],
    ['setApiKey', false, 'run'],
    ['restartServer', false, 'run'],
    ['showPanel', false, 'run'],
    ['startCodeSearch', true, 'run'],
    ['startCodeSearch', false, 'serverDown'],
    ['generateDevSet', true, 'run'],
    ['generateDevSet', false, 'serverDown'],
  ] as const)('%s with the server %s → %s', (name, running, route) => {
    expect(routeCommand(COMMANDS[name], running)).toBe(route);
  });

  it('restart is always possible: it is how the user gets the server back', () => {
    expect(COMMANDS.restartServer.needsServer).toBe(false);
  });
});

describe('messages', () => {
  it('says plainly that a stub is not available yet', () => {
    const stub = { title: 'Explain Run', needsServer: false, notYet: 'run explanations' };
    expect(routeCommand(stub, true)).toBe('notYet');
    expect(notYetMessage(stub)).toBe('Ratchet: "Explain Run" is not available yet in this build — run explanations is coming in a later version.');
  });

  it('says the server is down, and what to do', () => {
    expect(serverDownMessage(COMMANDS.evolve, 'stopped')).toBe('Ratchet: "Evolve Prompt" needs the Ratchet language server, which is stopped. Restart it, or open the log to see why it stopped.');
  });
});
