/**
 * Slurm's command-line tools as the code-search backend uses them (issue #18): `sbatch --parsable`
 * to submit, `squeue` for the tasks still queued or running, `sacct` for the final state and the
 * cost of those that left the queue, `scancel`. Ratchet runs no scheduler of its own; it asks
 * these, as a user at a login node would.
 *
 * The commands run through a port (`SlurmRunner`), so the parsing, the error classes and the
 * backoff are tested against a played cluster, and the real tools against the local one
 * (scripts/slurm-local.sh). A failure is one of three kinds, from what the tool printed:
 * - unreachable: the controller or the accounting daemon does not answer (a restart, a network
 *   hiccup). The call waits and tries again with backoff, saying once that submissions are paused,
 *   and once that they resumed, until Slurm answers or the run stops;
 * - busy: the cluster refuses more jobs for now (a submit limit): waited for the same way;
 * - refused: Slurm rejects the request itself (an unknown partition or account, a bad option):
 *   a badInput error with Slurm's own words, which waiting would not change.
 */
import { execFile } from 'node:child_process';
import { RatchetError } from '../../core/errors';
import type { Clock } from '../../core/ports';

export type SlurmCommand = 'sbatch' | 'squeue' | 'sacct' | 'scancel';

export interface SlurmOutput {
  /** null when the tool could not be started (not on PATH). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one Slurm tool with arguments (no shell). */
export interface SlurmRunner {
  run(command: SlurmCommand, args: readonly string[]): Promise<SlurmOutput>;
}

/** A Slurm tool call lasts at most this long: a controller that hangs counts as unreachable. */
const CALL_TIMEOUT_MS = 120_000;

export const nodeSlurmRunner: SlurmRunner = {
  run: (command, args) =>
    new Promise((resolve) => {
      execFile(command, [...args], { timeout: CALL_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: unknown; killed?: boolean }) | null;
        if (e && e.code === 'ENOENT') return resolve({ code: null, stdout: '', stderr: `${command}: not found on PATH` });
        if (e && e.killed) return resolve({ code: 1, stdout, stderr: `${stderr}\n${command}: no answer within ${CALL_TIMEOUT_MS / 1000} s (Socket timed out)` });
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, stdout, stderr });
      });
    }),
};

export type FailureKind = 'unreachable' | 'busy' | 'refused';

const UNREACHABLE =
  /Unable to contact slurm controller|Socket timed out|Connection refused|Connection timed out|Connection reset|Problem talking to the database|persistent connection|Zero Bytes were transmitted|Transport endpoint|Communication connection failure|Name or service not known|Temporary failure in name resolution|No route to host|Slurmctld not responding|slurm_load_jobs error: Unable/i;
const BUSY = /Resource temporarily unavailable|temporarily unable to accept|job submit limit|MaxSubmit|too many (pending )?jobs|try again later|EAGAIN/i;

/** What kind of failure a Slurm tool's output says it met. */
export function classifyFailure(out: SlurmOutput): FailureKind {
  const text = `${out.stderr}\n${out.stdout}`;
  if (out.code !== null && UNREACHABLE.test(text)) return 'unreachable';
  if (out.code !== null && BUSY.test(text)) return 'busy';
  return 'refused';
}

/** The job id `sbatch --parsable` prints: `123` or `123;cluster`. */
export function parseJobId(stdout: string): string {
  const line = stdout.trim().split('\n').at(-1)?.trim() ?? '';
  const id = line.split(';')[0]!;
  if (!/^\d+$/.test(id)) throw new RatchetError('internal', `sbatch --parsable printed ${JSON.stringify(stdout.trim().slice(0, 200))}, not a job id.`);
  return id;
}

/** A task as squeue lists it: `jobId_index`, its state and reason (Resources, Priority, …). */
export interface QueueRow {
  task: string;
  state: string;
  reason: string;
}

/** `squeue -h -r -o '%i|%T|%r'` output: one line per task (-r expands pending arrays). */
export function parseQueue(stdout: string): QueueRow[] {
  return stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map((l) => {
      const [task = '', state = '', reason = ''] = l.split('|');
      return { task, state, reason };
    });
}

