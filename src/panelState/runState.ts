/**
 * Folds engine events into the run state the panel paints from. The host's store
 * (src/extension/runs/runStore.ts) builds its snapshot with this code and the view
 * (webview/components/panel-app.ts) applies later events with it, so both ends agree by
 * construction; it lives here, outside webview/, because both import it. Pure data: no DOM, no
 * VS Code, no Node (it compiles under webview/tsconfig.json and the protocol lint boundary). `applyEvent` mutates the state it is given because a run can
 * hold tens of thousands of events and copying per event would be quadratic.
 */
import type { CostReport, Role } from '../core/llm/types';
import { ROLES } from '../core/llm/types';
import { assertNever } from '../core/errors';
import { sandboxPreflightText } from '../core/code/isolation';
import { emptyPrograms, foldProgramEvent } from './programs';
import type { EngineEventType, EventOf } from '../core/journal/events';
import type { CostSample, PanelEvent, RoleSample, RunState, VerdictTally, ZeroRoundRow } from './types';

/** Caps that keep a long run's memory bounded on both ends. */
export const LIMITS = {
  /** Decision rows kept; older ones are dropped (their count is shown). */
  feedRows: 20_000,
  /** Candidates whose wealth trace is kept; the oldest traces go first. */
  wealthTraces: 400,
  /** Cost samples kept; past this the series is thinned to every other sample. */
  costSamples: 512,
  logLines: 200,
} as const;

export function emptyRunState(runId: string): RunState {
  return {
    runId,
    info: undefined,
    status: 'pending',
    resumed: false,
    startedAt: undefined,
    lastAt: undefined,
    endedAt: undefined,
    error: undefined,
    incumbentId: undefined,
    finished: undefined,
    llmCalls: 0,
    cost: undefined,
    costSamples: [],
    candidates: {},
    candidateOrder: [],
    decisions: [],
    droppedDecisions: 0,
    wealth: {},
    wealthOrder: [],
    activeCandidateId: undefined,
    verdicts: {},
    pendingVerdicts: {},
    ratings: [],
    rubric: undefined,
    testReport: undefined,
    logs: [],
    programs: emptyPrograms(),
    zeroRounds: [],
    eventCount: 0,
    skippedEvents: 0,
  };
}

export function emptyTally(): VerdictTally {
  return { child: 0, parent: 0, tie: 0, agreed: 0, disagreed: 0 };
}

/** Folds many events; an event of a type this build does not know is counted, not fatal. */
export function foldEvents(state: RunState, events: readonly PanelEvent[]): RunState {
  for (const e of events) {
    try {
      applyEvent(state, e);
    } catch {
      // A newer engine may send an event type this panel predates; showing the rest beats failing.
      state.skippedEvents += 1;
    }
  }
  return state;
}

export function applyEvent(s: RunState, e: PanelEvent): void {
  // The editor's observation is not one of the run's events: it counts for no event and no time.
  if (e.type === 'edit/undone') {
    const node = s.candidates[e.candidateId];
    if (node) node.undone = e.undone;
    return;
  }
  s.eventCount += 1;
  s.lastAt = s.lastAt === undefined ? e.at : Math.max(s.lastAt, e.at);
  if (s.info?.kind === 'search' || (e.type === 'run/started' && e.info.kind === 'search')) foldProgramEvent(s.programs, e);
  // The type comes off the wire: only the table's own keys, never a name Object.prototype answers.
  if (!Object.hasOwn(FOLDS, e.type)) assertNever(e as never, 'engine event');
  (FOLDS[e.type] as Fold<EngineEventType>)(s, e);
}

/** How one type of event changes the state. */
type Fold<T extends EngineEventType> = (s: RunState, e: EventOf<T>) => void;
type Folds = { [T in EngineEventType]: Fold<T> };

