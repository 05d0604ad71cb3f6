/**
 * The evaluator contract of code search, pure: what an evaluation's outputs mean, and how an
 * evaluator command line becomes an argv. The sandbox (src/node/sandbox/sandbox.ts) runs the process and
 * hands the texts it read here; nothing in this file touches a process or a file.
 *
 * Two evaluator forms are accepted (issue #13):
 * - Ratchet's: a command with `{program}`/`{results}` placeholders that prints one JSON object on
 *   stdout or writes `{results}/metrics.json`:
 *   `{"correct": true, "combined_score": 2.61, "instances": {"inst-001": 0.93}, "public": {},
 *   "private": {}, "text_feedback": "…"}`.
 * - ShinkaEvolve's, unchanged: `evaluate.py --program_path P --results_dir R` writing
 *   `correct.json` `{"correct", "error"}` and `metrics.json` (`combined_score`, `public`,
 *   `private`, `text_feedback`); per-instance scores come from `instances`, else `private.instances`.
 *
 * An incorrect program is never a parent or the best, so every doubt reads as incorrect, with the
 * reason in words: a non-zero exit, `correct: false`, a missing or unparsable result, a score that
 * is not a finite number (Python's json writes NaN and Infinity, which JSON.parse refuses — they
 * are read here so the reason says "combined_score is NaN" rather than "Unexpected token N").
 */
import { RatchetError } from '../errors';
import { isPlainObject } from '../data/item';
import { parseJsonLenient } from './pythonJson';

/** One evaluation of one program. Consumers check `correct` before anything else. */
export interface Evaluation {
  correct: boolean;
  /** `combined_score`; when absent, the mean of the instance scores. Higher is better. */
  score?: number;
  /** Per-instance scores keyed by stable instance id: what the paired gates consume. */
  instances?: Record<string, number>;
  /** Metrics shown to the proposer. */
  public?: Record<string, unknown>;
  /** Metrics never shown to the proposer. */
  private?: Record<string, unknown>;
  /** `text_feedback`. */
  feedback?: string;
  /** Why the program is incorrect, in words; absent when correct. */
  error?: string;
}

/**
 * Reads a Ratchet-form evaluation. `metrics.json` wins when it was written (an evaluator that logs
 * freely on stdout writes its result there); otherwise stdout is read as one JSON object, or —
 * when the evaluator printed logs before it — its last line that holds one.
 */
export function fromRatchetOutput(stdout: string, metricsJsonText?: string): Evaluation {
  let value: unknown;
  let where: string;
  if (metricsJsonText !== undefined) {
    where = 'metrics.json';
    const parsed = parseJsonLenient(metricsJsonText);
    if ('error' in parsed) return incorrect(`metrics.json is not JSON: ${parsed.error}`);
    value = parsed.value;
  } else {
    where = 'stdout';
    const found = lastJsonObject(stdout);
    if (found === undefined) return incorrect('the evaluator printed no JSON object on stdout and wrote no {results}/metrics.json');
    if ('error' in found) return incorrect(`stdout is not JSON: ${found.error}`);
    value = found.value;
  }
  if (!isPlainObject(value)) return incorrect(`${where} holds ${describe(value)}, not a JSON object`);
  const verdict = readCorrect(value, where);
  const metrics = readMetrics(value, where);
  // A result without `correct` counts as correct when the rest holds: the exit code already said
  // the evaluator ran to the end, and a bare {"combined_score": n} is what most users print first.
  return combine(verdict ?? { correct: true }, metrics);
}

