/**
 * `ratchet evolve <prompt-file>`: the prompt evolution loop, headless. Same engine and journal as
 * the editor; a live progress line on a TTY, JSONL of engine events with --json.
 *
 * What reaches the file: --apply writes each committed edit (atomically, and only if the file still
 * holds the text the edit was computed on); --interactive asks first; the default, --dry-run,
 * writes nothing — the run's decisions are in the journal (`ratchet runs show`).
 */
import { createInterface } from 'node:readline/promises';
import { Option } from 'commander';
import type { Command } from 'commander';
import { RatchetError } from '../../core/errors';
import type { EngineEvent } from '../../core/journal/events';
import { runPaths } from '../../core/journal/journal';
import { readJournal } from '../../core/journal/replay';
import { endpointDefaultsFromEnv } from '../../core/run/endpointDefaults';
import { NodeFiles } from '../../node/files';
import { fileApply } from '../../node/runs/fileApply';
import { resumeEvolveRun, startEvolveRun } from '../../node/runs/evolveRun';
import type { EvolveOverrides } from '../../core/run/overrides';
import type { EvolveRunOutcome } from '../../node/runs/evolveRun';
import { EXIT_ERROR, EXIT_NOTHING_ACCEPTED, EXIT_OK } from '../exitCodes';
import { resumeEndpoint } from './resumeFlags';
import { describeEstimate, describeEvent, oneLine, writeErr, writeOut } from '../output';
import { addJudgeCount, silenceText } from '../../core/gates/abstentions';
import type { JudgeCount } from '../../core/gates/abstentions';
import { describeModelChoices } from '../../core/run/modelChoice';
import { baseUrlFlag, integer, modelFlag, number, positive, seconds } from '../flags';
import { GATE_NAMES } from '../../core/gates/gateTable';
import { runGuarantee } from '../../core/gates/guarantee';
import { RUN_SPEC_EXTENSION, promptExtensionsText } from '../../core/files/fileKinds';
import { cancelledByUser } from '../userCancel';
import type { RunControl, Suggestion } from '../../core/journal/control';

/** The flags named as the prompt run's overrides they set, with their types from there. */
type OverrideFlags = Pick<EvolveOverrides, 'gate' | 'alpha' | 'budgetCalls' | 'candidates' | 'seed' | 'model' | 'concurrency' | 'maxFailures'>;

/** What commander gives the action: those flags, three overrides under their flags' names, and the CLI's own. */
export type EvolveFlags = OverrideFlags & {
  /** `--data`: the override's `dataset`. */
  data?: EvolveOverrides['dataset'];
  /** `--base-url`: the override's `baseURL`. */
  baseUrl?: EvolveOverrides['baseURL'];
  /** `--call-timeout`: the override's `callTimeoutSeconds`. */
  callTimeout?: EvolveOverrides['callTimeoutSeconds'];
  apply?: boolean;
  dryRun?: boolean;
  interactive?: boolean;
  json?: boolean;
  resume?: string;
  workspace: string;
};

export function registerEvolve(program: Command, version: string): void {
  program
    .command('evolve')
    .description('Evolve a prompt file; an edit is committed only when the gate finds evidence it is better.')
    .argument('[prompt-file]', `the prompt file (${promptExtensionsText()}); its run spec is the front matter or <name>${RUN_SPEC_EXTENSION}`)
    .option('--data <file>', 'dataset to use instead of the spec’s (JSONL, CSV or YAML tests:)')
    .addOption(new Option('--gate <gate>', 'acceptance gate').choices(GATE_NAMES))
    .option('--alpha <a>', "false-commit level: for the whole run (the default schedule) or per candidate (the spec's gate.schedule: per-candidate)", number('--alpha'))
    .option('--budget-calls <n>', 'stop after this many LLM calls', integer('--budget-calls'))
    .option('--candidates <n>', 'number of candidates to test', integer('--candidates'))
    .option('--seed <n>', 'run seed (splits, item order, parent choice)', integer('--seed'))
    .addOption(baseUrlFlag())
    .addOption(modelFlag())
    .option('--concurrency <n>', 'LLM calls in flight at once', integer('--concurrency'))
    .option('--call-timeout <seconds>', 'abandon (and retry) an LLM request unanswered this long (default: the spec’s callTimeoutSeconds, 120)', seconds('--call-timeout'))
    .option('--max-failures <n>', 'give up on an LLM call after this many failures in a row (default 10; rate-limit waits do not count)', positive('--max-failures'))
    .option('--apply', 'write each committed edit into the file (autopilot)')
    .option('--dry-run', 'write nothing to the prompt file (default)')
    .option('--interactive', 'ask before writing each committed edit (suggest mode)')
    .option('--json', 'print engine events as JSONL')
    .option('--resume <runId>', 'continue an interrupted run from its journal')
    .option('-w, --workspace <dir>', 'folder that holds .ratchet/ (runs, response cache)', '.')
    .action(async (promptFile: string | undefined, flags: EvolveFlags) => {
      process.exitCode = await evolveCommand(promptFile, flags, version);
    });
}

