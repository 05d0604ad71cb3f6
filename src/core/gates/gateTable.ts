/**
 * The gates, once. Every list of gate names elsewhere derives from this table: the `GateName`
 * type, the scored / reward-free split, the CLI's choices, the server's settings check, the panel;
 * and, written by `npm run manifest` (scripts/tables.ts), the run-spec schema's enums, the
 * editor setting's enum and descriptions (package.json) and the README's gates table.
 * A test (test/unit/literalLists.test.ts) fails when a list of gate names is spelled
 * anywhere else.
 *
 * The gate runner still switches on the name: a new gate needs its test written there, and the
 * switch's exhaustiveness check says so.
 */

/**
 * What a gate needs to decide: `scored` compares a scorer's outcomes (so it needs labels or a
 * scorer); `reward-free` decides from the pairwise validator's verdicts alone; `rating` also needs
 * only verdicts, and its ratings choose parents.
 */
export type GateKind = 'scored' | 'reward-free' | 'rating';

/** The `gate:` keys besides name and alpha; a key set for a gate that does not read it is warned about. */
export const GATE_PARAMS = ['lambda', 'lambdas', 'population', 'focus', 'elo'] as const;
export type GateParam = (typeof GATE_PARAMS)[number];

export interface GateRow {
  readonly name: string;
  readonly kind: GateKind;
  /** How the gate is named in sentences (pre-flight and split advice). */
  readonly title: string;
  /** The one line shown for it by editors (schema, setting) and the CLI. */
  readonly description: string;
  /** What the gate controls when it commits: the README's promise, one line. */
  readonly controls: string;
  /** Its commits have a false-commit bound at α, so a run-level schedule (schedules.ts) applies to it. */
  readonly errorControl: boolean;
  /** The PACE family (GATES.md 3–5): configured by `paceConfig`, pre-flight feasibility applies. */
  readonly pace: boolean;
  /** Its decision record carries an e-process's wealth: the panel shows evidence against 1/α. */
  readonly eprocess: boolean;
  readonly params: readonly GateParam[];
  /** `ratchet gate` can replay it from recorded paired outcomes (scores, no verdicts). */
  readonly audit: boolean;
  /** Code search decides with it, on the evaluator's per-instance scores (src/core/code/gate.ts). */
  readonly code: boolean;
}

/** In the order users see them: recommended first, baselines last. */
export const GATE_TABLE = [
  {
    name: 'pace+',
    kind: 'scored',
    title: 'PACE+',
    description: 'PACE+: anytime-valid paired test with a mixture of bets (recommended).',
    controls: 'false commits: at most α per candidate, whenever the test stops',
    errorControl: true,
    pace: true,
    eprocess: true,
    params: ['lambdas', 'population'],
    audit: true,
    code: true,
  },
  {
    name: 'pace',
    kind: 'scored',
    title: 'PACE',
    description: 'PACE with one fixed bet λ.',
    controls: "false commits: at most α per candidate (the paper's gate)",
    errorControl: true,
    pace: true,
    eprocess: true,
    params: ['lambda', 'population'],
    audit: true,
    code: true,
  },
  {
    name: 'pace-rf',
    kind: 'reward-free',
    title: 'reward-free PACE+',
    description: "Reward-free PACE: the pairwise validator's verdicts are the outcomes (no labels needed).",
    controls: 'false commits as the validator judges them: at most α per candidate',
    errorControl: true,
    pace: true,
    eprocess: true,
    params: ['lambdas', 'population'],
    audit: false,
    code: false,
  },
  {
    name: 'pairwise',
    kind: 'reward-free',
    title: 'pairwise',
    description: 'Direct pairwise validator gate.',
    controls: 'nothing statistical: commits on a consistent win in both orders on a dev minibatch',
    errorControl: false,
    pace: false,
    eprocess: false,
    params: [],
    audit: false,
    code: true,
  },
  {
    name: 'focus',
    kind: 'reward-free',
    title: 'focus',
    description: 'Pairwise with Adaptive Focus (a meta model refreshes the rubric).',
    controls: 'nothing statistical: Direct pairwise, with the rubric rewritten every K decisions',
    errorControl: false,
    pace: false,
    eprocess: true,
    params: ['lambdas', 'focus'],
    audit: false,
    code: false,
  },
  {
    name: 'elo',
    kind: 'rating',
    title: 'elo',
    description: 'Soft Elo ratings from verdicts (fully reward-free).',
    controls: 'nothing statistical: Direct pairwise; Soft Elo ratings only choose parents',
    errorControl: false,
    pace: false,
    eprocess: false,
    params: ['elo'],
    audit: false,
    code: false,
  },
  {
    name: 'greedy',
    kind: 'scored',
    title: 'greedy',
    description: 'Greedy: commit when the mean score is higher (no error guarantee).',
    controls: 'nothing: the baseline, commits on a higher total score',
    errorControl: false,
    pace: false,
    eprocess: false,
    params: [],
    audit: true,
    code: true,
  },
  {
    name: 'greedy-re',
    kind: 'scored',
    title: 'greedy',
    description: 'Greedy with re-evaluation.',
    controls: 'nothing: greedy, with the incumbent re-run on every dev item instead of reusing its outcomes',
    errorControl: false,
    pace: false,
    eprocess: false,
    params: [],
    audit: false,
    code: false,
  },
  {
    name: 'sign',
    kind: 'scored',
    title: 'the sign test',
    description: 'Sign test on discordant pairs.',
    controls: 'false commits: at most α per candidate, on a fixed number of dev items',
    errorControl: true,
    pace: false,
    eprocess: false,
    params: [],
    audit: true,
    code: false,
  },
] as const satisfies readonly GateRow[];

type Row = (typeof GATE_TABLE)[number];
export type GateName = Row['name'];
/** The gates `paceConfig` builds (GATES.md 3–5). */
export type PaceGateName = Extract<Row, { pace: true }>['name'];
export type ScoredGateName = Extract<Row, { kind: 'scored' }>['name'];
/** The gates `ratchet gate` replays from recorded outcomes. */
export type AuditGateName = Extract<Row, { audit: true }>['name'];
/** The gates a code search run can use. */
export type CodeGateName = Extract<Row, { code: true }>['name'];

const names = <N extends GateName>(keep: (row: GateRow) => boolean): readonly N[] => GATE_TABLE.filter(keep).map((g) => g.name as N);

export const GATE_NAMES: readonly GateName[] = names(() => true);
/** Gates that compare scores and so need a scorer. */
export const SCORED_GATES: readonly GateName[] = names((g) => g.kind === 'scored');
/** Gates that can run on the pairwise validator alone. */
export const REWARD_FREE_GATES: readonly GateName[] = names((g) => g.kind !== 'scored');
export const AUDIT_GATES: readonly AuditGateName[] = names<AuditGateName>((g) => g.audit);
export const CODE_GATES: readonly CodeGateName[] = names<CodeGateName>((g) => g.code);

export function isGateName(name: unknown): name is GateName {
  return typeof name === 'string' && (GATE_NAMES as readonly string[]).includes(name);
}

export function gateRow(name: GateName): GateRow {
  return GATE_TABLE.find((g) => g.name === name)!;
}

export function isPaceGate(name: GateName): name is PaceGateName {
  return gateRow(name).pace;
}

/** The gates that read a `gate:` key, for the warning when another gate is set with it. */
export function gatesReading(param: GateParam): readonly GateName[] {
  return names((g) => g.params.includes(param));
}