/** The run's life and spend: started, resumed, waiting on the endpoint, its cost so far, over. */
const LIFECYCLE_FOLDS = {
  'run/started': (s, e) => {
    s.info = e.info;
    s.status = 'running';
    s.resumed = s.resumed || e.resumed === true;
    s.startedAt ??= e.at;
    s.endedAt = undefined;
    s.error = undefined;
  },
  'run/resumed': (s) => {
    s.resumed = true;
  },
  'llm/waiting': (s, e) => {
    s.waiting = { why: e.why, until: e.at + e.waitMs, message: e.message };
  },
  'cost/update': (s, e) => {
    s.cost = e.cost;
    s.llmCalls = e.llmCalls;
    pushCostSample(s, e.at, e.cost);
  },
  'run/finished': (s, e) => {
    s.status = 'finished';
    s.endedAt = e.at;
    s.finished = { commits: e.commits, candidates: e.candidates, ...(e.stopped === undefined ? {} : { stopped: e.stopped }) };
    if (e.incumbentId !== undefined) s.incumbentId = e.incumbentId;
  },
  'run/failed': (s, e) => {
    s.status = 'failed';
    s.endedAt = e.at;
    s.error = e.error;
  },
  'run/cancelled': (s, e) => {
    s.status = 'cancelled';
    s.endedAt = e.at;
  },
} satisfies Partial<Folds>;

/** A candidate's life outside its test: proposed, suggested to the user, applied or rejected, stopped. */
const CANDIDATE_FOLDS = {
  'candidate/proposed': (s, e) => {
    // A resumed run replays proposals it already journaled; keep the first sighting.
    if (!Object.hasOwn(s.candidates, e.candidateId)) s.candidateOrder.push(e.candidateId);
    s.candidates[e.candidateId] = {
      ...s.candidates[e.candidateId],
      id: e.candidateId,
      parentId: e.parentId,
      at: e.at,
      contentHash: e.contentHash,
    };
  },
  suggestion: (s, e) => {
    const node = s.candidates[e.candidateId];
    if (node) node.suggested = true;
  },
  'edit/applied': (s, e) => {
    const node = s.candidates[e.candidateId];
    if (node) node.applied = e.by;
  },
  'edit/rejected': (s, e) => {
    // A suggestion the run withdrew (superseded, stale) was not the user's no.
    const node = s.candidates[e.candidateId];
    if (node && e.by === 'user') node.userRejected = true;
    else if (node && e.reason !== undefined) node.withdrawn = e.reason;
  },
  'candidate/stopped': (s, e) => {
    const node = s.candidates[e.candidateId];
    if (node) node.stoppedBy = e.budget;
    s.logs.push({ at: e.at, level: 'warn', message: `${e.candidateId} was not decided: ${e.budget} ran out during its test.` });
  },
} satisfies Partial<Folds>;

/** A candidate's test by the gate: verdicts, wealth, the decision, and what the gate reports. */
const TEST_FOLDS = {
  'item/evaluated': () => {},
  'dataset/loaded': () => {},
  verdict: (s, e) => foldVerdict(s, e.candidateId, e.itemId, e.winner),
  'wealth/step': foldWealthStep,
  decision: foldDecision,
  ratings: (s, e) => {
    s.ratings = e.ratings;
  },
  'rubric/updated': (s, e) => {
    s.rubric = e.why === undefined ? { version: e.version, text: e.rubric } : { version: e.version, text: e.rubric, why: e.why };
  },
  'report/test': (s, e) => {
    s.testReport = { ...(e.split ? { split: e.split } : {}), n: e.n, baseline: e.baseline, final: e.final, difference: e.difference };
  },
} satisfies Partial<Folds>;

/**
 * Code search and where it evaluates (Slurm, the sandbox). A search's programs are folded by
 * `foldProgramEvent` above; its own views come with the editor's code-search issue, so until then
 * its failures read as log lines.
 */