export async function evolveCommand(promptFile: string | undefined, flags: EvolveFlags, version: string, resumeId = flags.resume): Promise<number> {
  if ((flags.apply ? 1 : 0) + (flags.dryRun ? 1 : 0) + (flags.interactive ? 1 : 0) > 1) {
    throw new RatchetError('badInput', 'Choose one of --apply, --dry-run and --interactive.');
  }
  if (flags.interactive && !process.stdin.isTTY) {
    throw new RatchetError('badInput', '--interactive needs a terminal; use --apply or --dry-run in scripts.');
  }
  if (!resumeId && !promptFile) throw new RatchetError('badInput', 'Name the prompt file to evolve, e.g. `ratchet evolve prompts/x.prompt.md`.');

  const files = new NodeFiles();
  const workspace = files.resolve(flags.workspace);
  const { controller, dispose: stopListening } = cancelledByUser();
  const progress = new Progress(!!flags.json);
  const control = cliControl(flags, files);
  const common = {
    control,
    onEvent: (e: EngineEvent) => progress.show(e),
    signal: controller.signal,
    endpointDefaults: endpointDefaultsFromEnv(process.env),
    version,
  };
  if (resumeId && (flags.apply || flags.interactive)) await refuseWritingWhatRanDry(files, workspace, resumeId, flags.apply ? '--apply' : '--interactive');
  let outcome: EvolveRunOutcome;
  try {
    outcome = resumeId ? await resumeEvolveRun(resumeId, workspace, { ...common, endpoint: resumeEndpoint(resumeId, flags) }) : await startEvolveRun({ ...common, promptPath: promptFile!, workspace, overrides: overrides(flags) });
  } finally {
    stopListening();
    progress.end();
  }
  for (const w of outcome.warnings) writeErr(`warning: ${w}\n`);
  if (!flags.json) {
    const silence = progress.judgeSilence();
    writeErr(
      `run ${outcome.runId}: ${outcome.status} · ${outcome.candidates} candidates, ${outcome.commits} committed · incumbent ${outcome.incumbent.id}${silence ? ` · ${silence}` : ''}\n` +
        `  details: ratchet runs show ${outcome.runId} --workspace ${flags.workspace}\n`,
    );
  }
  if (outcome.status === 'failed' || outcome.status === 'cancelled') return EXIT_ERROR;
  return outcome.commits > 0 ? EXIT_OK : EXIT_NOTHING_ACCEPTED;
}

/**
 * A run that committed without writing (no --apply) cannot be resumed with writes: the file lacks
 * those commits, so every later edit — computed on them — would find it changed and not be
 * written, and the replayed part would now write what the journal says was not.
 */
async function refuseWritingWhatRanDry(files: NodeFiles, workspace: string, runId: string, flag: string): Promise<void> {
  const { events } = await readJournal(files, runPaths(files, workspace, runId).events).catch(() => ({ events: [] as EngineEvent[] }));
  // Landed (written, refused, found stale) or still asked about: not a dry run's.
  const answered = new Set(events.flatMap((e) => (e.type === 'edit/applied' || e.type === 'edit/rejected' || e.type === 'suggestion' ? [e.candidateId] : [])));
  // A commit the run went on from (a later candidate proposed) without writing it; one it was
  // interrupted right after is written by this resume.
  const unwritten = events.flatMap((e, i) =>
    e.type === 'decision' && e.record.decision === 'commit' && !answered.has(e.record.candidateId) && events.slice(i + 1).some((later) => later.type === 'candidate/proposed') ? [e.record.candidateId] : [],
  );
  if (unwritten.length === 0) return;
  throw new RatchetError(
    'badInput',
    `${flag} cannot change when resuming run ${runId}: it ran without writing, and its commit${unwritten.length === 1 ? '' : 's'} ${unwritten.join(', ')} ${unwritten.length === 1 ? 'was' : 'were'} not written into the file, which later edits build on. Resume it as it ran (without ${flag}); its final prompt is then in \`ratchet runs show ${runId}\`. Or start a new run with ${flag}.`,
    { runId },
  );
}

