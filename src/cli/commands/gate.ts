/**
 * `ratchet gate <pace|pace+|sign|greedy> [options] < outcomes.jsonl` — audit gate decisions from
 * recorded paired outcomes, through the same gate code the engine runs (src/core/gates).
 *
 * Input: one JSON object per line, `{"candidateId": "c1", "id": "item-7", "incumbent": 0,
 * "candidate": 1}`; outcomes are 0/1 or scores in [0, 1]; without candidateId the file is one
 * candidate. The file IS the recorded order (GATES.md A2): each candidate's items are consumed in
 * file order, candidates are tested in order of first appearance, and run-level thresholds
 * (GATES.md 4.5) advance in that order. Exit 0 if something committed, 1 if nothing did, 2 on error.
 */
import { Argument, Option } from 'commander';
import type { Command } from 'commander';
import type { BettorSpec, ScoreMode } from '../../core/gates/eprocess';
import type { PaceConfig } from '../../core/gates/pace';
import type { Population } from '../../core/gates/record';
import type { Decision, Schedule } from '../../core/gates/record';
import type { RunLedger } from '../../core/gates/thresholds';
import { RatchetError } from '../../core/errors';
import { AUDIT_GATES, isPaceGate } from '../../core/gates/gateTable';
import type { AuditGateName, PaceGateName } from '../../core/gates/gateTable';
import { greedyOnOutcomes } from '../../core/gates/greedy';
import { paceConfig, runPaceOnOutcomes } from '../../core/gates/pace';
import { preflight } from '../../core/gates/preflight';
import { signTestLevel, signTestOnDeltas } from '../../core/gates/signTest';
import { EMPTY_LEDGER, advanceLedger, checkAlpha } from '../../core/gates/thresholds';
import { scheduleRow } from '../../core/gates/schedules';
import { INPUT_LIMIT_VARIABLES, formatSize, lineTooLongMessage } from '../../core/files/inputLimits';
import type { InputLimits } from '../../core/files/inputLimits';
import { inputLimitsFromEnv } from '../../node/inputFile';
import { EXIT_NOTHING_ACCEPTED, EXIT_OK } from '../exitCodes';

/** `--run-level` values and the run-level schedule each replays (core/gates/schedules.ts). */
const RUN_LEVEL_SCHEDULES = { elond: 'e-lond', spending: 'fwer-spend', screened: 'fwer-screened' } as const satisfies Record<string, Schedule>;

interface GateOptions {
  alpha: string;
  lambda?: string;
  bettor?: BettorSpec['kind'];
  runLevel?: keyof typeof RUN_LEVEL_SCHEDULES;
  horizon?: string;
  scores: 'auto' | ScoreMode;
  futility: boolean;
  population: Population;
  json?: boolean;
}