/** Reads a ShinkaEvolve-form evaluation from the two files `evaluate.py` writes; undefined = not written. */
export function fromShinkaResults(correctJsonText?: string, metricsJsonText?: string): Evaluation {
  let verdict: Verdict;
  if (correctJsonText === undefined) verdict = { correct: false, error: 'the evaluator wrote no correct.json' };
  else {
    const parsed = parseJsonLenient(correctJsonText);
    if ('error' in parsed) verdict = { correct: false, error: `correct.json is not JSON: ${parsed.error}` };
    else if (!isPlainObject(parsed.value)) verdict = { correct: false, error: `correct.json holds ${describe(parsed.value)}, not a JSON object` };
    else verdict = readCorrect(parsed.value, 'correct.json') ?? { correct: false, error: 'correct.json has no "correct" field' };
  }
  if (metricsJsonText === undefined) {
    // Shinka's runner scores a missing result as incorrect; so do we, keeping correct.json's reason.
    return verdict.correct ? incorrect('the evaluator wrote no metrics.json') : incorrect(verdict.error);
  }
  const parsed = parseJsonLenient(metricsJsonText);
  if ('error' in parsed) return incorrect(verdict.correct ? `metrics.json is not JSON: ${parsed.error}` : verdict.error);
  if (!isPlainObject(parsed.value)) return incorrect(verdict.correct ? `metrics.json holds ${describe(parsed.value)}, not a JSON object` : verdict.error);
  return combine(verdict, readMetrics(parsed.value, 'metrics.json'));
}

/** How the evaluator process ended, as the sandbox saw it. */
export interface ProcessOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  timeoutMs?: number;
  /** The end of stderr, quoted in the reason of a failed run. */
  stderr?: string;
}

/**
 * The evaluation of a run: a process that did not end cleanly makes the program incorrect whatever
 * its outputs say (a timed-out evaluator may have written a stale or partial metrics.json). The
 * outputs' own fields are kept for the proposer's fix-up prompt.
 */
export function withProcessOutcome(outcome: ProcessOutcome, parsed: Evaluation): Evaluation {
  const failure = processFailure(outcome);
  if (failure === undefined) return parsed;
  const { error: _ignored, ...rest } = parsed;
  return { ...rest, correct: false, error: failure };
}

function processFailure(o: ProcessOutcome): string | undefined {
  if (o.cancelled) return 'the evaluation was cancelled';
  if (o.timedOut) return `the evaluator did not finish within ${o.timeoutMs === undefined ? 'its time limit' : `${o.timeoutMs / 1000} s`} and was killed`;
  const tail = stderrTail(o.stderr);
  if (o.exitCode === null) {
    const hint = LIMIT_SIGNALS[o.signal ?? ''] ?? '';
    return `the evaluator was killed by ${o.signal ?? 'a signal'}${hint}${tail}`;
  }
  if (o.exitCode !== 0) return `the evaluator exited with code ${o.exitCode}${shellSignalHint(o.exitCode)}${tail}`;
  return undefined;
}

const LIMIT_SIGNALS: Record<string, string> = {
  SIGXCPU: ' (its CPU-time limit)',
  SIGXFSZ: ' (its file-size limit)',
  SIGKILL: ' (a resource limit or the sandbox)',
};

/**
 * A shell reports a child killed by signal n as exit code 128 + n; the limits' signals are worth
 * naming. Numbers as on Linux and macOS (SIGKILL 9, SIGXCPU 24, SIGXFSZ 25).
 */
function shellSignalHint(code: number): string {
  const name = ({ 137: 'SIGKILL', 152: 'SIGXCPU', 153: 'SIGXFSZ' } as Record<number, string>)[code];
  return name === undefined ? '' : ` (128 + ${name}: ${LIMIT_SIGNALS[name]!.slice(2, -1)})`;
}

function stderrTail(stderr: string | undefined): string {
  const tail = (stderr ?? '').trim().split('\n').slice(-3).join(' | ').slice(-300);
  return tail === '' ? '' : `: ${tail}`;
}

// ---------------------------------------------------------------------------------------------
// Shards

/**
 * Splits instance ids into at most `count` shards of near-equal size, keeping their order (a shard
 * is a contiguous run, so a resumed run asks for the same shards).
 */
export function splitShards(ids: readonly string[], count: number): string[][] {
  const n = Math.max(1, Math.min(Math.floor(count), ids.length));
  const shards: string[][] = [];
  for (let k = 0; k < n; k++) shards.push(ids.slice(Math.floor((k * ids.length) / n), Math.floor(((k + 1) * ids.length) / n)));
  return shards.filter((s) => s.length > 0);
}

/**
 * One evaluation from the evaluations of its shards. The program is correct only when every shard
 * is, and each shard scored exactly the instances it was given: a shard that drops or invents an
 * instance would bias the paired gates, which compare parent and child instance by instance. The
 * score is the mean of all instance scores (a shard's own combined_score cannot be combined
 * without knowing how it was made); text feedback is joined; public and private metrics are kept
 * only for a single shard, since no merge of arbitrary metrics is right in general.
 */
