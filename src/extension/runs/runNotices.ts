/**
 * What the user is told when a run ends: a failure is an error at the editor edge (logged, shown
 * once, with Open Log), a normal end is a line in the log and the status bar. How a run ended is
 * its terminal status (the daemon's word, which also covers a run that stopped with no terminal
 * event); the engine's warnings and waits come from its events. Pure wording here; main.ts shows
 * it. Only live notifications count: a journal replayed into the panel is history.
 */
import { formatScore, isOver } from '../../core/journal/runStatus';
import type { LiveRunStatus } from '../../core/journal/runStatus';
import type { RunEventParams, RunListEntry, RunStatusParams } from '../../protocol/lsp';
import { formatWait } from '../../core/llm/retry';
import { fileName } from '../../core/fileName';

export interface RunNotice {
  level: 'info' | 'error';
  message: string;
  /** Also shown as a message (failures, a code search's outcome); otherwise only logged. */
  show: boolean;
  /** Commands offered on the message, by name (commandTable.ts), with their buttons' words. */
  actions?: NoticeAction[];
}

export interface NoticeAction {
  title: string;
  command: 'testConnection' | 'selectModel';
}

/**
 * Failures of the endpoint itself (unreachable, an unknown model, a rejected key, an answer that
 * is not the API) are fixed by pointing Ratchet at a working endpoint and model: the message offers
 * the two commands that do that. Its text already names the setting or spec line that chose them.
 * Test Connection comes first: it lists the endpoint's own models (Ollama's, vLLM's) to pick from;
 * the second button switches to VS Code's language models, and says so rather than "Select Model",
 * which an endpoint user read as picking one of the endpoint's.
 */
const ENDPOINT_FAILURES: ReadonlySet<string> = new Set(['llmHttp', 'llmNetwork', 'llmTimeout', 'llmMalformed']);
export const ENDPOINT_ACTIONS: readonly NoticeAction[] = [
  { title: 'Test Connection', command: 'testConnection' },
  { title: 'Use a VS Code Model', command: 'selectModel' },
];

function failedNotice(message: string, errorCode: string | undefined): RunNotice {
  const notice: RunNotice = { level: 'error', message, show: true };
  if (errorCode !== undefined && ENDPOINT_FAILURES.has(errorCode)) notice.actions = [...ENDPOINT_ACTIONS];
  return notice;
}

function uriFileName(uri: string): string {
  return decodeURIComponent(fileName(uri));
}

/** The notice for a status, once: when it is the first over for its run (`previous` is the one it replaced). */
export function endNotice(p: RunStatusParams, previous: LiveRunStatus | undefined): RunNotice | undefined {
  const s = p.status;
  if (!isOver(s) || (previous !== undefined && isOver(previous))) return undefined;
  const where = `${uriFileName(p.uri)} (run ${s.runId})`;
  if (s.kind === 'search') return searchEndNotice(s, where);
  if (s.kind === 'gen-data') return genDataEndNotice(s, where);
  // Evaluate tests no candidate: its line says what it scored.
  const counts = s.kind === 'evaluate' ? s.line : `${s.tested} tested, ${s.commits} committed`;
  switch (s.state) {
    case 'failed':
      return failedNotice(`Ratchet: the run on ${where} failed — ${(s.error ?? 'no reason given').replace(/\.$/, '')}.`, s.errorCode);
    case 'finished':
      return { level: 'info', message: `Run on ${where} finished: ${counts}.`, show: false };
    case 'cancelled':
      return { level: 'info', message: `Run on ${where} was cancelled (${counts}).`, show: false };
    case 'interrupted':
      return { level: 'info', message: `Run on ${where} stopped before it ended (${counts}); Resume continues it from its journal.`, show: false };
    default:
      return undefined;
  }
}

/**
 * A code search's end. Its outcome is shown: the search was started to find a better program, and
 * whether it did (the best score against the start) is the answer the user waits for; the run id
 * finds its programs in the journal.
 */
