/**
 * A seeded synthetic run for the panel's tests and bench: PACE+ (grid mixture, GATES.md 4) over
 * a dev set, with proposals, item outcomes, wealth steps, decisions, cost updates, pairwise
 * verdicts and ratings, in the order the engine emits them. `count` events exactly.
 */
import type { DecisionRecord } from '../../../src/core/gates/record';
import type { CostReport } from '../../../src/core/llm/types';
import { SeededRandom } from '../../../src/core/random';
import type { PanelEvent } from '../../../src/panelState/types';

export interface SyntheticOptions {
  count: number;
  seed?: number;
  runId?: string;
  devItems?: number;
  alpha?: number;
  /** Judge every item in both orders (pairwise validator) as well. */
  pairwise?: boolean;
  /** Text stuffed into outputs, rationales and reasoning (e.g. an XSS probe). */
  payload?: string;
  /** Timestamp of the first event (ms since the epoch); events are 37 ms apart. */
  startAt?: number;
}

const LAMBDAS = [0.3, 0.5, 0.7, 0.85];

function logMeanExp(v: number[]): number {
  const m = Math.max(...v);
  return m + Math.log(v.reduce((s, x) => s + Math.exp(x - m), 0) / v.length);
}

function emptyCost(): CostReport {
  const role = () => ({ calls: 0, cachedCalls: 0, retries: 0, promptTokens: 0, completionTokens: 0, dollars: 0 as number | undefined });
  return { agent: role(), proposer: role(), validator: role(), meta: role(), challenger: role() };
}

export function syntheticRun(opts: SyntheticOptions): PanelEvent[] {
  const rnd = new SeededRandom(opts.seed ?? 7);
  const runId = opts.runId ?? 'run-synthetic';
  const n = opts.devItems ?? 40;
  const alpha = opts.alpha ?? 0.05;
  const payload = opts.payload ?? '';
  const logThr = Math.log(1 / alpha);
  const out: PanelEvent[] = [];
  let at = opts.startAt ?? 1_700_000_000_000;
  const push = (e: Record<string, unknown>) => {
    at += 37;
    out.push({ runId, at, ...e } as PanelEvent);
  };
  const cost = emptyCost();
  let calls = 0;
  const spend = (role: keyof CostReport, k: number) => {
    const c = cost[role];
    c.calls += k;
    c.promptTokens += 400 * k;
    c.completionTokens += 120 * k;
    c.dollars = (c.dollars ?? 0) + 0.0004 * k;
    calls += k;
  };

  push({ type: 'run/started', info: { kind: 'evolve', target: 'prompts/summarize.prompt.md', gate: 'pace+', alpha, mode: 'suggest', seed: 7, budget: { llmCalls: 50_000, dollars: 20, tokens: 30_000_000, wallMs: 3_600_000 } } });
  push({ type: 'dataset/loaded', items: Array.from({ length: n }, (_, i) => ({ itemId: `item-${i}`, input: `Summarize document ${i}. ${payload}`, split: 'dev' as const })) });

  let incumbent = 'c0000000';
  push({ type: 'candidate/proposed', candidateId: incumbent, parentId: undefined, contentHash: 'h0', text: 'You are a careful summarizer.\nKeep it short.\n' });
  const accuracy = new Map<string, number>([[incumbent, 0.6]]);
  let tested = 0;
  let commits = 0;
  for (let c = 1; out.length < opts.count; c++) {
    const id = `c${String(c).padStart(7, '0')}`;
    const parent = incumbent;
    const gain = rnd.next() < 0.15 ? 0.3 : rnd.next() < 0.2 ? -0.1 : 0;
    const acc = Math.min(0.95, Math.max(0.05, (accuracy.get(parent) ?? 0.6) + gain));
    accuracy.set(id, acc);
    spend('proposer', 1);
    push({
      type: 'candidate/proposed',
      candidateId: id,
      parentId: parent,
      contentHash: `h${c}`,
      text: `You are a careful summarizer.\nKeep it short.\nVariant ${c}: ${payload}\n`,
      reasoning: `Tighten the instruction (attempt ${c}). ${payload}`,
    });
    const logW = LAMBDAS.map(() => 0);
    let wins = 0;
    let losses = 0;
    let ties = 0;
    let decision: 'commit' | 'reject' = 'reject';
    let reason: DecisionRecord['reason'] = 'budget';
    let k = 0;
    for (; k < n && out.length < opts.count;) {
      k += 1;
      const itemId = `item-${(k * 7 + c) % n}`;
      const yC = rnd.next() < acc ? 1 : 0;
      const yI = rnd.next() < (accuracy.get(parent) ?? 0.6) ? 1 : 0;
      spend('agent', 2);
      push({ type: 'item/evaluated', candidateId: id, itemId, score: yC, cached: false, output: `Candidate answer ${k}. ${payload}` });
      push({ type: 'item/evaluated', candidateId: parent, itemId, score: yI, cached: rnd.next() < 0.5, output: `Incumbent answer ${k}. ${payload}` });
      if (opts.pairwise) {
        spend('validator', 2);
        const w1 = yC > yI ? 'child' : yC < yI ? 'parent' : 'tie';
        const w2 = rnd.next() < 0.85 ? w1 : 'tie';
        push({ type: 'verdict', candidateId: id, parentId: parent, itemId, order: 'child-first', winner: w1, rationale: `A is better. ${payload}` });
        push({ type: 'verdict', candidateId: id, parentId: parent, itemId, order: 'parent-first', winner: w2, rationale: `B is better. ${payload}` });
      }
      const d = yC - yI;
      if (d !== 0) LAMBDAS.forEach((l, g) => (logW[g]! += Math.log1p(l * d)));
      if (d > 0) wins += 1;
      else if (d < 0) losses += 1;
      else ties += 1;
      const logE = logMeanExp(logW);
      const logBest = logMeanExp(logW.map((w, g) => w + (n - k) * Math.log1p(LAMBDAS[g]!)));
      push({ type: 'wealth/step', candidateId: id, k, itemId, delta: d, logWealth: logE, logThreshold: logThr, logBest });
      if (k % 5 === 0) push({ type: 'cost/update', cost: structuredClone(cost), llmCalls: calls });
      if (logE >= logThr) {
        decision = 'commit';
        reason = 'evidence';
        break;
      }
      if (logBest < logThr) {
        reason = 'futile';
        break;
      }
    }
    if (out.length >= opts.count) break;
    tested += 1;
    const record: DecisionRecord = {
      candidateId: id,
      parentId: parent,
      incumbentId: parent,
      gate: 'pace+',
      configHash: 'cfg',
      alpha,
      schedule: 'per-candidate',
      ledgerBefore: { tested: tested - 1, commits },
      threshold: 1 / alpha,
      orderSeed: c,
      itemsConsumed: k,
      wins,
      losses,
      ties,
      logWealth: logMeanExp(logW),
      decision,
      reason,
      candidateCalls: k,
      incumbentCalls: k,
    };
    push({ type: 'decision', record });
    if (decision === 'commit') {
      commits += 1;
      incumbent = id;
    }
    if (c % 10 === 0 && out.length < opts.count) {
      const ids = [...accuracy.keys()].slice(-12);
      push({
        type: 'ratings',
        ratings: ids.map((cid, i) => {
          const bt = 1500 + (accuracy.get(cid)! - 0.6) * 800;
          return { candidateId: cid, elo: bt + (i % 3) * 7 - 7, bt, lo: bt - 60, hi: bt + 60, selectP: 1 / ids.length };
        }),
      });
    }
  }
  return out.slice(0, opts.count);
}
