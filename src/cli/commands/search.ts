/**
 * `ratchet search <file>`: gated code search over the file's EVOLVE-BLOCK regions, headless. The
 * run spec is the sidecar `<file>.ratchet.yaml` (kind: code); a ShinkaEvolve task folder
 * (`evaluate.py` beside the file) needs none, nor does `--evaluator`. Every evaluation runs in the
 * sandbox; a child replaces its island's incumbent only through the gate.
 *
 * The file is never written unless --apply is given, and then once, at the end, with the best
 * program — only if the file still holds the text the run started from (otherwise the diff is
 * printed for the user to apply).
 */
import { createPatch } from 'diff';
import { Option } from 'commander';
import type { Command } from 'commander';
import { RatchetError } from '../../core/errors';
import { CODE_GATES } from '../../core/gates/gateTable';
import type { EngineEvent } from '../../core/journal/events';
import { endpointDefaultsFromEnv } from '../../core/run/endpointDefaults';
import type { SearchOverrides } from '../../core/run/overrides';
import { resumeSearchRun, startSearchRun } from '../../node/runs/searchRun';
import type { SearchRunOutcome } from '../../node/runs/searchRun';
import { EXIT_NOTHING_ACCEPTED, EXIT_OK } from '../exitCodes';
import { baseUrlFlag, integer, modelFlag, number, positive, seconds } from '../flags';
import { oneLine, writeErr, writeOut } from '../output';
import { Progress } from './evolve';
import { cancelledByUser } from '../userCancel';

/** The flags named as the search overrides they set, with their types from there. */
type OverrideFlags = Pick<SearchOverrides, 'evaluator' | 'gate' | 'alpha' | 'proposals' | 'evaluations' | 'concurrency' | 'islands' | 'budgetDollars' | 'seed' | 'model' | 'maxFailures'>;

/** What commander gives the action: those flags, two overrides under their flags' names, and the CLI's own. */
type SearchFlags = OverrideFlags & {
  /** `--timeout`: the override's `timeoutSeconds`. */
  timeout?: SearchOverrides['timeoutSeconds'];
  /** `--base-url`: the override's `baseURL`. */
  baseUrl?: SearchOverrides['baseURL'];
  json?: boolean;
  apply?: boolean;
  resume?: string;
  workspace: string;
};

export function registerSearch(program: Command, version: string): void {
  program
    .command('search')
    .description('Gated code search over a file’s EVOLVE-BLOCK regions (ShinkaEvolve style): a child replaces its parent only when the gate finds evidence it is better.')
    .argument('[file]', 'the program to evolve; its run spec is <file>.ratchet.yaml (kind: code), or a ShinkaEvolve evaluate.py beside it')
    .option('--evaluator <command>', 'evaluator command with {program} and {results} (and {instances}); overrides the spec’s')
    .addOption(new Option('--gate <gate>', 'acceptance gate').choices(CODE_GATES))
    .option('--alpha <a>', 'false-improvement rate per child', number('--alpha'))
    .option('--proposals <n>', 'programs to propose', positive('--proposals'))
    .option('--evaluations <n>', 'evaluator runs at most', positive('--evaluations'))
    .option('--concurrency <n>', 'evaluations and LLM calls in flight at once', positive('--concurrency'))
    .option('--islands <n>', 'independent populations', positive('--islands'))
    .option('--budget-dollars <usd>', 'stop proposing past this many dollars', number('--budget-dollars'))
    .option('--seed <n>', 'run seed (instance orders, parent choice)', integer('--seed'))
    .option('--timeout <seconds>', 'per evaluation; the evaluator’s process group is killed past it', seconds('--timeout'))
    .addOption(baseUrlFlag())
    .addOption(modelFlag())
    .option('--max-failures <n>', 'give up on an LLM call after this many failures in a row (default 10; rate-limit waits do not count)', positive('--max-failures'))
    .option('--json', 'print engine events as JSONL')
    .option('--apply', 'write the best program into the file at the end (only if the file is unchanged since the start)')
    .option('--resume <runId>', 'continue an interrupted search from its journal (its spec, seed and start text)')
    .option('-w, --workspace <dir>', 'folder that holds .ratchet/ (runs, response and evaluation caches)', '.')
    .action(async (file: string | undefined, flags: SearchFlags) => {
      process.exitCode = await searchCommand(file, flags, version);
    });
}

