/**
 * `ratchet gen-data <prompt-file>`: writes a dev set for a prompt that has none (zero-data, issue
 * #17). The cost estimate is printed before the first call; each round is journaled and printed as
 * a row of the summary table; the dev set and the held-out test split are written next to the
 * prompt (node/genDataRun.ts says which files), never over an existing file without --force.
 */
import type { Command } from 'commander';
import { endpointDefaultsFromEnv } from '../../core/run/endpointDefaults';
import type { EngineEvent } from '../../core/journal/events';
import { resumeGenData, runGenData } from '../../node/runs/genDataRun';
import type { GenDataOptions, GenDataOutcome } from '../../node/runs/genDataRun';
import type { GenDataOverrides } from '../../core/run/overrides';
import type { RoundOutcome } from '../../core/zero/rounds';
import { EXIT_ERROR, EXIT_NOTHING_ACCEPTED, EXIT_OK } from '../exitCodes';
import { baseUrlFlag, integer, modelFlag, positive, seconds } from '../flags';
import { writeErr, writeOut } from '../output';
import { Progress } from './evolve';
import { cancelledByUser } from '../userCancel';

/** The flags named as the run's options and overrides they set, with their types from there. */
type OptionFlags = Pick<GenDataOptions, 'tasks' | 'keep' | 'samples' | 'rounds' | 'out' | 'force'>;
type OverrideFlags = Pick<GenDataOverrides, 'seed' | 'budgetCalls' | 'model' | 'concurrency' | 'maxFailures'>;

/** What commander gives the action: those flags, two overrides under their flags' names, and the CLI's own. */
type GenDataFlags = OptionFlags &
  OverrideFlags & {
    /** `--base-url`: the override's `baseURL`. */
    baseUrl?: GenDataOverrides['baseURL'];
    /** `--call-timeout`: the override's `callTimeoutSeconds`. */
    callTimeout?: GenDataOverrides['callTimeoutSeconds'];
    json?: boolean;
    workspace: string;
  };

export function registerGenData(program: Command, version: string): void {
  program
    .command('gen-data')
    .description('Write a dev set for a prompt that has none: a Challenger writes tasks, the prompt answers them, a judge keeps the ones that tell versions apart (zero-data).')
    .argument('<prompt-file>', 'the prompt file; its run spec names the models (challenger, agent, validator)')
    .option('--tasks <n>', 'tasks the Challenger writes per round (N)', positive('--tasks'))
    .option('--keep <n>', 'dev tasks kept per round at most, by dispersion (K)', positive('--keep'))
    .option('--samples <n>', 'answers per task, at a temperature above 0 (M)', positive('--samples'))
    .option('--rounds <n>', 'rounds of generation', positive('--rounds'))
    .option('--out <file>', 'the dev set (JSONL; default <prompt name>.dev.jsonl next to the prompt); the test split goes beside it as .test.jsonl')
    .option('--force', 'replace the dev and test files if they exist')
    .option('--seed <n>', 'run seed (held-out tasks, samples, exemplars)', integer('--seed'))
    .option('--budget-calls <n>', 'stop after this many LLM calls', integer('--budget-calls'))
    .addOption(baseUrlFlag())
    .addOption(modelFlag())
    .option('--concurrency <n>', 'LLM calls in flight at once', integer('--concurrency'))
    .option('--call-timeout <seconds>', 'abandon (and retry) an LLM request unanswered this long', seconds('--call-timeout'))
    .option('--max-failures <n>', 'give up on an LLM call after this many failures in a row', positive('--max-failures'))
    .option('--json', 'print engine events as JSONL')
    .option('-w, --workspace <dir>', 'folder that holds .ratchet/ (runs, response cache)', '.')
    .action(async (promptFile: string, flags: GenDataFlags) => {
      process.exitCode = await genDataCommand(promptFile, flags, version);
    });
}

export async function genDataCommand(promptFile: string, flags: GenDataFlags, version: string): Promise<number> {
  const overrides: GenDataOverrides = {};
  if (flags.baseUrl !== undefined) overrides.baseURL = flags.baseUrl;
  if (flags.model !== undefined) overrides.model = flags.model;
  if (flags.seed !== undefined) overrides.seed = flags.seed;
  if (flags.concurrency !== undefined) overrides.concurrency = flags.concurrency;
  if (flags.callTimeout !== undefined) overrides.callTimeoutSeconds = flags.callTimeout;
  if (flags.maxFailures !== undefined) overrides.maxFailures = flags.maxFailures;
  if (flags.budgetCalls !== undefined) overrides.budgetCalls = flags.budgetCalls;
  return reported(flags, (face) =>
    runGenData({
      promptPath: promptFile,
      workspace: flags.workspace,
      ...(flags.tasks !== undefined ? { tasks: flags.tasks } : {}),
      ...(flags.keep !== undefined ? { keep: flags.keep } : {}),
      ...(flags.samples !== undefined ? { samples: flags.samples } : {}),
      ...(flags.rounds !== undefined ? { rounds: flags.rounds } : {}),
      ...(flags.out !== undefined ? { out: flags.out } : {}),
      ...(flags.force ? { force: true } : {}),
      overrides,
      endpointDefaults: endpointDefaultsFromEnv(process.env),
      version,
      ...face,
    }),
  );
}

