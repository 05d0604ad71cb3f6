/**
 * `ratchet check` as a Node face runs it: the prompt files and programs with a run spec that
 * changed between base and head (git; changedTargets.ts), each prompt's test priced first — every test is planned, estimated and refused before
 * the first call — then, one file at a time, the paired test of the policy (core/check/policy.ts)
 * through the judge run (judgeRun.ts) with base's and head's texts from git, the repository's
 * ledger supplying each test's threshold and advancing after it, and each verdict written as an
 * evidence bundle. `replay: true` instead reruns each verdict's test from its bundle and the
 * response cache with no request sent, and recomputes its bets from the bundle's pairs.
 */
import { join } from 'node:path';
import { RatchetError } from '../../core/errors';
import { candidateSide, checkOutcome, headDelta } from '../../core/check/policy';
import type { AppliedPolicy, CheckPolicy, CheckVerdict } from '../../core/check/policy';
import { BUNDLE_VERSION, replayBets, sameEvidence } from '../../core/check/evidence';
import type { BundleStep, EvidenceBundle } from '../../core/check/evidence';
import type { ReportItem } from '../../core/check/report';
import { advanceRepoLedger, describeLedger, newLedger, parseLedger, refuseWhenSpent, runLedgerOf } from '../../core/check/ledger';
import type { RepoLedger } from '../../core/check/ledger';
import { contentHash } from '../../core/evolve/versions';
import { scoreMode } from '../../core/evolve/loop';
import { canonicalJson } from '../../core/llm/cache';
import { describeRoles } from '../../core/llm/roles';
import { sha256Hex } from '../../core/random';
import type { JournaledEvent } from '../../core/journal/events';
import type { DatasetItemInfo } from '../../core/journal/payloadTypes';
import type { EndpointDefaults } from '../../core/run/endpointDefaults';
import type { EvolveOverrides } from '../../core/run/overrides';
import { NodeFiles } from '../files';
import { judgePromptEdit, planPromptJudge } from '../runs/judgeRun';
import { judgeProgramEdit } from '../runs/judgeProgramRun';
import type { CodeGateSpec } from '../../core/code/gate';
import type { PromptJudgePlan } from '../runs/judgeRun';
import type { TestBudget } from '../runs/testBudget';
import { commitOf, defaultBase, repoRoot } from './git';
import { changedTargets } from './changedTargets';
import type { CheckTarget } from './changedTargets';
import { bundleRelPath, findBundle, readBundle, writeBundle } from './evidenceFiles';

export interface CheckOptions {
  /** Where to run: any folder inside the repository. */
  cwd: string;
  base?: string;
  head?: string;
  /** The policy of every file whose run spec sets no `check.require` (the file's own wins). */
  policy: CheckPolicy;
  /** Each file's test limits (DEFAULT_TEST_BUDGET for those left out). */
  budget?: Partial<TestBudget>;
  overrides?: Pick<EvolveOverrides, 'baseURL' | 'model' | 'concurrency'>;
  endpointDefaults: EndpointDefaults;
  replay?: boolean;
  onEvent?: (e: JournaledEvent) => void;
  /** One line per step of the check, for the terminal. */
  onProgress?: (line: string) => void;
  signal: AbortSignal;
  version: string;
}

export interface FileResult {
  file: string;
  /** The policy this file was held to, and where it was set. */
  policy: AppliedPolicy;
  verdict: CheckVerdict;
  passed: boolean;
  bundle: EvidenceBundle;
  bundlePath: string;
  /** Pairs head won, lost, tied (head against base). */
  wins: number;
  losses: number;
  ties: number;
  items: ReportItem[];
  cost: { calls: number; tokens: number; dollars: number | undefined };
  /** For a replay: what did not replay (empty: it did). */
  replayProblems?: string[];
  /** The verdict of an earlier check on these very texts, replayed with no request and nothing spent. */
  reused?: true;
}

export interface CheckResult {
  base: string;
  head: string;
  /** The default policy (`--require`); each file's own is in its result. */
  policy: CheckPolicy;
  files: FileResult[];
  /** Changed files left out, and why. */
  skipped: { file: string; why: string }[];
  estimate: { calls: number; evaluations: number; dollars?: number };
  ledger: RepoLedger | undefined;
  ledgerSentence: string | undefined;
  passed: boolean;
  replay: boolean;
}