export function mergeShards(shards: readonly { instances: readonly string[]; evaluation: Evaluation }[]): Evaluation {
  if (shards.length === 1) return shards[0]!.evaluation;
  const instances: Record<string, number> = {};
  const feedback: string[] = [];
  const errors: string[] = [];
  shards.forEach(({ instances: asked, evaluation }, k) => {
    const label = `shard ${k + 1} of ${shards.length}`;
    if (evaluation.feedback !== undefined) feedback.push(evaluation.feedback);
    if (!evaluation.correct) {
      errors.push(`${label}: ${evaluation.error ?? 'incorrect'}`);
      return;
    }
    const got = evaluation.instances ?? {};
    const missing = asked.filter((id) => !(id in got));
    const extra = Object.keys(got).filter((id) => !asked.includes(id));
    if (missing.length > 0) errors.push(`${label} scored no ${listIds(missing)}`);
    if (extra.length > 0) errors.push(`${label} scored ${listIds(extra)}, which it was not given`);
    for (const [id, v] of Object.entries(got)) {
      if (id in instances) errors.push(`instance "${id}" was scored by two shards`);
      instances[id] = v;
    }
  });
  const joined = feedback.join('\n');
  if (errors.length > 0) return { correct: false, error: errors.join('; '), ...(joined ? { feedback: joined } : {}) };
  const values = Object.values(instances);
  if (values.length === 0) return { correct: false, error: 'no shard scored any instance' };
  return { correct: true, score: values.reduce((a, b) => a + b, 0) / values.length, instances, ...(joined ? { feedback: joined } : {}) };
}

