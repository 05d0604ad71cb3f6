/**
 * Printing for every subcommand: stdout carries the result (a table, or JSONL with --json) and
 * nothing else, so `ratchet … --json | jq` always parses; notes and errors go to stderr. Text that
 * came from an LLM or a file is flattened and stripped of control characters before it reaches a
 * terminal, where an escape sequence could otherwise rewrite the screen.
 */
import { assertNever } from '../core/errors';
import { sandboxPreflightText } from '../core/code/isolation';
import { formatWait } from '../core/llm/retry';
import type { DecisionRecord } from '../core/gates/record';
import { silenceText } from '../core/gates/abstentions';
import type { EngineEvent, EventOf } from '../core/journal/events';
import type { RunSummaryInfo } from '../core/journal/payloadTypes';
import { totalCost } from '../core/journal/listRuns';
import { describeEstimate as estimateWords, formatCost } from '../core/journal/costText';

export { formatCost };

let stdoutClosed = false;
let epipeGuardInstalled = false;

/** Writes to stdout; stops quietly once the reader went away (`ratchet runs show … | head`). */
export function writeOut(text: string): void {
  if (!epipeGuardInstalled) {
    epipeGuardInstalled = true;
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      stdoutClosed = true;
    });
  }
  if (!stdoutClosed) process.stdout.write(text);
}

/**
 * Resolves once stdout has taken what was written (at once unless its buffer is full), so output
 * made in a loop over a long journal waits for the reader instead of queueing in memory.
 */
export function stdoutDrained(): Promise<void> {
  const out = process.stdout;
  if (stdoutClosed || !out.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      out.off('error', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
    out.on('error', done);
  });
}