const SEARCH_FOLDS = {
  'proposal/failed': (s, e) => {
    s.logs.push({ at: e.at, level: 'info', message: `A ${e.kind} proposal from ${e.parentId} failed (${e.reason}): ${e.message}` });
  },
  'program/migrated': () => {},
  'program/evaluated': (s, e) => {
    // An incorrect child is a search's daily bread, not a warning the header keeps after the run
    // (an incorrect starting program is: the search warns of its fix mode itself).
    if (!e.correct) s.logs.push({ at: e.at, level: 'info', message: `${e.candidateId} is incorrect: ${e.error ?? 'the evaluator said so'}` });
  },
  'meta/notes': (s, e) => {
    s.logs.push({ at: e.at, level: 'info', message: `Meta notes after ${e.afterProgram}: ${e.recommendations.join('; ')}` });
  },
  // Slurm tasks are the Programs view's throughput (queued / running / finished, cluster-seconds),
  // which reads them from the journal and the live status; a paused cluster says why.
  'slurm/submitted': () => {},
  'slurm/task': () => {},
  'slurm/cancelled': () => {},
  'slurm/attached': () => {},
  'slurm/status': (s, e) => {
    if (e.state !== 'ready') s.logs.push({ at: e.at, level: e.state === 'paused' ? 'warn' : 'info', message: e.message });
  },
  // Said as the CLI says it, among the run's log lines.
  'sandbox/preflight': (s, e) => {
    s.logs.push({ at: e.at, level: 'info', message: `Sandbox: ${sandboxPreflightText(e)}` });
  },
} satisfies Partial<Folds>;

const FOLDS: Folds = {
  ...LIFECYCLE_FOLDS,
  ...CANDIDATE_FOLDS,
  ...TEST_FOLDS,
  ...SEARCH_FOLDS,
  'zero/round': foldZeroRound,
  log: (s, e) => {
    s.logs.push({ at: e.at, level: e.level, message: e.message });
    if (s.logs.length > LIMITS.logLines) s.logs.splice(0, s.logs.length - LIMITS.logLines);
  },
};

function foldWealthStep(s: RunState, e: EventOf<'wealth/step'>): void {
  const trace = traceFor(s, e.candidateId);
  s.activeCandidateId = e.candidateId;
  if (e.abstained) {
    trace.unjudged = (trace.unjudged ?? 0) + 1;
    return;
  }
  if (e.delta === 0) {
    trace.ties += 1;
    return;
  }
  const { k, itemId, delta, logWealth, logThreshold, logBest } = e;
  trace.steps.push({ k, itemId, delta, logWealth, logThreshold, logBest });
}

/** A decision is a feed row, and it settles the judge's count, the candidate, its trace and the incumbent. */
function foldDecision(s: RunState, e: EventOf<'decision'>): void {
  const r = e.record;
  const tally = s.verdicts[r.candidateId];
  s.decisions.push({
    seq: s.decisions.length + s.droppedDecisions,
    at: e.at,
    candidateId: r.candidateId,
    parentId: r.parentId,
    incumbentId: r.incumbentId,
    gate: r.gate,
    decision: r.decision,
    reason: r.reason,
    alpha: r.alpha,
    threshold: r.threshold,
    logWealth: r.logWealth,
    itemsConsumed: r.itemsConsumed,
    wins: r.wins,
    losses: r.losses,
    ties: r.ties,
    ...(r.unjudged ? { unjudged: r.unjudged } : {}),
    ...(r.judge ? { judge: { ...r.judge } } : {}),
    ...(r.statistic ? { statistic: r.statistic } : {}),
    ...(r.rubricVersion !== undefined ? { rubricVersion: r.rubricVersion } : {}),
    ...(tally ? { verdicts: { ...tally } } : {}),
  });
  if (s.decisions.length > LIMITS.feedRows) {
    const drop = s.decisions.length - LIMITS.feedRows;
    s.decisions.splice(0, drop);
    s.droppedDecisions += drop;
  }
  if (r.judge) {
    const j = (s.judge ??= { answers: 0, abstained: 0 });
    j.answers += r.judge.answers;
    j.abstained += r.judge.abstained;
    if (r.judge.model !== undefined) j.model ??= r.judge.model;
  }
  const node = s.candidates[r.candidateId];
  if (node) {
    node.decision = r.decision;
    node.reason = r.reason;
  }
  const trace = s.wealth[r.candidateId];
  if (trace) {
    trace.decision = r.decision;
    trace.threshold = r.threshold;
  }
  if (r.decision === 'commit') s.incumbentId = r.candidateId;
  else s.incumbentId ??= r.incumbentId;
}

