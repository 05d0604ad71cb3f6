import type { Command } from 'commander';

export function registerRuns(program: Command): void {
  program.command('runs').description('List, show and export run journals (filled in by the journal work).');
}
