/**
 * `ratchet runs list|show|export|resume`: the journal, read from the command line. list, show and
 * export only read — nothing they do writes into `.ratchet/runs` — so they are safe to point at a
 * workspace whose run is still going; resume continues a run through `ratchet evolve`.
 */
import { open, rename, rm } from 'node:fs/promises';
import { Option } from 'commander';
import type { Command } from 'commander';
import { RatchetError } from '../../core/errors';
import type { JournaledEvent } from '../../core/journal/events';
import type { Files } from '../../core/ports';
import { readRunRecord, runPaths, runsDir } from '../../core/journal/journal';
import type { RunRecord } from '../../core/journal/journal';
import { RunSummaryFold, listRuns, resolveStatus } from '../../core/journal/listRuns';
import type { ListRunsOptions, RunSummary } from '../../core/journal/listRuns';
import { runStateLabel } from '../../core/journal/runStates';
import { redact } from '../../core/redact';
import { describeIsolation } from '../../core/code/isolation';
import { silenceText } from '../../core/gates/abstentions';
import { NodeFiles } from '../../node/files';
import { streamJournal } from '../../node/journalStream';
import { isOwnerAlive } from '../../node/process';
import { EXIT_NOTHING_ACCEPTED } from '../exitCodes';
import { evolveCommand } from './evolve';
import { genDataResumeCommand } from './genData';
import { searchCommand } from './search';
import type { EvolveFlags } from './evolve';
import { integer, positive, seconds } from '../flags';
import { describeEvent, formatCost, formatOffset, formatTable, formatTimestamp, oneLine, plural, stdoutDrained, toJsonl, writeErr, writeJsonl, writeOut } from '../output';
import type { Column } from '../output';

interface ShowOptions {
  workspace: string;
  json?: boolean;
  after?: number;
}
/** `runs resume` takes the evolve flags that change neither the run's inputs nor its decisions. */
type ResumeOptions = Pick<EvolveFlags, 'workspace' | 'baseUrl' | 'callTimeout' | 'maxFailures' | 'apply' | 'dryRun' | 'interactive' | 'json'>;
interface ExportOptions {
  workspace: string;
  out?: string;
  format: 'jsonl' | 'json';
}

export function registerRuns(program: Command, version: string): void {
  const runs = program.command('runs').description('List, show and export the runs journaled under <workspace>/.ratchet/runs.');

  runs
    .command('list')
    .description('One line per run, newest first; exits 1 when the workspace has no runs.')
    .argument('[workspace]', 'the workspace folder (or -w, as the other runs commands take it)')
    .option('-w, --workspace <dir>', 'the workspace folder')
    .option('--json', 'print one JSON object per run per line')
    .action(async (positional: string | undefined, opts: { json?: boolean; workspace?: string }) => {
      if (positional !== undefined && opts.workspace !== undefined && positional !== opts.workspace) {
        throw new RatchetError('badInput', `Name the workspace once: ${positional} or --workspace ${opts.workspace}.`, { field: 'workspace' });
      }
      await listCommand(positional ?? opts.workspace ?? '.', opts.json === true);
    });

  runs
    .command('show')
    .description("A run's timeline: time offset, event type and its key fields.")
    .argument('<runId>', 'the run id (or a unique prefix of it)')
    .option('-w, --workspace <dir>', 'the workspace folder', '.')
    .option('--json', 'print the raw events as JSONL, exactly as journaled')
    .option('--after <seq>', 'only the events after this seq (what a reader that holds 1…seq is missing)', integer('--after'))
    .action(async (runId: string, opts: ShowOptions) => {
      await showCommand(runId, opts);
    });

  runs
    .command('export')
    .description('The run.json and all events as one JSON document, or as JSONL (first line {"run": …}, then one event per line).')
    .argument('<runId>', 'the run id (or a unique prefix of it)')
    .option('-w, --workspace <dir>', 'the workspace folder', '.')
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .addOption(new Option('--format <format>', 'output format').choices(['jsonl', 'json']).default('jsonl'))
    .action(async (runId: string, opts: ExportOptions) => {
      await exportCommand(runId, opts);
    });

  runs
    .command('resume')
    .description("Continue an interrupted run from its journal, in the workspace given (its prompt file, journal and response cache there), with the run's own spec, seed and models.")
    .argument('<runId>', 'the run id (or a unique prefix of it)')
    .option('-w, --workspace <dir>', 'the workspace folder', '.')
    .option('--base-url <url>', "OpenAI-compatible endpoint for every role, instead of the run's (same models; the key from the environment)")
    .option('--call-timeout <seconds>', 'abandon (and retry) an LLM request unanswered this long', seconds('--call-timeout'))
    .option('--max-failures <n>', 'give up on an LLM call after this many failures in a row (rate-limit waits do not count)', positive('--max-failures'))
    .option('--apply', 'write committed edits into the file (as `evolve --apply`)')
    .option('--dry-run', 'write nothing to the prompt file (default)')
    .option('--interactive', 'ask before writing each committed edit')
    .option('--json', 'print engine events as JSONL')
    .action(async (runId: string, opts: ResumeOptions) => {
      const files = new NodeFiles();
      const root = workspaceRoot(files, opts.workspace);
      const id = await findRun(files, root, runId);
      const record = await readRunRecord(files, runPaths(files, root, id).runJson);
      // A code search resumes through `ratchet search --resume`, with the flags it takes; a gen-data
      // run with the endpoint flags (it writes its dev set at the end, --apply means nothing to it).
      process.exitCode =
        record.kind === 'search'
          ? await searchCommand(undefined, { workspace: root, resume: id, ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}), ...(opts.json ? { json: true } : {}), ...(opts.apply ? { apply: true } : {}) }, version)
          : record.kind === 'gen-data'
            ? await genDataResumeCommand(
                id,
                {
                  workspace: root,
                  ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
                  ...(opts.callTimeout !== undefined ? { callTimeout: opts.callTimeout } : {}),
                  ...(opts.maxFailures !== undefined ? { maxFailures: opts.maxFailures } : {}),
                  ...(opts.json ? { json: true } : {}),
                },
                version,
              )
            : await evolveCommand(undefined, { ...opts, workspace: root }, version, id);
    });
}