export function registerGate(program: Command): void {
  program
    .command('gate')
    .description('Audit gate decisions from recorded paired outcomes (JSONL on stdin, one item per line, in the recorded order).')
    .addArgument(new Argument('<gate>', 'the gate to run').choices(AUDIT_GATES))
    .option('--alpha <A>', 'per-candidate false-commit level α', '0.05')
    .option('--lambda <L>', 'pace: the fixed bet λ (default 0.5); pace+: comma-separated λ grid (default 0.3,0.5,0.7,0.85)')
    .addOption(new Option('--bettor <kind>', 'pace+: betting strategy (GATES.md 4.1)').choices(['mixture', 'fixed', 'agrapa', 'ons', 'beta']))
    .addOption(
      new Option(
        '--run-level <mode>',
        "error control across candidates: e-LOND (FDR), α-spending (FWER), or screened (FWER, ratchet evolve's default: give only the candidates that reached the dev-set test, the j-th needs ×j(j+1)/α)",
      ).choices(Object.keys(RUN_LEVEL_SCHEDULES)),
    )
    .option('--horizon <T>', 'declared number of candidates: γ_t = 1/T (otherwise 6/(π²t²))')
    .addOption(new Option('--scores <mode>', 'outcome type; auto = binary when every outcome is 0 or 1').choices(['auto', 'binary', 'continuous']).default('auto'))
    .addOption(
      new Option('--population <null>', "pace, pace+: the null tested — 'infinite': no better on the task's items in general; 'finite': no better on exactly these items, read in a random order (GATES.md 1.2)")
        .choices(['infinite', 'finite'])
        .default('infinite'),
    )
    .option('--no-futility', 'pace+: keep testing until the items run out (decisions are identical, GATES.md 4.2)')
    .option('--json', 'one JSON object per candidate instead of the table')
    .addHelpText('after', '\nInput line: {"candidateId": "c1", "id": "item-7", "incumbent": 0, "candidate": 1}\nExit status: 0 if at least one candidate committed, 1 if none did, 2 on bad input.')
    .action(async (gate: AuditGateName, opts: GateOptions) => {
      if (process.stdin.isTTY) throw new RatchetError('badInput', 'ratchet gate reads outcomes from stdin: pipe a JSONL file, e.g. `ratchet gate pace+ < outcomes.jsonl`.');
      const text = await readStdin(inputLimitsFromEnv());
      const results = auditOutcomes(gate, opts, text);
      for (const r of results) if (r.message) process.stderr.write(`ratchet: ${r.message}\n`);
      process.stdout.write(opts.json ? results.map((r) => JSON.stringify(r.json)).join('\n') + '\n' : renderTable(results, gate, opts));
      process.exitCode = results.some((r) => r.json.decision === 'commit') ? EXIT_OK : EXIT_NOTHING_ACCEPTED;
    });
}

/**
 * stdin whole, within the input limits: `ratchet gate pace+ < /dev/zero` (or a runaway producer)
 * ends at once with the line it stopped on, instead of growing until the process dies.
 */
async function readStdin(limits: InputLimits): Promise<string> {
  const chunks: string[] = [];
  let size = 0;
  let line = 1;
  let lineLength = 0;
  const checkLine = () => {
    if (lineLength > limits.maxLineChars) {
      throw new RatchetError('badInput', `outcomes line ${line}: ${lineTooLongMessage(lineLength, limits)}.`, { line });
    }
  };
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin as AsyncIterable<string>) {
    size += chunk.length;
    if (size > limits.maxFileBytes) {
      throw new RatchetError('badInput', `outcomes on stdin run past the ${formatSize(limits.maxFileBytes)} Ratchet reads from one input; set ${INPUT_LIMIT_VARIABLES.maxFileBytes} to raise the limit.`, { line });
    }
    let pos = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', pos)) {
      lineLength += nl - pos;
      checkLine();
      line++;
      lineLength = 0;
      pos = nl + 1;
    }
    lineLength += chunk.length - pos;
    checkLine();
    chunks.push(chunk);
  }
  return chunks.join('');
}

export interface OutcomeLine {
  line: number;
  candidateId: string | undefined;
  id: string;
  incumbent: number;
  candidate: number;
}