export function writeErr(text: string): void {
  process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** One JSON value per line: the `--json` format of every subcommand. */
export function toJsonl(values: Iterable<unknown>): string {
  let out = '';
  for (const v of values) out += `${JSON.stringify(v)}\n`;
  return out;
}

export function writeJsonl(values: Iterable<unknown>): void {
  writeOut(toJsonl(values));
}

export interface Column<R> {
  header: string;
  value: (row: R) => string;
  align?: 'left' | 'right';
  /** Longer cells are shortened with an ellipsis: at the start for paths (the file name matters), else at the end. */
  maxWidth?: number;
  truncate?: 'start' | 'end';
}

/** A plain-text table: a header row, then one row per item, columns two spaces apart. */
export function formatTable<R>(rows: readonly R[], columns: readonly Column<R>[]): string {
  const cells = rows.map((row) => columns.map((c) => fit(oneLine(c.value(row)), c.maxWidth, c.truncate)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]): string =>
    values
      .map((v, i) => (columns[i]!.align === 'right' ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n') + '\n';
}

// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]+/g;

/**
 * Untrusted text made safe and short for one terminal line: control characters (ANSI escapes
 * included) become spaces, runs of whitespace collapse, and it is cut at `max` characters.
 */
export function oneLine(text: string, max = Infinity): string {
  const flat = text.replace(CONTROL_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();
  return fit(flat, max, 'end');
}

function fit(text: string, max: number | undefined, from: 'start' | 'end' = 'end'): string {
  if (max === undefined || text.length <= max) return text;
  return from === 'start' ? `…${text.slice(text.length - max + 1)}` : `${text.slice(0, max - 1)}…`;
}

/** `2026-11-29 22:34:12` in UTC (the run ids' time zone, so the two agree). */
export function formatTimestamp(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

/** A time offset: `+0.8s`, `+42.1s`, `+3m05s`, `+1h02m`. */
export function formatOffset(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 60) return `+${s.toFixed(1)}s`;
  if (s < 3600) return `+${Math.floor(s / 60)}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
  return `+${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** The estimate's words (core/run/costText.ts), its model ids made safe for a terminal. */
export function describeEstimate(e: NonNullable<RunSummaryInfo['estimate']>): string {
  return estimateWords(e.unpriced === undefined ? e : { ...e, unpriced: e.unpriced.map((m) => oneLine(m)) });
}

/**
 * One engine event as a short human line (the key fields only), for `runs show` and for any
 * subcommand that prints events live without --json. Exhaustive over the union, so a new event
 * type fails to compile here until it has a rendering.
 */
export function describeEvent(e: EngineEvent): string {
  switch (e.type) {
    case 'run/started':
      return `${e.info.kind} ${oneLine(e.info.target)} · gate ${e.info.gate} α ${e.info.alpha} · ${e.info.mode} · seed ${e.info.seed}${e.resumed ? ' (resumed)' : ''}${e.info.estimate ? ` · estimate ${describeEstimate(e.info.estimate)}` : ''}`;
    case 'candidate/proposed':
      return `${e.candidateId} from ${e.parentId ?? 'scratch'} · ${e.contentHash.slice(0, 8)}${e.reasoning ? ` · ${oneLine(e.reasoning, 80)}` : ''}`;
    case 'item/evaluated':
      if (e.abstained !== undefined) return `${e.candidateId} on ${e.itemId}: no score, ${oneLine(e.abstained, 160)}`;
      return `${e.candidateId} on ${e.itemId}: score ${round(e.score)}${e.cached ? ' (cached)' : ''}`;
    case 'verdict': {
      const on = `${e.candidateId} vs ${e.parentId}${e.itemId === undefined ? '' : ` on ${e.itemId}`}`;
      if (e.winner === 'abstained') return `${on}: the judge did not answer, asked twice (${e.order})${e.problem ? `: ${oneLine(e.problem, 120)}` : ''}`;
      return `${on}: ${e.winner === 'tie' ? 'tie' : `${e.winner} wins`} (${e.order})`;
    }
    case 'wealth/step':
      return `${e.candidateId} k=${e.k} ${e.itemId}: ${e.abstained ? 'no answer, left out' : e.delta > 0 ? 'win ' : e.delta < 0 ? 'loss' : 'tie '} → wealth ${round(Math.exp(e.logWealth))} of ${round(Math.exp(e.logThreshold))}`;
    case 'decision': {
      const r = e.record;
      const unjudged = r.unjudged ? ` ${r.unjudged} unjudged` : '';
      const silence = silenceText(r.judge);
      return `${r.decision.toUpperCase()} ${r.candidateId} (${r.reason}) · ${r.gate} α ${r.alpha} · ${r.wins}W ${r.losses}L ${r.ties}T${unjudged} over ${r.itemsConsumed} items · ${evidenceOf(r)}${silence ? ` · ${silence}` : ''}`;
    }
    case 'suggestion':
      return `${e.candidateId} suggested for ${oneLine(e.file)}`;
    case 'edit/applied':
      return `${e.candidateId} applied to ${oneLine(e.file)} by ${e.by}`;
    case 'edit/rejected': {
      const what = e.by === 'user' ? `rejected for ${oneLine(e.file)} by user` : `withdrawn from ${oneLine(e.file)} (${e.reason ?? 'by the run'})`;
      return `${e.candidateId} ${what}${e.why ? `: ${oneLine(e.why, 80)}` : ''}`;
    }
    case 'cost/update': {
      const total = totalCost(e.cost, e.llmCalls);
      return `${e.llmCalls} LLM calls · ${formatCost(total)}${total.dollars === undefined ? '' : ` · ${total.tokens} tokens`}`;
    }
    case 'dataset/loaded':
      return `${e.items.length} items`;
    case 'rubric/updated':
      return `rubric v${e.version}${e.why ? `: ${oneLine(e.why, 80)}` : ''}`;
    case 'ratings':
      return e.ratings.map((r) => `${r.candidateId} ${Math.round(r.elo)}`).join(' · ');
    case 'report/test': {
      const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
      return `${e.split ?? 'test'} split (${e.n} items): ${e.baseline.candidateId} ${pct(e.baseline.mean)} → ${e.final.candidateId} ${pct(e.final.mean)} (Δ ${pct(e.difference.mean)}, 95% [${pct(e.difference.lo)}, ${pct(e.difference.hi)}])`;
    }
    case 'log':
      // A warning says what to do next, and its end is often that advice: cut it later than a note.
      return `${e.level}: ${oneLine(e.message, e.level === 'warn' ? 400 : 120)}`;
    case 'llm/waiting':
      return `${e.why === 'rate-limited' ? 'rate limited' : 'retrying'} (${e.role}), waiting ${formatWait(e.waitMs)}: ${oneLine(e.message, 120)}`;
    case 'run/resumed':
      return `after ${formatOffset(e.elapsedMs).slice(1)} of run time`;
    case 'candidate/stopped':
      return `${e.candidateId} not decided: stopped by budget (${e.budget})`;
    case 'proposal/failed':
      return `from ${e.parentId} (${e.kind}, attempt ${e.attempt}): ${e.reason}: ${oneLine(e.message, 160)}`;
    case 'program/evaluated': {
      // What the sandbox saw (a limit, a leftover, a late write, an escape tried) is said on the line, whatever the verdict.
      const seen = (e.incidents ?? []).filter((i) => e.correct || !(e.error ?? '').includes(i));
      const sandbox = seen.length > 0 ? ` · sandbox: ${seen.map((i) => oneLine(i, 160)).join('; ')}` : '';
      return `${e.candidateId} ${e.correct ? `score ${e.score === undefined ? '—' : e.score.toPrecision(6)} on ${plural(e.instances, 'instance')}` : `incorrect: ${oneLine(e.error ?? '', 160)}`}${sandbox}`;
    }
    case 'sandbox/preflight':
      return sandboxPreflightText(e);
    case 'program/migrated':
      return `after generation ${e.generation}: ${e.moves.map((m) => `${m.programId} island ${m.from}→${m.to}`).join(' · ')}`;
    case 'meta/notes':
      return `after ${e.afterProgram}: ${e.recommendations.map((r) => oneLine(r, 80)).join(' · ')}`;
    case 'zero/round':
      return describeZeroRound(e);
    case 'slurm/submitted':
      return `job ${e.jobId}: ${plural(e.tasks.length, 'task')} for ${e.programHash.slice(0, 8)}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}${e.adopted ? ' (found by name at resume)' : ''}`;
    case 'slurm/task':
      return `task ${e.jobId}_${e.index} ${e.state}${e.reason ? ` (${oneLine(e.reason, 80)})` : ''}${e.clusterSeconds === undefined ? '' : ` · ${e.clusterSeconds} cluster-s`}${e.outcome ? ` → ${e.outcome}` : ''}`;
    case 'slurm/cancelled':
      return `scancel ${plural(e.indices.length, 'task')} of job ${e.jobId} (${e.why})`;
    case 'slurm/attached':
      return `re-attached to ${plural(e.indices.length, 'task')} of job ${e.jobId}`;
    case 'slurm/status':
      return `${e.state}: ${oneLine(e.message, 160)}`;
    case 'run/finished':
      return `${plural(e.candidates, 'candidate')}, ${plural(e.commits, 'commit')}; incumbent ${e.incumbentId ?? 'the original'}${e.stopped === undefined ? '' : `; stopped early: ${oneLine(e.stopped, 300)}`}`;
    case 'run/failed':
      return `${e.error.code}: ${oneLine(e.error.message, 200)}`;
    case 'run/cancelled':
      return 'by the user';
    default:
      return assertNever(e, 'engine event');
  }
}

/** `round 1: 12 written · 8 kept, 3 held out · dropped 2 format, 1 duplicate, 2 low dispersion · judge role 0.83 [0.44, 0.97] n 6, amplification —`. */
function describeZeroRound(e: EventOf<'zero/round'>): string {
  const d = e.discarded;
  const format = Object.values(d.format).reduce((a, b) => a + b, 0);
  const dropped = [
    [format, 'format'],
    [d.duplicate, 'duplicate'],
    [d.unjudged, 'unjudged'],
    [d.lowDispersion, 'low dispersion'],
    [d.notInTopK, 'not in top K'],
  ].filter(([n]) => (n as number) > 0);
  const reliability = e.reliability.map((r) => `${r.type === 'roleAsymmetry' ? 'role' : 'amplification'} ${r.agreement === undefined ? '—' : `${round(r.agreement)} [${round(r.lo)}, ${round(r.hi)}]`} n ${r.pairs}`).join(', ');
  return (
    `round ${e.round}: ${e.written} written · ${e.kept.length} kept, ${e.heldOut.length} held out` +
    (dropped.length > 0 ? ` · dropped ${dropped.map(([n, why]) => `${n} ${why}`).join(', ')}` : '') +
    ` · judge ${reliability} · ${plural(e.exemplars.length, 'exemplar')} next`
  );
}

/**
 * What decided: the wealth against its threshold, or for a greedy decision, which bets nothing,
 * the two scores it compared (a prompt run's candidateScore/incumbentScore, a code search's means).
 */
function evidenceOf(r: DecisionRecord): string {
  if (r.reason === 'abstained') return 'no verdict';
  if (r.reason !== 'greedy') return `wealth ${round(Math.exp(r.logWealth))} of ${round(r.threshold)}`;
  const s = r.statistic ?? {};
  const candidate = s.candidateScore ?? s.childMean;
  const incumbent = s.incumbentScore ?? s.parentMean;
  // Six digits: two close scores must not print alike.
  const digits = (x: number) => String(Number(x.toPrecision(6)));
  return candidate === undefined || incumbent === undefined ? 'no bet' : `score ${digits(candidate)} vs ${digits(incumbent)}`;
}

/** Three significant digits: wealth and thresholds are read by eye, and exp(ln 20) should print as 20. */
function round(x: number): string {
  return String(Number(x.toPrecision(3)));
}

/** `1 commit`, `3 commits`. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