async function listCommand(workspace: string, json: boolean): Promise<void> {
  const files = new NodeFiles();
  const root = workspaceRoot(files, workspace);
  if (!(await files.exists(root))) {
    throw new RatchetError('notFound', `No folder ${root}; pass the workspace folder that holds .ratchet/runs.`, { dir: root });
  }
  const summaries = await listRuns(files, root, livenessOptions());
  if (summaries.length === 0) {
    writeErr(`No runs in ${runsDir(files, root)}.`);
    process.exitCode = EXIT_NOTHING_ACCEPTED;
    return;
  }
  if (json) {
    writeJsonl(summaries);
    return;
  }
  writeOut(formatTable(summaries, LIST_COLUMNS));
  if (summaries.some((s) => s.tornTail && s.status !== 'corrupt')) {
    writeOut("\n* the journal's last line was torn by a crash mid-write; it is left out when the run is shown or resumed.\n");
  }
  const broken = summaries.filter((s) => s.status === 'corrupt');
  if (broken.length > 0) {
    writeOut(`\n${broken.length === 1 ? '1 run' : `${broken.length} runs`} could not be read:\n`);
    for (const s of broken) writeOut(`  ${s.runId}: ${oneLine(s.reason ?? 'unknown reason')}\n`);
  }
}

const LIST_COLUMNS: Column<RunSummary>[] = [
  { header: 'run', value: (s) => s.runId },
  { header: 'kind', value: (s) => s.kind ?? '—' },
  { header: 'status', value: (s) => `${runStateLabel(s.status)}${s.tornTail && s.status !== 'corrupt' ? '*' : ''}` },
  { header: 'target', value: (s) => s.target ?? '—', maxWidth: 44, truncate: 'start' },
  { header: 'started (UTC)', value: (s) => formatTimestamp(s.started) },
  { header: 'candidates', value: (s) => String(s.candidates), align: 'right' },
  { header: 'commits', value: (s) => String(s.commits), align: 'right' },
  { header: 'cost', value: (s) => formatCost(s.cost), align: 'right' },
];