/** `ratchet runs resume <id>` of a gen-data run: the flags that change neither its inputs nor its rounds. */
export type GenDataResumeFlags = Pick<GenDataFlags, 'workspace' | 'baseUrl' | 'callTimeout' | 'maxFailures' | 'json'>;

export async function genDataResumeCommand(runId: string, flags: GenDataResumeFlags, version: string): Promise<number> {
  return reported(flags, (face) =>
    resumeGenData(runId, {
      workspace: flags.workspace,
      overrides: {
        ...(flags.baseUrl !== undefined ? { baseURL: flags.baseUrl } : {}),
        ...(flags.callTimeout !== undefined ? { callTimeoutSeconds: flags.callTimeout } : {}),
        ...(flags.maxFailures !== undefined ? { maxFailures: flags.maxFailures } : {}),
      },
      endpointDefaults: endpointDefaultsFromEnv(process.env),
      version,
      ...face,
    }),
  );
}

/** Runs a gen-data run with the terminal as its face, then prints what it wrote and returns the exit code. */
async function reported(flags: Pick<GenDataFlags, 'workspace' | 'json'>, run: (face: { signal: AbortSignal; onEvent: (e: EngineEvent) => void }) => Promise<GenDataOutcome>): Promise<number> {
  const { controller, dispose: stopListening } = cancelledByUser();
  const progress = new Progress(!!flags.json);
  try {
    const outcome = await run({ signal: controller.signal, onEvent: (e: EngineEvent) => progress.show(e) });
    progress.end();
    if (!flags.json) {
      writeErr(roundTable(outcome.rounds));
      writeErr(filesLine(outcome));
      writeErr(`run ${outcome.runId}: ${outcome.status}${outcome.error ? ` · ${outcome.error.message}` : ''}\n  details: ratchet runs show ${outcome.runId} --workspace ${flags.workspace}\n`);
    }
    // The dev set's path alone on stdout, for a script to pick up.
    if (outcome.written && !flags.json) writeOut(`${outcome.devPath}\n`);
    // A run that ended but let no task through wrote nothing: it ran, and nothing was accepted.
    if (outcome.status !== 'finished' && outcome.status !== 'budget') return EXIT_ERROR;
    return outcome.written ? EXIT_OK : EXIT_NOTHING_ACCEPTED;
  } finally {
    progress.end();
    stopListening();
  }
}

/** What became of the two files, as it is: written, left as they were, or (the only other case) no longer a pair. */
function filesLine(o: GenDataOutcome): string {
  if (o.written) return `dev set: ${o.devPath}\ntest split: ${o.testPath}\n`;
  if (o.unmatched) return `${o.devPath} was replaced, ${o.testPath} was not: the two do not match\n`;
  return `nothing written: ${o.devPath} and ${o.testPath} are as they were\n`;
}

const COLUMNS = ['round', 'written', 'format', 'duplicate', 'low disp.', 'kept', 'held out', 'role rel.', 'amp. rel.', 'exemplars'] as const;

/** One row per round: what was written, dropped and kept, and the judge's reliability with n. */
export function roundTable(rounds: readonly RoundOutcome[]): string {
  const rel = (r: RoundOutcome['event']['reliability'][number] | undefined) => (r?.agreement === undefined ? `— (n ${r?.pairs ?? 0})` : `${r.agreement.toFixed(2)} (n ${r.pairs})`);
  const rows = rounds.map(({ event: e }) => [
    String(e.round),
    String(e.written),
    String(Object.values(e.discarded.format).reduce((a, b) => a + b, 0)),
    String(e.discarded.duplicate),
    String(e.discarded.lowDispersion),
    String(e.kept.length),
    String(e.heldOut.length),
    rel(e.reliability.find((r) => r.type === 'roleAsymmetry')),
    rel(e.reliability.find((r) => r.type === 'amplification')),
    String(e.exemplars.length),
  ]);
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    `${cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()}\n`;
  return [line(COLUMNS), ...rows.map(line)].join('');
}