function listIds(ids: string[]): string {
  const shown = ids
    .slice(0, 3)
    .map((id) => `"${id}"`)
    .join(', ');
  return `instance${ids.length === 1 ? '' : 's'} ${shown}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Fields

interface Verdict {
  correct: boolean;
  error?: string;
}

function readCorrect(obj: Record<string, unknown>, where: string): Verdict | undefined {
  if (!('correct' in obj)) return undefined;
  if (typeof obj.correct !== 'boolean') return { correct: false, error: `${where}: "correct" is ${describe(obj.correct)}, not true or false` };
  if (obj.correct) return { correct: true };
  const error = typeof obj.error === 'string' && obj.error.trim() !== '' ? obj.error : `the evaluator reported correct: false`;
  return { correct: false, error };
}

/** The metric fields, or the first reason they cannot be trusted. */
type Metrics = { fields: Omit<Evaluation, 'correct' | 'error'>; error?: string };

function readMetrics(obj: Record<string, unknown>, where: string): Metrics {
  const fields: Metrics['fields'] = {};
  const errors: string[] = [];
  for (const key of ['public', 'private'] as const) {
    const v = obj[key];
    if (v === undefined || v === null) continue;
    if (isPlainObject(v)) fields[key] = v;
    else errors.push(`"${key}" is ${describe(v)}, not an object`);
  }
  const feedback = obj.text_feedback;
  if (typeof feedback === 'string') {
    if (feedback !== '') fields.feedback = feedback;
  } else if (feedback !== undefined && feedback !== null) errors.push(`"text_feedback" is ${describe(feedback)}, not a string`);

  const rawInstances = obj.instances ?? (isPlainObject(obj.private) ? obj.private.instances : undefined);
  if (rawInstances !== undefined && rawInstances !== null) {
    const read = readInstances(rawInstances);
    if (typeof read === 'string') errors.push(read);
    else fields.instances = read;
  }

  const score = obj.combined_score;
  if (score !== undefined && score !== null) {
    if (typeof score !== 'number') errors.push(`"combined_score" is ${describe(score)}, not a number`);
    else if (!Number.isFinite(score)) errors.push(`"combined_score" is ${String(score)}`);
    else fields.score = score;
  } else if (fields.instances !== undefined && Object.keys(fields.instances).length > 0) {
    const values = Object.values(fields.instances);
    fields.score = values.reduce((a, b) => a + b, 0) / values.length;
  } else errors.push('no "combined_score" (and no instance scores to average)');

  return errors.length === 0 ? { fields } : { fields, error: `${where}: ${errors.join('; ')}` };
}

/** Instance scores are finite numbers; a boolean pass/fail reads as 1/0. */
function readInstances(raw: unknown): Record<string, number> | string {
  if (!isPlainObject(raw)) return `"instances" is ${describe(raw)}, not an object of id → score`;
  const out: Record<string, number> = {};
  for (const [id, v] of Object.entries(raw)) {
    if (typeof v === 'boolean') out[id] = v ? 1 : 0;
    else if (typeof v === 'number' && Number.isFinite(v)) out[id] = v;
    else return `instance "${id}" scored ${typeof v === 'number' ? String(v) : describe(v)}; instance scores must be finite numbers`;
  }
  return out;
}

function combine(verdict: Verdict, metrics: Metrics): Evaluation {
  if (!verdict.correct) return { ...metrics.fields, correct: false, error: verdict.error ?? 'incorrect' };
  if (metrics.error !== undefined) return { ...metrics.fields, correct: false, error: metrics.error };
  return { ...metrics.fields, correct: true };
}

function incorrect(error: string | undefined): Evaluation {
  return { correct: false, error: error ?? 'incorrect' };
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'object') return 'an object';
  return String(v);
}

/** The whole of stdout as JSON, else its last line that opens an object; undefined when none does. */
function lastJsonObject(stdout: string): { value: unknown } | { error: string } | undefined {
  const whole = stdout.trim();
  if (whole === '') return undefined;
  const parsed = parseJsonLenient(whole);
  if (!('error' in parsed)) return parsed;
  const lines = whole.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (line.startsWith('{')) return parseJsonLenient(line);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The command line

export interface CommandPlaceholders {
  /** Path of the candidate's copy in the sandbox. */
  program: string;
  /** The directory the evaluator may write metrics.json (and anything else) into. */
  results: string;
  /** Path of a file listing the instance ids to run, one per line (sharded runs). */
  instances?: string;
}

const PLACEHOLDER = /\{(program|results|instances)\}/g;

/** Whether the command asks for an instance list, i.e. can be run in shards. */
export function commandUsesInstances(template: string): boolean {
  return template.includes('{instances}');
}

/**
 * Turns an evaluator command line into an argv, placeholders filled in.
 *
 * No shell runs it: the line is split into words with sh-like quoting ('…', "…", backslash), and
 * each placeholder is replaced inside its word, so a path with spaces or quotes stays one argument
 * and can never become shell text. For that reason unquoted shell operators (| & ; < > ( ) $ `)
 * are refused rather than passed on as literal arguments that would silently do nothing; a user
 * who needs a pipe writes `sh -c '… "$RATCHET_PROGRAM" …'` and reads the paths from the
 * environment, where no quoting can go wrong.
 */
export function expandCommand(template: string, values: CommandPlaceholders): string[] {
  const words = splitCommand(template);
  if (words.length === 0) throw commandError(template, 'the evaluator command is empty');
  if (values.instances === undefined && commandUsesInstances(template)) {
    throw commandError(template, 'the evaluator command uses {instances} but no instance list was given');
  }
  return words.map((w) => w.replace(PLACEHOLDER, (_m, name: keyof CommandPlaceholders) => values[name] ?? ''));
}

const SHELL_OPERATORS = new Set(['|', '&', ';', '<', '>', '(', ')', '$', '`']);

/** Splits a command line like sh does, without expansions; throws badInput on an unclosed quote or a shell operator. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw commandError(line, 'the evaluator command has an unclosed single quote');
      word += line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        // Inside double quotes sh keeps a backslash unless it escapes one of these.
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) j++;
        word += line[j];
      }
      if (j >= line.length) throw commandError(line, 'the evaluator command has an unclosed double quote');
      i = j;
    } else if (c === '\\') {
      if (i + 1 < line.length) word += line[++i];
    } else if (SHELL_OPERATORS.has(c)) {
      throw commandError(line, `the evaluator command runs without a shell, so "${c}" would do nothing: quote it, or write sh -c '…' and use "$RATCHET_PROGRAM" / "$RATCHET_RESULTS" inside`);
    } else word += c;
  }
  if (inWord) words.push(word);
  return words;
}

function commandError(command: string, message: string): RatchetError {
  return new RatchetError('badInput', `${message}.`, { command });
}