async function showCommand(runIdArg: string, opts: ShowOptions): Promise<void> {
  const files = new NodeFiles();
  const root = workspaceRoot(files, opts.workspace);
  const runId = await findRun(files, root, runIdArg);
  const paths = runPaths(files, root, runId);
  // run.json first, also for --json: it says whether this Ratchet can read the journal at all.
  const record = await readRunRecord(files, paths.runJson);
  const after = opts.after ?? 0;
  // The journal is streamed, never held whole: a long run's timeline is shown in bounded memory.
  let rows = '';
  const flush = async () => {
    writeOut(rows);
    rows = '';
    await stdoutDrained();
  };
  if (opts.json === true) {
    // The journal's own lines, byte for byte, so piping them into another tool loses nothing.
    await streamJournal(
      paths.events,
      (e, line) => {
        if (e.seq > after) rows += `${line}\n`;
      },
      { afterChunk: flush },
    );
    await flush();
    return;
  }
  // Two passes: the header and the column widths need the whole run; the rows come on the second.
  const folding = new RunSummaryFold(runId, record);
  const isolation = new IsolationTally();
  let t0: number | undefined;
  let typeWidth = 0;
  let offsetWidth = 0;
  const read = await streamJournal(paths.events, (e) => {
    folding.add(e);
    isolation.add(e);
    t0 ??= e.at;
    typeWidth = Math.max(typeWidth, e.type.length);
    offsetWidth = Math.max(offsetWidth, formatOffset(e.at - t0).length);
  });
  const summary = folding.finish(read.tornTail);
  summary.status = await resolveStatus(files, paths.lock, summary, livenessOptions());
  writeOut(`${formatHead(summary, record)}${isolation.lines()}\n\n`);
  if (read.events <= after) {
    writeOut(`(no events ${after > 0 ? `after seq ${after}` : 'yet'})\n`);
  } else {
    const start = t0 ?? 0;
    // Columns as wide as the whole run's, so a tail lines up with the timeline it continues.
    const row = (e: JournaledEvent) => `  ${formatOffset(e.at - start).padStart(offsetWidth)}  ${e.type.padEnd(typeWidth)}  ${describeEvent(e)}`.trimEnd();
    // Up to the events the first pass saw: a live run may have appended more since.
    await streamJournal(
      paths.events,
      (e) => {
        if (e.seq > after) rows += `${row(e)}\n`;
      },
      { until: read.events, afterChunk: flush },
    );
    await flush();
  }
  if (read.tornTail) writeOut("\n(The journal's last line was torn by a crash mid-write and is left out.)\n");
}

/**
 * A code search's evaluations by the isolation they had, in words ("isolated: no network, no
 * home, own process tree (40 evaluations)"), and how many the sandbox had something to say about.
 */
class IsolationTally {
  private readonly counts = new Map<string, number>();
  private incidents = 0;

  add(e: JournaledEvent): void {
    if (e.type !== 'program/evaluated') return;
    if (e.isolation) {
      const words = describeIsolation(e.isolation);
      this.counts.set(words, (this.counts.get(words) ?? 0) + 1);
    }
    if ((e.incidents ?? []).length > 0) this.incidents++;
  }

  lines(): string {
    const rows = [...this.counts].map(([words, n]) => `\nSandbox: ${words} (${plural(n, 'program')})`);
    if (this.incidents > 0) rows.push(`\nSandbox: ${plural(this.incidents, 'program')} with something the sandbox saw (limits hit, processes left, late writes, escapes tried); their lines say what`);
    return rows.join('');
  }
}

/** The header sums up the whole run. */
function formatHead(summary: RunSummary, record: RunRecord): string {
  const head = [
    `Run ${summary.runId} · ${summary.kind ?? record.kind} · ${oneLine(record.target)} · ${summary.status}`,
    [
      summary.gate === undefined ? undefined : `gate ${summary.gate} α ${summary.alpha}`,
      `seed ${record.seed}`,
      `started ${formatTimestamp(summary.started)} UTC`,
      `${plural(summary.candidates, 'candidate')}, ${plural(summary.commits, 'commit')}`,
      `cost ${formatCost(summary.cost)}`,
    ]
      .filter((p) => p !== undefined)
      .join(' · '),
  ];
  if (summary.guarantee !== undefined) head.push(`guarantee: ${summary.guarantee}`);
  const silence = silenceText(summary.judge);
  if (silence !== undefined) {
    const who = summary.judge?.model === undefined ? '' : ` (model ${oneLine(summary.judge.model)})`;
    head.push(`${silence}${who}, even when asked again: those items were left out of the tests, not counted as ties`);
  }
  if (summary.truncated) head.push(`${plural(summary.truncated, 'answer')} cut off before the end (at the length limit even with more room, or by a content filter), not read as answers`);
  if (summary.status === 'failed' && summary.reason !== undefined) head.push(`failed: ${oneLine(summary.reason)}`);
  return head.join('\n');
}