export const LEDGER_FILE = '.ratchet/ledger.json';

export async function runCheck(o: CheckOptions): Promise<CheckResult> {
  const files = new NodeFiles();
  const root = await repoRoot(o.cwd);
  const head = await commitOf(root, o.head ?? 'HEAD');
  const base = o.base === undefined ? await defaultBase(root, head) : await commitOf(root, o.base);
  const say = o.onProgress ?? (() => undefined);
  const { targets, skipped } = await changedTargets(root, base, head, o.policy);
  say(`${targets.length} changed file${targets.length === 1 ? '' : 's'} to check between ${base.slice(0, 8)} and ${head.slice(0, 8)}${skipped.length ? ` (${skipped.length} skipped)` : ''}`);

  const ledgerPath = join(root, LEDGER_FILE);
  let ledger = o.replay ? undefined : await readLedger(files, ledgerPath);
  // A verdict already given on these very texts under this policy is replayed, not tested again:
  // the same test would give the same answer (A5), and a rerun of CI must not spend α twice.
  const bundles = await Promise.all(targets.map((t) => (o.replay ? readBundle(files, root, t, t.policy.policy, base, head) : findBundle(files, root, t, t.policy.policy, base, head))));
  if (ledger) refuseWhenSpent(LEDGER_FILE, ledger, bundles.filter((b) => b === undefined).length);

  // Every test planned and priced before any call: a refusal leaves nothing spent and nothing written.
  // A program's test is priced by its evaluator runs (judgeProgramEdit's budget), not here: it makes no LLM call.
  const plans: (PromptJudgePlan | undefined)[] = [];
  let probe = ledger;
  for (const [i, t] of targets.entries()) {
    const b = bundles[i];
    const plan = t.kind === 'program' ? undefined : await planPromptJudge({ ...judgeInputs(o, t, root), ...(b ? recordedGate(b) : probe ? ledgerGate(probe) : {}) });
    plans.push(plan);
    // The next file's test faces the threshold after this one, whatever it decides (the threshold only rises).
    if (probe && !b) probe = { ...probe, tested: probe.tested + 1 };
  }
  const estimate = plans
    .flatMap((p, i) => (p && !bundles[i] ? [p] : []))
    .reduce<CheckResult['estimate']>(
      (sum, p) => ({ calls: sum.calls + p.estimate.calls, evaluations: sum.evaluations + p.estimate.evaluations, ...(sum.dollars === undefined || p.estimate.dollars === undefined ? {} : { dollars: sum.dollars + p.estimate.dollars }) }),
      { calls: 0, evaluations: 0, dollars: 0 },
    );
  const fresh = bundles.filter((b) => b === undefined).length;
  if (!o.replay)
    say(
      `estimate: at most ${estimate.calls} LLM calls${estimate.dollars === undefined ? '' : `, $${estimate.dollars.toFixed(4)}`} for ${fresh} test${fresh === 1 ? '' : 's'}${fresh < targets.length ? ` (${targets.length - fresh} earlier verdict${targets.length - fresh === 1 ? '' : 's'} on the same texts replayed instead)` : ''}`,
    );

  const results: FileResult[] = [];
  for (const [i, t] of targets.entries()) {
    const recorded = bundles[i];
    say(`${recorded ? 'replaying' : 'testing'} ${t.file} (${t.policy.policy}, from ${t.policy.from})`);
    let r: FileResult | undefined;
    if (recorded) {
      r = await testFile(o, t, root, plans[i], { base, head }, { recorded }).catch((err: unknown) => {
        if (o.replay) throw err;
        // Reusing is a convenience: an earlier verdict this machine cannot replay (its cache is elsewhere) is tested afresh.
        say(`the earlier verdict on ${t.file} does not replay here (${err instanceof Error ? err.message : String(err)}); testing it afresh`);
        return undefined;
      });
      if (r) {
        r.replayProblems = [...replayBets(recorded), ...sameEvidence(recorded, r.bundle)];
        r.bundlePath = bundleRelPath(recorded);
        if (!o.replay) r.reused = true;
        if (r.replayProblems.length > 0) Object.assign(r, { verdict: recorded.verdict, passed: false });
      }
    }
    if (!r) {
      const plan = recorded && t.kind === 'prompt' ? await planPromptJudge({ ...judgeInputs(o, t, root), ...(ledger ? ledgerGate(ledger) : {}) }) : plans[i];
      r = await testFile(o, t, root, plan, { base, head }, { ledger });
      const bundlePath = await writeBundle(files, root, r.bundle);
      r.bundlePath = bundlePath;
      if (ledger) {
        ledger = advanceRepoLedger(ledger, { at: new Date().toISOString(), file: t.file, policy: t.policy.policy, base, head, decision: r.bundle.decision.decision, threshold: r.bundle.threshold, bundle: bundlePath });
        await files.mkdirp(join(root, '.ratchet'));
        await files.writeTextAtomic(ledgerPath, `${JSON.stringify(ledger, null, 2)}\n`);
      }
    }
    results.push(r);
  }
  return {
    base,
    head,
    policy: o.policy,
    files: results,
    skipped,
    estimate,
    ledger,
    ledgerSentence: ledger ? describeLedger(ledger) : undefined,
    passed: results.every((r) => r.passed && (r.replayProblems ?? []).length === 0),
    replay: o.replay === true,
  };
}