function searchEndNotice(s: LiveRunStatus, where: string): RunNotice | undefined {
  const counts = `${s.tested} program${s.tested === 1 ? '' : 's'} tested, ${s.commits} committed`;
  const { start, best } = s.search ?? {};
  const scores =
    best === undefined || start === undefined ? '' : best.score > start ? `; best ${formatScore(best.score)} (${best.candidateId}), up from ${formatScore(start)} at the start` : `; nothing beat the starting program's ${formatScore(start)}`;
  switch (s.state) {
    case 'failed':
      return failedNotice(`Ratchet: the code search on ${where} failed — ${(s.error ?? 'no reason given').replace(/\.$/, '')}.`, s.errorCode);
    case 'finished':
      if (s.stopped !== undefined) return { level: 'info', message: `Ratchet: the code search on ${where} stopped early: ${s.stopped.replace(/\.$/, '')} (${counts}${scores}).`, show: true };
      return { level: 'info', message: `Ratchet: the code search on ${where} finished: ${counts}${scores}.`, show: true };
    case 'cancelled':
      return { level: 'info', message: `Code search on ${where} was cancelled (${counts}${scores}).`, show: false };
    case 'interrupted':
      return { level: 'info', message: `Code search on ${where} stopped before it ended (${counts}); Resume continues it from its journal.`, show: false };
    default:
      return undefined;
  }
}

/**
 * A dev-set generation's end. Its failure is shown here; what it wrote is said by Generate Dev Set
 * itself, which opens the dev set (genDataCommands.ts), so here it is only logged.
 */
function genDataEndNotice(s: LiveRunStatus, where: string): RunNotice | undefined {
  switch (s.state) {
    case 'failed':
      return failedNotice(`Ratchet: Generate Dev Set on ${where} failed — ${(s.error ?? 'no reason given').replace(/\.$/, '')}; nothing was written.`, s.errorCode);
    case 'finished':
      return { level: 'info', message: `Dev-set generation on ${where} finished: ${s.line}.`, show: false };
    case 'cancelled':
      return { level: 'info', message: `Dev-set generation on ${where} was cancelled; nothing was written.`, show: false };
    case 'interrupted':
      return { level: 'info', message: `Dev-set generation on ${where} stopped before it ended; nothing was written.`, show: false };
    default:
      return undefined;
  }
}

/** What the engine says along the way that belongs in the log. */
export function runNotice(p: RunEventParams): RunNotice | undefined {
  const e = p.event;
  const where = `${uriFileName(p.uri)} (run ${p.runId})`;
  switch (e.type) {
    case 'log':
      return e.level === 'warn' ? { level: 'info', message: `Run on ${where}: ${e.message}`, show: false } : undefined;
    case 'llm/waiting':
      // Logged, never shown: the status bar and the panel say it while it lasts.
      return { level: 'info', message: `Run on ${where}: ${e.why === 'rate-limited' ? 'rate limited' : 'retrying a failed call'} (${e.role}), waiting ${formatWait(e.waitMs)}: ${e.message}`, show: false };
    default:
      return undefined;
  }
}

export interface ResumeOffer {
  message: string;
  button: string;
  /** The one run the button resumes; absent when several wait and the button opens the picker. */
  runId?: string;
}

/**
 * What Ratchet says when the process running runs died. One run names its file, and its Resume
 * resumes it at once; several are counted, and Resume… lets the user pick.
 */
export function resumeOffer(resumable: readonly RunListEntry[], count: number): ResumeOffer {
  const [only] = resumable;
  if (resumable.length === 1 && only) {
    const name = only.target !== undefined ? fileName(only.target) : only.runId;
    return {
      message: `Ratchet: the run on ${name} (run ${only.runId}) was interrupted: the process running it stopped mid-run. Resume continues it from its journal.`,
      button: 'Resume',
      runId: only.runId,
    };
  }
  const n = Math.max(count, resumable.length);
  return { message: `Ratchet: ${n} run${n === 1 ? ' was' : 's were'} interrupted (the process running ${n === 1 ? 'it' : 'them'} stopped mid-run).`, button: 'Resume…' };
}

/**
 * Which interrupted runs to offer. When a run's process just stopped, all of them; when a window
 * opens on the workspace, not those the user said not to ask about again.
 */
export function runsToOffer(resumable: readonly RunListEntry[], dismissed: ReadonlySet<string>, justStopped: boolean): RunListEntry[] {
  return justStopped ? [...resumable] : resumable.filter((r) => !dismissed.has(r.runId));
}