/** A line of `sacct -X -n -P -o JobID,State,ExitCode,ElapsedRaw,AllocCPUS,Reason`. */
export interface AccountingRow {
  /** `jobId_index` for a task that has its own record; the tasks a grouped record (`12_[3-5]`, or the array's own `12`) stands for are in `tasks`. */
  tasks: string[];
  jobId: string;
  /** The state's first word (`CANCELLED by 0` → CANCELLED). */
  state: string;
  exitCode: string;
  elapsedSeconds: number;
  cpus: number;
  reason: string;
  /** The record is the array's remainder that never started (no index of its own, or a bracketed range). */
  grouped: boolean;
}

export const ACCOUNTING_FORMAT = 'JobID,State,ExitCode,ElapsedRaw,AllocCPUS,Reason';

export function parseAccounting(stdout: string): AccountingRow[] {
  const rows: AccountingRow[] = [];
  for (const line of stdout.split('\n')) {
    if (line.trim() === '') continue;
    const [id = '', state = '', exitCode = '', elapsed = '0', cpus = '0', reason = ''] = line.split('|');
    const jobId = id.split('_')[0]!;
    const expanded = expandTaskIds(id);
    rows.push({
      tasks: expanded,
      jobId,
      state: state.trim().split(/\s+/)[0] ?? '',
      exitCode,
      elapsedSeconds: Number(elapsed) || 0,
      cpus: Number(cpus) || 0,
      reason: reason === 'None' ? '' : reason,
      grouped: !/^\d+_\d+$/.test(id),
    });
  }
  return rows;
}

/** `12_3` → [12_3]; `12_[3-5,7%2]` → [12_3, 12_4, 12_5, 12_7]; `12` → [] (the array's own record). */
export function expandTaskIds(id: string): string[] {
  const m = /^(\d+)_(.+)$/.exec(id.trim());
  if (!m) return [];
  const [, job, rest] = m as unknown as [string, string, string];
  if (/^\d+$/.test(rest)) return [`${job}_${rest}`];
  const body = /^\[([^\]]*)\]$/.exec(rest)?.[1];
  if (body === undefined) return [];
  const out: string[] = [];
  for (const part of body.split('%')[0]!.split(',')) {
    const [a, b] = part.split('-').map(Number) as [number, number | undefined];
    if (!Number.isInteger(a)) continue;
    for (let i = a; i <= (b ?? a); i++) out.push(`${job}_${i}`);
  }
  return out;
}

export interface CliEvents {
  /** Slurm stopped answering: submissions and polls wait `retryMs` and try again. Said once per outage. */
  paused(message: string, retryMs: number): void;
  /** Slurm answers again. */
  resumed(message: string): void;
}

export interface BackoffPolicy {
  /** First wait after an unreachable or busy answer. */
  firstMs: number;
  /** Waits double up to this. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { firstMs: 2000, maxMs: 60_000 };

/** Job ids per squeue / sacct / scancel call: a long list is split so no command line grows without bound. */
const IDS_PER_CALL = 200;

/**
 * The tools with their answers read, each call waiting out an unreachable or busy Slurm. A call
 * given a signal gives up when it aborts; one given a deadline (the run's end) gives up after it.
 */
export class SlurmCli {
  private outage: string | undefined;
  /** Calls made, by tool: the load this run puts on the controller and the accounting daemon (bench:slurm). */
  readonly calls: Record<SlurmCommand, number> = { sbatch: 0, squeue: 0, sacct: 0, scancel: 0 };

  constructor(
    private readonly runner: SlurmRunner,
    private readonly clock: Clock,
    private readonly events: CliEvents,
    private readonly backoff: BackoffPolicy = DEFAULT_BACKOFF,
  ) {}

  /** Why Slurm is not answering now, while it is not. */
  get paused(): string | undefined {
    return this.outage;
  }

  async submit(script: string, args: readonly string[], o: CallOptions = {}): Promise<string> {
    return parseJobId(await this.call('sbatch', [...args, script], o));
  }

  /** The run's tasks still in the queue (pending, running, completing), by `jobId_index`. */
  async queue(jobIds: readonly string[], o: CallOptions = {}): Promise<Map<string, QueueRow>> {
    const rows = new Map<string, QueueRow>();
    for (const ids of chunks(jobIds)) {
      // A job that left the queue long ago is an "invalid job id" to squeue: none of it is queued.
      const out = await this.call('squeue', ['-h', '-r', '-j', ids.join(','), '-o', '%i|%T|%r'], { ...o, gone: /Invalid job id/i });
      for (const r of parseQueue(out)) rows.set(r.task, r);
    }
    return rows;
  }

