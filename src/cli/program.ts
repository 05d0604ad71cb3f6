/**
 * `ratchet`: the headless face of the engine. Each subcommand lives in src/cli/commands/ and
 * registers itself here; all share the exit codes of exitCodes.ts and print errors to stderr as
 * one actionable sentence.
 */
import { Command, CommanderError } from 'commander';
import { RatchetError } from '../core/errors';
import { redactText, redactUrlsIn } from '../core/redact';
import { EXIT_ERROR } from './exitCodes';
import { checkWorkspaceFlag } from './workspaceFlag';
import { registerBench } from './commands/bench';
import { registerRuns } from './commands/runs';
import { registerEvolve } from './commands/evolve';
import { registerGate } from './commands/gate';
import { registerGenData } from './commands/genData';
import { registerSearch } from './commands/search';
import { registerMcp } from './commands/mcp';
import { registerCheck } from './commands/check';

export function buildProgram(): Command {
  const program = new Command('ratchet')
    .description('Gated prompt and code evolution: an edit lands only when the evidence says it is better.')
    .version(version())
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .hook('preAction', (_program, action) => checkWorkspaceFlag(action));
  registerRuns(program, version());
  registerEvolve(program, version());
  registerGate(program);
  registerSearch(program, version());
  registerBench(program);
  registerGenData(program, version());
  registerMcp(program, version());
  registerCheck(program, version());
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version exit through here with code 0; usage errors with 1, which we map to 2.
      return err.exitCode === 0 ? 0 : EXIT_ERROR;
    }
    process.stderr.write(`ratchet: ${describe(err)}\n`);
    return EXIT_ERROR;
  }
}

/** The error's one sentence; a secret in it (a key, a URL's password or `?api-key=`) never reaches the terminal. */
function describe(err: unknown): string {
  const text = RatchetError.is(err) || err instanceof Error ? err.message : String(err);
  return redactUrlsIn(redactText(text));
}

/** Set by the esbuild define in scripts/build.mjs; 'dev' when run from source (tests). */
declare const RATCHET_VERSION: string | undefined;
function version(): string {
  return typeof RATCHET_VERSION === 'string' ? RATCHET_VERSION : 'dev';
}