function judgeInputs(o: CheckOptions, t: CheckTarget, root: string) {
  const policy = t.policy.policy;
  const side = candidateSide(policy);
  return {
    path: t.path,
    workspace: root,
    incumbentText: side === 'head' ? t.baseText : t.headText,
    candidateText: side === 'head' ? t.headText : t.baseText,
    reasoning: `ratchet check --require ${policy}: the ${side} version of ${t.file}.`,
    ...(o.budget ? { budget: o.budget } : {}),
    ...(o.overrides ? { overrides: o.overrides } : {}),
    endpointDefaults: o.endpointDefaults,
  };
}

function ledgerGate(l: RepoLedger) {
  return { ledger: runLedgerOf(l), schedule: l.schedule, gateOverrides: { alpha: l.alpha, horizon: l.horizon } };
}

function recordedGate(b: EvidenceBundle) {
  return { ledger: b.ledgerBefore, schedule: b.gate.schedule, gateOverrides: { alpha: b.gate.alpha, horizon: b.gate.horizon } };
}

async function testFile(
  o: CheckOptions,
  t: CheckTarget,
  root: string,
  plan: PromptJudgePlan | undefined,
  commits: { base: string; head: string },
  how: { recorded: EvidenceBundle } | { ledger: RepoLedger | undefined },
): Promise<FileResult> {
  const steps: BundleStep[] = [];
  const outputs = new Map<string, Map<string, string>>();
  let items: DatasetItemInfo[] = [];
  const onEvent = (e: JournaledEvent): void => {
    if (e.type === 'wealth/step') steps.push({ itemId: e.itemId, delta: e.delta, logWealth: e.logWealth, ...(e.abstained ? { abstained: true as const } : {}) });
    if (e.type === 'dataset/loaded') items = e.items;
    if (e.type === 'item/evaluated' && e.output !== undefined) {
      const m = outputs.get(e.candidateId) ?? new Map<string, string>();
      m.set(e.itemId, e.output);
      outputs.set(e.candidateId, m);
    }
    o.onEvent?.(e);
  };
  const gateFrom = 'recorded' in how ? recordedGate(how.recorded) : how.ledger ? ledgerGate(how.ledger) : {};
  const common = { ...judgeInputs(o, t, root), ...gateFrom, onEvent, signal: o.signal, version: o.version };
  // A program's replay reruns its evaluator through the evaluation cache (no LLM call either way).
  const outcome =
    t.kind === 'program' || !plan
      ? await judgeProgramEdit({ ...common, ...(o.budget?.evaluations ? { budget: { evaluations: o.budget.evaluations } } : {}) })
      : await judgePromptEdit({ ...common, ...('recorded' in how ? { cacheOnly: true } : {}) });
  if (outcome.status !== 'finished' || !outcome.verdict) {
    throw new RatchetError(
      outcome.status === 'cancelled' ? 'cancelled' : 'internal',
      `The test of ${t.file} ${outcome.status === 'cancelled' ? 'was cancelled' : `failed: ${outcome.error?.message ?? 'unknown error'}`} (run ${outcome.runId}).`,
      { file: t.file },
    );
  }
  const record = outcome.record;
  const policy = t.policy.policy;
  const { verdict, passed } = checkOutcome(policy, outcome.verdict);
  const side = candidateSide(policy);
  const bundle: EvidenceBundle = {
    version: BUNDLE_VERSION,
    file: t.file,
    kind: t.kind,
    policy,
    candidate: side,
    base: { commit: commits.base, contentHash: contentHash(t.baseText) },
    head: { commit: commits.head, contentHash: contentHash(t.headText) },
    gate: plan
      ? plan.gate
      : { name: outcome.gate as CodeGateSpec['name'], alpha: record?.alpha ?? outcome.evidence.alpha, schedule: record?.schedule ?? 'per-candidate', population: record?.population ?? 'infinite', ...programHorizon(gateFrom) },
    scores: record?.scores ?? scoreMode(undefined),
    devItems: outcome.items,
    ledgerBefore: record?.ledgerBefore ?? { tested: 0, commits: 0 },
    threshold: record?.threshold ?? outcome.evidence.threshold,
    alphaSpent: 1 / (record?.threshold ?? outcome.evidence.threshold),
    steps,
    decision: { decision: record?.decision ?? 'reject', reason: record?.reason ?? 'budget', logWealth: record?.logWealth ?? 0, itemsConsumed: record?.itemsConsumed ?? steps.length },
    verdict,
    passed,
    fingerprints: plan ? fingerprints(plan) : { models: {}, evaluator: sha256Hex(t.specText ?? '') },
    cacheKeys: outcome.cacheKeys,
    runId: outcome.runId,
  };
  // The test's candidate and incumbent as head and base; outputs by the journal's version ids.
  const headId = side === 'head' ? 'c1' : 'v0';
  const baseId = side === 'head' ? 'v0' : 'c1';
  const byId = new Map(items.map((it) => [it.itemId, it]));
  const itemResults: ReportItem[] = steps
    .filter((s) => !s.abstained)
    .map((s) => {
      const info = byId.get(s.itemId);
      const baseOutput = outputs.get(baseId)?.get(s.itemId);
      const headOutput = outputs.get(headId)?.get(s.itemId);
      return {
        itemId: s.itemId,
        delta: headDelta(policy, s.delta),
        input: info?.input ?? '',
        ...(info?.expected === undefined ? {} : { expected: info.expected }),
        ...(baseOutput === undefined ? {} : { baseOutput }),
        ...(headOutput === undefined ? {} : { headOutput }),
      };
    });
  return {
    file: t.file,
    policy: t.policy,
    verdict,
    passed,
    bundle,
    bundlePath: bundleRelPath(bundle),
    wins: itemResults.filter((r) => r.delta > 0).length,
    losses: itemResults.filter((r) => r.delta < 0).length,
    ties: itemResults.filter((r) => r.delta === 0).length,
    items: itemResults,
    cost: outcome.cost,
  };
}

function programHorizon(g: { gateOverrides?: { horizon?: number | undefined } }): { horizon?: number } {
  return g.gateOverrides?.horizon === undefined ? {} : { horizon: g.gateOverrides.horizon };
}

/** What the models were (endpoint without key, model, per role the test called) and what decides a score. */
function fingerprints(plan: PromptJudgePlan): EvidenceBundle['fingerprints'] {
  const shown = describeRoles(plan.roles);
  const models = Object.fromEntries(plan.called.map((role) => [role, { ...(shown[role].baseURL ? { baseURL: shown[role].baseURL } : {}), ...(shown[role].model ? { model: shown[role].model } : {}) }]));
  const dev = plan.inputs.splits.dev.map((it) => ({ id: it.id, vars: it.vars, expected: 'expected' in it ? it.expected : undefined }));
  const evaluator = sha256Hex(canonicalJson({ scorer: plan.spec.scorer ?? null, harness: plan.spec.harness, agent: plan.spec.models.agent, dev }));
  return { models, evaluator };
}

async function readLedger(files: NodeFiles, path: string): Promise<RepoLedger> {
  const text = await files.tryReadText(path);
  return text === undefined ? newLedger() : parseLedger(LEDGER_FILE, text);
}
