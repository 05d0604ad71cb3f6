import { describe, expect, it } from 'vitest';
import { COMMANDS, notYetMessage, routeCommand, serverDownMessage } from '../../../src/extension/commandTable';

describe('routeCommand', () => {
  it.each([
    ['evolve', 'running', 'run'],
    ['evolve', 'stopped', 'serverDown'],
    ['evolve', 'failed', 'serverDown'],
    ['evolve', 'starting', 'waitForServer'],
    ['testConnection', 'starting', 'waitForServer'],
    ['acceptSuggestion', 'stopped', 'serverDown'],
    ['setApiKey', 'stopped', 'run'],
    ['setApiKey', 'starting', 'run'],
    ['restartServer', 'failed', 'run'],
    ['showPanel', 'stopped', 'run'],
    ['startCodeSearch', 'running', 'run'],
    ['startCodeSearch', 'stopped', 'serverDown'],
    ['generateDevSet', 'running', 'run'],
    ['generateDevSet', 'failed', 'serverDown'],
  ] as const)('%s with the server %s → %s', (name, phase, route) => {
    expect(routeCommand(COMMANDS[name], phase)).toBe(route);
  });

  it('restart is always possible: it is how the user gets the server back', () => {
    expect(COMMANDS.restartServer.needsServer).toBe(false);
  });
});

describe('messages', () => {
  it('says plainly that a stub is not available yet', () => {
    const stub = { title: 'Explain Run', needsServer: false, notYet: 'run explanations' };
    expect(routeCommand(stub, 'running')).toBe('notYet');
    expect(notYetMessage(stub)).toBe('Ratchet: "Explain Run" is not available yet in this build — run explanations is coming in a later version.');
  });

  it('says the server is down, and what to do', () => {
    expect(serverDownMessage(COMMANDS.evolve, 'stopped')).toBe('Ratchet: "Evolve Prompt" needs the Ratchet language server, which is stopped. Restart it, or open the log to see why it stopped.');
  });
});