/** Parses the JSONL; every problem names its line and field, nothing is guessed. */
export function parseOutcomes(text: string, scores: 'auto' | ScoreMode): OutcomeLine[] {
  const out: OutcomeLine[] = [];
  let named: boolean | undefined;
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, idx) => {
    const line = idx + 1;
    if (raw.trim() === '') return;
    const fail = (msg: string, field?: string): never => {
      throw new RatchetError('badInput', `outcomes line ${line}: ${msg}`, { line, ...(field ? { field } : {}) });
    };
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      return fail(`not valid JSON (${err instanceof Error ? err.message : String(err)}).`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return fail('expected a JSON object like {"id": "item-1", "incumbent": 0, "candidate": 1}.');
    }
    const obj = value as Record<string, unknown>;
    const hasCandidateId = 'candidateId' in obj;
    if (named === undefined) named = hasCandidateId;
    else if (named !== hasCandidateId) {
      fail(
        hasCandidateId ? '"candidateId" appears, but earlier lines have none; give every line a candidateId or none.' : '"candidateId" is missing, but earlier lines name candidates; give every line a candidateId or none.',
        'candidateId',
      );
    }
    const candidateId = hasCandidateId ? nonEmptyString(obj, 'candidateId', fail) : undefined;
    const id = nonEmptyString(obj, 'id', fail);
    const incumbent = outcome(obj, 'incumbent', scores, fail);
    const candidate = outcome(obj, 'candidate', scores, fail);
    const key = `${candidateId ?? ''}\u001f${id}`;
    const first = seen.get(key);
    if (first !== undefined) {
      fail(`item ${JSON.stringify(id)} appears twice${candidateId === undefined ? '' : ` for candidate ${JSON.stringify(candidateId)}`} (first on line ${first}); each item is tested once.`, 'id');
    }
    seen.set(key, line);
    out.push({ line, candidateId, id, incumbent, candidate });
  });
  if (out.length === 0) {
    throw new RatchetError('badInput', 'No outcomes on stdin: expected one JSON line per item, e.g. {"id": "item-1", "incumbent": 0, "candidate": 1}.');
  }
  return out;
}

type Fail = (msg: string, field?: string) => never;

function nonEmptyString(obj: Record<string, unknown>, field: string, fail: Fail): string {
  if (!(field in obj)) return fail(`"${field}" is missing; it must be a non-empty string.`, field);
  const v = obj[field];
  if (typeof v !== 'string' || v === '') return fail(`"${field}" must be a non-empty string, got ${JSON.stringify(v)}.`, field);
  return v;
}

function outcome(obj: Record<string, unknown>, field: string, scores: 'auto' | ScoreMode, fail: Fail): number {
  if (!(field in obj)) return fail(`"${field}" is missing; it must be a number in [0, 1].`, field);
  const v = obj[field];
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) return fail(`"${field}" must be a number in [0, 1], got ${JSON.stringify(v)}.`, field);
  if (scores === 'binary' && v !== 0 && v !== 1) return fail(`"${field}" must be 0 or 1 with --scores binary, got ${v}.`, field);
  return v;
}

export interface CandidateJson {
  candidateId: string | null;
  gate: AuditGateName;
  decision: Decision;
  reason: string;
  /** 1-based position among this candidate's items where the test stopped; 0 = before the first. */
  stoppedAt: number;
  stoppedAtItem: string | null;
  items: number;
  wins: number;
  losses: number;
  ties: number;
  /** Commit threshold for the wealth (e-process gates), else null. */
  threshold: number | null;
  /** Final wealth E (e-process gates), else null. */
  evidence: number | null;
  /** Wealth after each consumed item (e-process gates); [] for sign and greedy. */
  wealth: number[];
  pValue?: number;
  level?: number;
  candidateScore?: number;
  incumbentScore?: number;
  message?: string;
}

export interface CandidateResult {
  json: CandidateJson;
  message: string | undefined;
}