  /** The jobs' records in the accounting database. */
  async accounting(jobIds: readonly string[], o: CallOptions = {}): Promise<AccountingRow[]> {
    const rows: AccountingRow[] = [];
    for (const ids of chunks(jobIds)) rows.push(...parseAccounting(await this.call('sacct', ['-X', '-n', '-P', '-j', ids.join(','), '-o', ACCOUNTING_FORMAT], o)));
    return rows;
  }

  /** Jobs of this name since `sinceIso` (`YYYY-MM-DDTHH:MM:SS`), with the folder each ran in: how a resume finds a job it never journaled. */
  async jobsNamed(name: string, sinceIso: string, o: CallOptions = {}): Promise<{ jobId: string; workDir: string; state: string }[]> {
    const out = await this.call('sacct', ['-X', '-n', '-P', '--name', name, '-S', sinceIso, '-o', 'JobID,WorkDir,State'], o);
    const seen = new Map<string, { jobId: string; workDir: string; state: string }>();
    for (const line of out.split('\n')) {
      const [id = '', workDir = '', state = ''] = line.split('|');
      const jobId = id.split('_')[0]!;
      if (/^\d+$/.test(jobId) && !seen.has(jobId)) seen.set(jobId, { jobId, workDir, state: state.split(' ')[0]! });
    }
    return [...seen.values()];
  }

  /** Cancels tasks (`jobId_index`) or whole jobs (`jobId`). */
  async cancel(ids: readonly string[], o: CallOptions = {}): Promise<void> {
    for (const part of chunks(ids)) await this.call('scancel', [...part], { ...o, gone: /Invalid job id|already completing or completed|Job\/step already completing/i });
  }

  /** Cancels every job of this name (the run's): what no id list can miss. */
  async cancelNamed(name: string, o: CallOptions = {}): Promise<void> {
    await this.call('scancel', ['--name', name], o);
  }

  /** Whether any job of this name is still queued or running. */
  async anyNamed(name: string, o: CallOptions = {}): Promise<boolean> {
    return (await this.call('squeue', ['-h', '--name', name, '-o', '%i'], o)).trim() !== '';
  }

  /**
   * Runs a tool until it answers. Unreachable and busy are waited out (backoff, doubling up to the
   * policy's maximum); `gone` marks output that means "nothing to report" rather than a failure.
   */
  private async call(command: SlurmCommand, args: readonly string[], o: CallOptions & { gone?: RegExp }): Promise<string> {
    let wait = this.backoff.firstMs;
    for (;;) {
      o.signal?.throwIfAborted();
      this.calls[command]++;
      const out = await this.runner.run(command, args);
      if (out.code === 0) {
        this.answered();
        return out.stdout;
      }
      if (o.gone?.test(`${out.stderr}\n${out.stdout}`)) {
        this.answered();
        return '';
      }
      const kind = classifyFailure(out);
      const said = oneLine(out.stderr || out.stdout || `exit code ${out.code}`);
      if (kind === 'refused') {
        if (out.code === null) throw new RatchetError('badInput', `Slurm's ${command} is not on PATH here: run Ratchet where Slurm's commands are installed (a login node), or use evaluator.backend: local.`, { command });
        throw new RatchetError('badInput', `Slurm refused ${command}: ${said}`, { command, args: [...args] });
      }
      if (o.deadline !== undefined && this.clock.now() + wait > o.deadline) {
        throw new RatchetError('internal', `Slurm did not answer ${command} before the run had to end: ${said}`, { command });
      }
      if (this.outage === undefined) {
        this.outage = kind === 'busy' ? `the cluster accepts no more jobs for now (${said})` : `Slurm does not answer (${said})`;
        this.events.paused(`${this.outage}: submissions and polls are paused and retried with backoff`, wait);
      }
      await this.clock.sleep(wait, o.signal);
      wait = Math.min(this.backoff.maxMs, wait * 2);
    }
  }

  private answered(): void {
    if (this.outage === undefined) return;
    const was = this.outage;
    this.outage = undefined;
    this.events.resumed(`Slurm answers again (after: ${was}); submissions go on`);
  }
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Clock time after which an unanswered call gives up instead of waiting again. */
  deadline?: number;
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += IDS_PER_CALL) out.push(items.slice(i, i + IDS_PER_CALL));
  return out;
}

function oneLine(text: string): string {
  return text.trim().split('\n').filter(Boolean).slice(-2).join(' | ').slice(0, 300);
}