function overrides(f: EvolveFlags): EvolveOverrides {
  const o: EvolveOverrides = {};
  if (f.data !== undefined) o.dataset = f.data;
  if (f.gate !== undefined) o.gate = f.gate;
  if (f.alpha !== undefined) o.alpha = f.alpha;
  if (f.budgetCalls !== undefined) o.budgetCalls = f.budgetCalls;
  if (f.candidates !== undefined) o.candidates = f.candidates;
  if (f.seed !== undefined) o.seed = f.seed;
  if (f.baseUrl !== undefined) o.baseURL = f.baseUrl;
  if (f.model !== undefined) o.model = f.model;
  if (f.concurrency !== undefined) o.concurrency = f.concurrency;
  if (f.callTimeout !== undefined) o.callTimeoutSeconds = f.callTimeout;
  if (f.maxFailures !== undefined) o.maxFailures = f.maxFailures;
  if (f.apply) o.mode = 'autopilot';
  else if (f.interactive) o.mode = 'suggest';
  return o;
}

/** How the CLI answers suggestions and writes accepted edits. */
function cliControl(flags: EvolveFlags, files: NodeFiles): RunControl {
  // Never over the user's text: written only where the file still holds what the edit was computed on.
  const write = fileApply(files);
  return {
    async decide(s: Suggestion) {
      if (!flags.interactive) return 'accept'; // --dry-run: keep evolving from the commit; apply() writes nothing
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        const answer = await rl.question(`\nThe gate committed ${s.candidateId}. Write it into ${s.file}? [y/N] `);
        return /^y(es)?$/i.test(answer.trim()) ? 'accept' : 'reject';
      } finally {
        rl.close();
      }
    },
    async apply(s: Suggestion, by) {
      if (!flags.apply && !flags.interactive) return 'dry-run';
      return write(s, by);
    },
  };
}

/** One live line on a TTY; a line per decision (and per wait for the endpoint) otherwise; JSONL with --json. */
/** The live progress line on a TTY (stderr), or JSONL of engine events on stdout with --json. */
export class Progress {
  private readonly tty = !!process.stderr.isTTY;
  private line = '';
  private candidate = '';
  private wealth = '';
  private cost = '';
  private judge: JudgeCount | undefined;

  constructor(private readonly json: boolean) {}

  /** "the judge did not answer 3 of 40 times" over this process's decisions, or undefined while it answered every time. */
  judgeSilence(): string | undefined {
    return silenceText(this.judge);
  }

  show(e: EngineEvent): void {
    if (e.type === 'decision' && e.record.judge) this.judge = addJudgeCount(this.judge, e.record.judge);
    if (this.json) {
      writeOut(`${JSON.stringify(e)}\n`);
      return;
    }
    switch (e.type) {
      case 'run/started':
        // Before the first call: which model each role will call and who chose it, so a wrong model
        // is caught (and a run about to cost more than meant stopped) before anything is paid.
        if (e.info.models) this.print(`models: ${oneLine(describeModelChoices(e.info.models))}`);
        if (e.info.estimate) this.print(`estimate: ${describeEstimate(e.info.estimate)} (an upper estimate)`);
        // What a commit will mean, before there is one: per candidate, or for the whole run.
        if (runGuarantee(e.info)) this.print(`guarantee: ${runGuarantee(e.info)}`);
        return;
      case 'candidate/proposed':
        this.candidate = e.candidateId;
        break;
      case 'wealth/step':
        this.wealth = `evidence ×${fmt(Math.exp(e.logWealth))} (needs ×${fmt(Math.exp(e.logThreshold))})`;
        break;
      case 'cost/update':
        this.cost = describeEvent(e);
        break;
      case 'llm/waiting':
      case 'decision':
      case 'log':
      case 'report/test':
      case 'edit/applied':
      case 'run/failed':
      case 'program/evaluated':
      case 'proposal/failed':
      case 'meta/notes':
      case 'zero/round':
      case 'slurm/status':
        this.print(`${e.type === 'log' || e.type === 'llm/waiting' ? '' : `${e.type}: `}${describeEvent(e)}`);
        return;
      default:
        break;
    }
    if (this.tty) this.redraw(`${this.candidate} · ${this.wealth} · ${this.cost}`);
  }

  private print(text: string): void {
    if (this.tty && this.line) process.stderr.write('\r\u001b[2K');
    process.stderr.write(`${text}\n`);
    if (this.tty && this.line) process.stderr.write(this.line);
  }

  private redraw(text: string): void {
    this.line = text.slice(0, (process.stderr.columns ?? 100) - 1);
    process.stderr.write(`\r\u001b[2K${this.line}`);
  }

  end(): void {
    if (this.tty && this.line) process.stderr.write('\r\u001b[2K');
  }
}

function fmt(x: number): string {
  return String(Number(x.toPrecision(3)));
}
