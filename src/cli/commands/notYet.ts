/**
 * Subcommands whose engines are not built yet (dev-set generation). They are
 * listed in --help so the CLI's shape is stable, and they say plainly that they cannot run yet.
 */
import type { Command } from 'commander';
import { RatchetError } from '../../core/errors';

const PENDING = [
  { name: 'gen-data', what: 'writing a dev set when you have none (Challenger role)', args: '[prompt-file]' },
];

export function registerNotYet(program: Command): void {
  for (const p of PENDING) {
    program
      .command(p.name)
      .description(`${p.what} — not available yet`)
      .argument(p.args)
      .allowUnknownOption()
      .action(() => {
        throw new RatchetError('badInput', `\`ratchet ${p.name}\` (${p.what}) is not available yet in this version; nothing was run.`);
      });
  }
}