async function exportCommand(runIdArg: string, opts: ExportOptions): Promise<void> {
  const files = new NodeFiles();
  const root = workspaceRoot(files, opts.workspace);
  const runId = await findRun(files, root, runIdArg);
  const paths = runPaths(files, root, runId);
  // Journals are redacted when written; redacting again covers ones written by hand or by older versions.
  const run = redact(await readRunRecord(files, paths.runJson));
  const out = opts.out === undefined ? undefined : files.resolve(opts.out);
  const sink = out === undefined ? stdoutSink() : await fileSink(out);
  // Streamed event by event, as `runs show` is: a journal of any length exports in bounded memory.
  // The JSON document is written piecewise in exactly the layout JSON.stringify(…, null, 2) gives.
  let text = opts.format === 'json' ? `{\n  "run": ${indent(JSON.stringify(run, null, 2), '  ')},\n  "events": [` : toJsonl([{ run }]);
  let count = 0;
  try {
    await streamJournal(
      paths.events,
      (e) => {
        const event = redact(e);
        text += opts.format === 'json' ? `${count === 0 ? '' : ','}\n    ${indent(JSON.stringify(event, null, 2), '    ')}` : `${JSON.stringify(event)}\n`;
        count++;
      },
      {
        afterChunk: async () => {
          await sink.write(text);
          text = '';
        },
      },
    );
    if (opts.format === 'json') text += count === 0 ? ']\n}\n' : '\n  ]\n}\n';
    await sink.write(text);
    await sink.commit();
  } catch (err) {
    await sink.abandon();
    throw err;
  }
  if (out !== undefined) writeErr(`Exported run ${runId} (${count} events) to ${out}.`);
}

function indent(json: string, by: string): string {
  return json.replace(/\n/g, `\n${by}`);
}

/** Where an export goes: written piece by piece, and in place only once complete. */
interface ExportSink {
  write(text: string): Promise<void>;
  commit(): Promise<void>;
  abandon(): Promise<void>;
}

function stdoutSink(): ExportSink {
  return {
    write: async (text) => {
      writeOut(text);
      await stdoutDrained();
    },
    commit: async () => undefined,
    abandon: async () => undefined,
  };
}

/** A temp file beside `out`, synced and renamed over it at the end, so `out` is never half an export. */
async function fileSink(out: string): Promise<ExportSink> {
  const temp = `${out}.${process.pid}.tmp`;
  const handle = await open(temp, 'w');
  return {
    write: async (text) => {
      if (text !== '') await handle.writeFile(text, 'utf8');
    },
    commit: async () => {
      await handle.sync();
      await handle.close();
      await rename(temp, out);
    },
    abandon: async () => {
      await handle.close().catch(() => undefined);
      await rm(temp, { force: true });
    },
  };
}

/**
 * The run a user means: the exact id, or the one run whose id starts with what they typed (ids are
 * long; `20261129-2234` is usually enough).
 */
async function findRun(files: Files, root: string, wanted: string): Promise<string> {
  const dir = runsDir(files, root);
  const names = await files.list(dir);
  if (names.includes(wanted) && (await files.exists(runPaths(files, root, wanted).runJson))) return wanted;
  const matches = names.filter((n) => n.startsWith(wanted));
  if (matches.length === 1 && wanted.length > 0) return matches[0]!;
  const list = `\`ratchet runs list ${quoteArg(root)}\``;
  if (matches.length > 1 && wanted.length > 0) {
    throw new RatchetError('badInput', `Run id ${wanted} matches ${matches.length} runs in ${dir}; give more of the id (${list} shows them).`, {
      runId: wanted,
      dir,
    });
  }
  throw new RatchetError('notFound', `No run ${wanted} in ${dir}; ${list} shows the runs there.`, { runId: wanted, dir });
}

function workspaceRoot(files: Files, workspace: string): string {
  return files.resolve(workspace);
}

function livenessOptions(): ListRunsOptions {
  return { isOwnerAlive, now: Date.now(), streamJournal };
}

function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}