/** A round replayed by a resume replaces its first sighting; rounds stay in round order. */
function foldZeroRound(s: RunState, e: EventOf<'zero/round'>): void {
  const row: ZeroRoundRow = {
    round: e.round,
    at: e.at,
    requested: e.requested,
    written: e.written,
    discarded: { ...e.discarded, format: { ...e.discarded.format } },
    ...(e.repaired ? { repaired: { ...e.repaired } } : {}),
    kept: e.kept.length,
    heldOut: e.heldOut.length,
    tooEasy: e.tooEasy,
    tooHard: e.tooHard,
    difficultyHistogram: e.difficultyHistogram,
    dispersionHistogram: e.dispersionHistogram,
    reliability: e.reliability,
    exemplars: e.exemplars.length,
    exemplarsUsed: e.exemplarsUsed.length,
    ...(e.heldOutScore ? { heldOutScore: e.heldOutScore } : {}),
  };
  const at = s.zeroRounds.findIndex((r) => r.round >= e.round);
  if (at === -1) s.zeroRounds.push(row);
  else if (s.zeroRounds[at]!.round === e.round) s.zeroRounds[at] = row;
  else s.zeroRounds.splice(at, 0, row);
}

function traceFor(s: RunState, candidateId: string) {
  let trace = s.wealth[candidateId];
  if (!trace) {
    trace = { candidateId, steps: [], ties: 0 };
    s.wealth[candidateId] = trace;
    s.wealthOrder.push(candidateId);
    if (s.wealthOrder.length > LIMITS.wealthTraces) {
      const evicted = s.wealthOrder.shift();
      if (evicted !== undefined) delete s.wealth[evicted];
    }
  }
  return trace;
}

/**
 * Both-order judging (GATES.md 5): a pair agrees when the two orders name the same winner. A pair
 * with an abstention in either order neither agrees nor disagrees: it says nothing (#25).
 */
function foldVerdict(s: RunState, candidateId: string, itemId: string | undefined, winner: EventOf<'verdict'>['winner']): void {
  const tally = (s.verdicts[candidateId] ??= emptyTally());
  if (winner === 'abstained') tally.abstained = (tally.abstained ?? 0) + 1;
  else tally[winner] += 1;
  if (itemId === undefined) return;
  const key = `${candidateId}\n${itemId}`;
  const first = s.pendingVerdicts[key];
  if (first === undefined) {
    s.pendingVerdicts[key] = winner;
    return;
  }
  delete s.pendingVerdicts[key];
  if (first === 'abstained' || winner === 'abstained') return;
  if (first === winner && winner !== 'tie') tally.agreed += 1;
  else tally.disagreed += 1;
}

function roleSample(cost: CostReport, role: Role): RoleSample {
  const c = cost[role];
  if (!c) return { calls: 0, tokens: 0 };
  const sample: RoleSample = { calls: c.calls, tokens: c.promptTokens + c.completionTokens };
  if (c.dollars !== undefined) sample.dollars = c.dollars;
  return sample;
}

/** Samples are cumulative, so thinning to every other one loses resolution, never totals. */
function pushCostSample(s: RunState, at: number, cost: CostReport): void {
  const byRole = {} as Record<Role, RoleSample>;
  for (const role of ROLES) byRole[role] = roleSample(cost, role);
  const sample: CostSample = { at, byRole };
  s.costSamples.push(sample);
  if (s.costSamples.length > LIMITS.costSamples) {
    const last = s.costSamples[s.costSamples.length - 1];
    s.costSamples = s.costSamples.filter((_, i) => i % 2 === 0);
    if (last && s.costSamples[s.costSamples.length - 1] !== last) s.costSamples.push(last);
  }
}

/** Totals across roles: the panel's budget meters and the status bar's cost. */
export function costTotals(s: RunState): { calls: number; tokens: number; dollars: number | undefined } {
  let tokens = 0;
  let dollars: number | undefined = 0;
  if (s.cost) {
    for (const role of ROLES) {
      const c = s.cost[role];
      if (!c) continue;
      tokens += c.promptTokens + c.completionTokens;
      if (c.calls > 0) dollars = c.dollars === undefined || dollars === undefined ? undefined : dollars + c.dollars;
    }
  }
  return { calls: s.llmCalls, tokens, dollars };
}