/** The flags a resume may change: where calls go, how the result is shown and whether it is written. */
const RESUMABLE = new Set(['baseUrl', 'model', 'json', 'apply', 'workspace', 'resume']);

export async function searchCommand(file: string | undefined, flags: SearchFlags, version: string): Promise<number> {
  if (flags.resume) {
    const refused = Object.keys(flags).filter((k) => !RESUMABLE.has(k) && flags[k as keyof SearchFlags] !== undefined);
    if (file !== undefined || refused.length > 0) {
      throw new RatchetError(
        'badInput',
        `--resume continues the run with its own file, spec and seed; drop ${[...(file === undefined ? [] : [file]), ...refused.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`)].join(', ')}.`,
      );
    }
  } else if (file === undefined) {
    throw new RatchetError('badInput', 'Name the file to search, e.g. `ratchet search solve.py`, or continue a run with --resume <runId>.');
  }
  const { controller, dispose: stopListening } = cancelledByUser();
  const progress = new Progress(!!flags.json);
  let outcome: SearchRunOutcome;
  try {
    const common = {
      workspace: flags.workspace,
      onEvent: (e: EngineEvent) => progress.show(e),
      signal: controller.signal,
      endpointDefaults: endpointDefaultsFromEnv(process.env),
      version,
      apply: !!flags.apply,
    };
    outcome = flags.resume
      ? await resumeSearchRun(flags.resume, { ...common, overrides: defined({ baseURL: flags.baseUrl, model: flags.model, maxFailures: flags.maxFailures }) })
      : await startSearchRun({
          ...common,
          programPath: file!,
          overrides: {
            ...defined({
              evaluator: flags.evaluator,
              gate: flags.gate,
              alpha: flags.alpha,
              proposals: flags.proposals,
              evaluations: flags.evaluations,
              concurrency: flags.concurrency,
              islands: flags.islands,
              budgetDollars: flags.budgetDollars,
              seed: flags.seed,
              timeoutSeconds: flags.timeout,
              baseURL: flags.baseUrl,
              model: flags.model,
              maxFailures: flags.maxFailures,
            }),
          },
        });
  } finally {
    stopListening();
    progress.end();
  }
  const score = (s: number | undefined) => (s === undefined ? '—' : s.toPrecision(6));
  if (!flags.json) {
    writeErr(
      `run ${outcome.runId}: ${outcome.proposals} proposals, ${outcome.evaluations} evaluations, ${outcome.commits} committed${outcome.repairs > 0 ? `, ${outcome.repairs} repaired` : ''} · best ${outcome.best.id} (score ${score(outcome.best.score)}, start ${score(outcome.seedScore)})\n` +
        (outcome.stopped === undefined ? '' : `  stopped early: ${oneLine(outcome.stopped, 300)}\n`) +
        `  details: ratchet runs show ${outcome.runId} --workspace ${flags.workspace}\n`,
    );
  }
  const target = file ?? 'the program';
  if (outcome.applied === 'applied') writeErr(`wrote ${outcome.best.id} into ${target}\n`);
  if (outcome.best.text !== outcome.startText && outcome.applied !== 'applied') {
    if (outcome.applied === 'stale') writeErr(`${target} changed during the run; nothing was written. The best program, as a diff:\n`);
    if (!flags.json) writeOut(createPatch(target, outcome.startText, outcome.best.text));
  }
  return outcome.commits + outcome.repairs > 0 ? EXIT_OK : EXIT_NOTHING_ACCEPTED;
}

function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