/** Runs the gate over every candidate of the parsed file, threading the run ledger. */
export function auditOutcomes(gate: AuditGateName, opts: GateOptions, text: string): CandidateResult[] {
  const alpha = parseNumber(opts.alpha, '--alpha');
  checkAlpha(alpha);
  const schedule: Schedule = opts.runLevel === undefined ? 'per-candidate' : RUN_LEVEL_SCHEDULES[opts.runLevel];
  const horizonT = opts.horizon === undefined ? undefined : parseHorizon(opts.horizon);
  if (horizonT !== undefined && !scheduleRow(schedule).horizon) throw new RatchetError('badInput', '--horizon applies only with --run-level elond or spending.');
  if (gate === 'greedy' && schedule !== 'per-candidate') throw new RatchetError('badInput', 'greedy has no error control to spread across a run; --run-level needs pace, pace+ or sign.');
  if (gate === 'sign' && schedule === 'e-lond') throw new RatchetError('badInput', 'e-LOND needs e-values; the sign test gives p-values. Use --run-level spending, or pace / pace+.');
  if ((gate === 'sign' || gate === 'greedy') && (opts.lambda !== undefined || opts.bettor !== undefined)) {
    throw new RatchetError('badInput', `--lambda and --bettor apply to pace and pace+, not ${gate}.`);
  }
  if ((gate === 'sign' || gate === 'greedy') && opts.population === 'finite') {
    throw new RatchetError('badInput', `--population finite applies to pace and pace+, not ${gate}.`);
  }
  const lines = parseOutcomes(text, opts.scores);
  const scores: ScoreMode = opts.scores !== 'auto' ? opts.scores : lines.every((l) => isBinary(l.incumbent) && isBinary(l.candidate)) ? 'binary' : 'continuous';
  const candidates = new Map<string | undefined, OutcomeLine[]>();
  for (const l of lines) {
    const list = candidates.get(l.candidateId);
    if (list) list.push(l);
    else candidates.set(l.candidateId, [l]);
  }
  const cfg = isPaceGate(gate) ? buildPaceConfig(gate, opts, alpha, scores, schedule, horizonT) : undefined;
  let ledger: RunLedger = EMPTY_LEDGER;
  const results: CandidateResult[] = [];
  for (const [candidateId, items] of candidates) {
    const r = gate === 'sign' || gate === 'greedy' ? fixedNCandidate(gate, alpha, schedule, horizonT, ledger, items) : paceCandidate(cfg!, ledger, items);
    r.json.candidateId = candidateId ?? null;
    ledger = advanceLedger(ledger, r.json.decision);
    results.push(r);
  }
  return results;
}

function isBinary(y: number): boolean {
  return y === 0 || y === 1;
}

function parseNumber(text: string, flag: string): number {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) throw new RatchetError('badInput', `${flag} must be a number, got ${JSON.stringify(text)}.`);
  return v;
}

function parseHorizon(text: string): number {
  const v = parseNumber(text, '--horizon');
  if (!(Number.isInteger(v) && v >= 1)) throw new RatchetError('badInput', `--horizon must be a positive whole number of candidates, got ${JSON.stringify(text)}.`);
  return v;
}

function buildPaceConfig(gate: Extract<AuditGateName, PaceGateName>, opts: GateOptions, alpha: number, scores: ScoreMode, schedule: Schedule, horizonT: number | undefined): PaceConfig {
  const lambdas = opts.lambda?.split(',').map((s) => parseNumber(s, '--lambda'));
  let bettor: BettorSpec | undefined;
  if (gate === 'pace') {
    if (opts.bettor !== undefined && opts.bettor !== 'fixed') throw new RatchetError('badInput', 'paper PACE bets a fixed λ; use pace+ for other bettors.');
    if (lambdas && lambdas.length !== 1) throw new RatchetError('badInput', `pace takes one --lambda, got ${JSON.stringify(opts.lambda)}.`);
    bettor = { kind: 'fixed', lambda: lambdas?.[0] ?? 0.5 };
  } else if (lambdas) {
    if (opts.bettor === 'fixed' && lambdas.length === 1) bettor = { kind: 'fixed', lambda: lambdas[0]! };
    else if (opts.bettor === undefined || opts.bettor === 'mixture') bettor = { kind: 'mixture', lambdas };
    else throw new RatchetError('badInput', `--lambda sets the fixed bet or the mixture grid; it does not apply to --bettor ${opts.bettor}.`);
  } else if (opts.bettor !== undefined) {
    bettor = opts.bettor === 'fixed' ? { kind: 'fixed', lambda: 0.5 } : opts.bettor === 'mixture' ? undefined : { kind: opts.bettor };
  }
  return paceConfig(gate, {
    alpha,
    scores,
    schedule,
    ...(bettor ? { bettor } : {}),
    ...(gate === 'pace+' ? { futility: opts.futility } : {}),
    ...(horizonT === undefined ? {} : { horizonT }),
    population: opts.population,
  });
}

