// Every command the manifest contributes has a handler when the extension activates: the command
// table's are registered by registerCommands, except `showPanel`, which the panel module owns.
import { describe, expect, it, vi } from 'vitest';

const registered: string[] = [];
vi.mock('vscode', () => ({
  commands: {
    registerCommand: (id: string) => {
      registered.push(id);
      return { dispose: () => undefined };
    },
  },
  window: {},
}));

const { registerCommands } = await import('../../../src/extension/commands');
const { SHOW_PANEL_COMMAND } = await import('../../../src/extension/panel/register');
const { readFileSync } = await import('node:fs');

describe('command handlers', () => {
  it('registers a handler for every contributed command, the panel the one it owns', () => {
    registerCommands({} as Parameters<typeof registerCommands>[0]);
    const contributed = (JSON.parse(readFileSync('package.json', 'utf8')).contributes.commands as { command: string }[]).map((c) => c.command);
    expect([...registered, SHOW_PANEL_COMMAND].sort()).toEqual([...contributed].sort());
  });
});
