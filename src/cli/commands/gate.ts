import type { Command } from 'commander';

export function registerGate(program: Command): void {
  program.command('gate').description('Audit gate decisions from recorded paired outcomes (filled in by the gates work).');
}