function paceCandidate(cfg: PaceConfig, ledger: RunLedger, items: OutcomeLine[]): CandidateResult {
  const pre = preflight(cfg, ledger, items.length);
  const run = runPaceOnOutcomes(cfg, ledger, items);
  const s = run.summary;
  const stoppedAt = s.verdict.stoppedAt;
  return {
    json: {
      candidateId: null,
      gate: cfg.gate === 'pace' ? 'pace' : 'pace+',
      decision: s.verdict.decision,
      reason: s.verdict.reason,
      stoppedAt,
      stoppedAtItem: stoppedAt > 0 ? items[stoppedAt - 1]!.id : null,
      items: items.length,
      wins: s.wins,
      losses: s.losses,
      ties: s.ties,
      threshold: s.threshold,
      evidence: Math.exp(s.logWealth),
      wealth: run.steps.map((st) => Math.exp(st.logWealth)),
      ...(pre.message ? { message: pre.message } : {}),
    },
    message: pre.message,
  };
}

function fixedNCandidate(gate: Exclude<AuditGateName, PaceGateName>, alpha: number, schedule: Schedule, horizonT: number | undefined, ledger: RunLedger, items: OutcomeLine[]): CandidateResult {
  const deltas = items.map((l) => l.candidate - l.incumbent);
  const wins = deltas.filter((d) => d > 0).length;
  const losses = deltas.filter((d) => d < 0).length;
  const base = {
    candidateId: null,
    gate,
    stoppedAt: items.length,
    stoppedAtItem: items[items.length - 1]!.id,
    items: items.length,
    wins,
    losses,
    ties: items.length - wins - losses,
    threshold: null,
    evidence: null,
    wealth: [],
  };
  if (gate === 'greedy') {
    const g = greedyOnOutcomes(items);
    return {
      json: { ...base, decision: g.decision, reason: 'score', candidateScore: g.statistic.candidateScore, incumbentScore: g.statistic.incumbentScore },
      message: undefined,
    };
  }
  // The engine's sign gate takes its level and its decision from the same two functions.
  const level = signTestLevel(schedule, alpha, ledger, horizonT);
  const t = signTestOnDeltas(deltas, level);
  return { json: { ...base, decision: t.decision, reason: t.reason, pValue: t.statistic.pValue, level }, message: undefined };
}

function renderTable(results: CandidateResult[], gate: AuditGateName, opts: GateOptions): string {
  const rows = results.map((r) => {
    const j = r.json;
    const where = j.stoppedAt === 0 ? `before item 1 of ${j.items}` : `at item ${j.stoppedAt} of ${j.items} (${j.stoppedAtItem})`;
    const stat =
      j.evidence !== null && j.threshold !== null
        ? `evidence ×${fmt(j.evidence)} (needs ×${fmt(j.threshold)})`
        : j.pValue !== undefined
          ? `p = ${fmt(j.pValue)} (needs ≤ ${fmt(j.level!)})`
          : `score ${fmt(j.candidateScore!)} vs ${fmt(j.incumbentScore!)}`;
    const trace = j.wealth.length > 0 ? `  wealth ${j.wealth.map(fmt).join(' ')}` : '';
    return `${j.candidateId ?? '(candidate)'}  ${j.decision}  ${j.reason}  stopped ${where}  W=${j.wins} L=${j.losses} ties=${j.ties}  ${stat}${trace}`;
  });
  const commits = results.filter((r) => r.json.decision === 'commit').length;
  const mode = opts.runLevel === undefined ? 'per candidate' : scheduleRow(RUN_LEVEL_SCHEDULES[opts.runLevel]).title;
  const control = gate === 'greedy' ? 'no error control' : `α = ${opts.alpha}, ${mode}`;
  rows.push(`${gate}: ${commits} of ${results.length} candidate${results.length === 1 ? '' : 's'} committed (${control})`);
  return rows.join('\n') + '\n';
}

function fmt(x: number): string {
  if (x === 0 || (Math.abs(x) >= 0.01 && Math.abs(x) < 1e6)) return String(Number(x.toPrecision(3)));
  return x.toExponential(2);
}
