// The judge run's engine (core/judgeEdit): what it refuses before any call, which gate it uses,
// what it journals, and how a budget or a changed file ends it — with the product's run inputs,
// LLM layer and gates, the fake endpoint answering in-process (FakeTransport).
import { describe, expect, it } from 'vitest';
import { checkCandidate, judgeGate, runJudgeEdit } from '../../../src/core/judgeEdit/judgeEdit';
import type { JudgeEditOptions } from '../../../src/core/judgeEdit/judgeEdit';
import { judgeEvidence, verdictSentence } from '../../../src/core/judgeEdit/evidence';
import { loadRunInputs } from '../../../src/core/setup/spec';
import { createLlmClient } from '../../../src/core/llm/client';
import { DEFAULT_RETRY } from '../../../src/core/llm/retry';
import { SeededRandom } from '../../../src/core/random';
import { RunBudget } from '../../../src/core/run/budget';
import { RatchetError } from '../../../src/core/errors';
import type { EngineEvent } from '../../../src/core/journal/events';
import { NodeFiles } from '../../../src/node/files';
import { SystemClock } from '../../../src/node/clock';
import { roleConfig } from '../../../src/node/runs/roles';
import { createNodeScorer } from '../../../src/node/scorers';
import { NodeProcessRunner } from '../../../src/node/process';
import { FakeTransport } from '../../fixtures/fakeOpenAI/transport';
import { makeWorkspace } from '../../integration/evolveWorkspace';
import { parsePromptFile } from '../../../src/core/prompt/promptFile';
import { DEFAULT_GRID } from '../../../src/core/gates/eprocess';
import { scenario, withMarker } from '../../integration/judgeWorld';

async function setup(o: { labels?: boolean; calls?: number } = {}) {
  const ws = makeWorkspace({ seed: 1, labels: o.labels ?? true, ...(o.labels === false ? { gate: 'pace-rf' } : {}) });
  const inputs = await loadRunInputs(new NodeFiles(), ws.promptPath);
  const clock = new SystemClock();
  const budget = new RunBudget({ candidates: 1, ...(o.calls === undefined ? {} : { calls: o.calls }) }, clock);
  const transport = new FakeTransport(scenario(ws, 1));
  const llm = createLlmClient({ transport, roles: roleConfig(inputs.spec, {}, { apiKey: 'k' }), concurrency: 4, timeoutMs: 0, retry: DEFAULT_RETRY, admission: budget, clock, random: new SeededRandom(1) });
  budget.measure(llm);
  const scorer = inputs.spec.scorer ? await createNodeScorer(inputs.spec.scorer, { baseDir: inputs.spec.baseDir, files: new NodeFiles(), llm, proc: new NodeProcessRunner() }) : undefined;
  const { gate } = judgeGate(inputs.spec);
  const base = (candidateText: string): JudgeEditOptions => ({ runId: 'r1', spec: { ...inputs.spec, gate }, file: inputs.prompt, candidateText, dev: inputs.splits.dev, scorer, ports: { llm, clock }, meter: llm, gate });
  return { ws, inputs, transport, base };
}

async function judge(o: JudgeEditOptions) {
  const events: EngineEvent[] = [];
  const outcome = await runJudgeEdit(o, async (e) => void events.push(e), new AbortController().signal);
  return { outcome, events };
}

describe('judgeGate', () => {
  const spec = (name: string, rewardFree = false) => ({ gate: { name, alpha: 0.05, schedule: 'e-lond' } as never, rewardFree });
  it('keeps an anytime-valid gate, at one candidate’s threshold unless told a schedule', () => {
    expect(judgeGate(spec('pace'))).toMatchObject({ gate: { name: 'pace', schedule: 'per-candidate' } });
    expect(judgeGate(spec('pace-rf', true), 'e-lond')).toMatchObject({ gate: { name: 'pace-rf', schedule: 'e-lond' } });
    expect(judgeGate(spec('pace+')).substituted).toBeUndefined();
  });
  it('replaces a gate without error control with PACE+ on scores, reward-free PACE on verdicts, and says so', () => {
    expect(judgeGate(spec('greedy'))).toMatchObject({ gate: { name: 'pace+' }, substituted: 'greedy' });
    expect(judgeGate(spec('elo', true))).toMatchObject({ gate: { name: 'pace-rf' }, substituted: 'elo' });
  });
});

describe('checkCandidate', () => {
  let ctx: Awaited<ReturnType<typeof setup>>;
  const refusal = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      expect(RatchetError.is(err, 'badInput')).toBe(true);
      return (err as Error).message;
    }
    throw new Error('not refused');
  };
  it('refuses what cannot be judged, saying why, before any call', async () => {
    ctx = await setup();
    const { inputs } = ctx;
    const { gate } = judgeGate(inputs.spec);
    const check =
      (text: string, dev = inputs.splits.dev) =>
      () =>
        checkCandidate(inputs.prompt, text, dev, gate);
    expect(refusal(check(inputs.prompt.text))).toMatch(/is the text .* already holds: there is no edit to judge/);
    expect(refusal(check(inputs.prompt.text.replace('description: arithmetic', 'description: other')))).toMatch(/changes the front matter of .*task\.prompt\.md/);
    expect(refusal(check(`${inputs.prompt.text}\nAlso {{context}}.\n`))).toMatch(/the candidate: item has no "context" variable/);
    expect(refusal(check(withMarker('better'), inputs.splits.dev.slice(0, 5)))).toMatch(/PACE\+ needs at least 6 consecutive wins at α = 0\.05; your dev set has 5 items: no candidate can be committed/);
    // CRLF line endings in the front matter are not a change of it.
    expect(checkCandidate(inputs.prompt, withMarker('better').replace(/\n/g, '\r\n'), inputs.splits.dev, gate)).toContain('edit:better');
  });
});

describe('checkCandidate on Copilot files', () => {
  const gate = judgeGate({
    gate: { name: 'pace+', alpha: 0.05, lambda: 0.5, lambdas: [...DEFAULT_GRID], schedule: 'per-candidate', horizon: 30, population: 'infinite', focus: { refreshEvery: 5 }, elo: { k: 32, matches: 2, temperature: 174, soft: false } },
    rewardFree: false,
  }).gate;
  const dev = Array.from({ length: 10 }, (_, i) => ({ id: `d${i}`, vars: { message: `q${i}` }, source: { file: 'd.jsonl', line: i + 1 } }));
  const skill = parsePromptFile(
    '/w/.github/skills/unit-conversion/SKILL.md',
    ['---', 'name: unit-conversion', 'description: Convert a quantity. Use when asked.', 'argument-hint: a quantity', '---', '# Unit conversion', '', 'Convert it.', ''].join('\n'),
  );
  const refusal = (text: string) => {
    try {
      checkCandidate(skill, text, dev, gate);
    } catch (err) {
      return (err as Error).message;
    }
    return undefined;
  };
  it("a skill's description and body may change, its other front matter may not", () => {
    expect(refusal(skill.text.replace('Convert it.', 'Convert it, showing the factor.'))).toBeUndefined();
    expect(checkCandidate(skill, skill.text.replace('Convert a quantity.', 'Convert any quantity.'), dev, gate)).toContain('description: Convert any quantity.');
    expect(refusal(skill.text.replace('argument-hint: a quantity', 'argument-hint: a unit'))).toMatch(/changes the front matter beyond the skill's description of .*SKILL\.md/);
    expect(refusal(skill.text.replace('description: Convert a quantity. Use when asked.\n', ''))).toMatch(/^The candidate cannot be judged: it drops the skill's front matter, which must hold its description/);
  });
  it("a Copilot file's frozen tokens stay as written", () => {
    const instructions = parsePromptFile('/w/shipping.instructions.md', ['---', "applyTo: '**'", '---', 'Answer with ${input:tone} tone; see [the rules](rules.md).', ''].join('\n'));
    expect(() =>
      checkCandidate(
        instructions,
        instructions.text.replace(' see [the rules](rules.md).', ''),
        dev.map((d) => ({ ...d, vars: { ...d.vars, tone: 'a' } })),
        gate,
      ),
    ).toThrow(/The candidate cannot be judged: it drops or alters `\[the rules\]\(rules\.md\)`/);
  });
});

describe('runJudgeEdit', () => {
  it('journals a judge run: the dev items, both versions, every step, the decision, the end', async () => {
    const { base, inputs } = await setup();
    const { outcome, events } = await judge({ ...base(withMarker('better')), reasoning: 'because' });
    expect(outcome).toMatchObject({ status: 'finished', verdict: 'commit', record: { decision: 'commit', reason: 'evidence', candidateId: 'c1', incumbentId: 'v0' } });
    const types = events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual(['run/started', 'dataset/loaded', 'candidate/proposed', 'candidate/proposed']);
    expect(types.slice(-3)).toEqual(['decision', 'cost/update', 'run/finished']);
    expect(events[0]).toMatchObject({ info: { kind: 'judge', gate: 'pace+', alpha: 0.05, mode: 'suggest' } });
    const loaded = events[1] as Extract<EngineEvent, { type: 'dataset/loaded' }>;
    expect(loaded.items.map((i) => i.itemId)).toEqual(inputs.splits.dev.map((i) => i.id));
    expect(loaded.items.every((i) => i.split === 'dev')).toBe(true);
    expect(events[3]).toMatchObject({ candidateId: 'c1', parentId: 'v0', reasoning: 'because' });
    // The pairs a report reads are the test's own steps, in the order consumed.
    const steps = events.filter((e) => e.type === 'wealth/step');
    expect(outcome.pairs).toEqual(steps.map((e) => ({ itemId: e.itemId, delta: e.delta })));
    expect(outcome.pairs).toHaveLength(outcome.record!.itemsConsumed);
    expect(events.at(-1)).toMatchObject({ type: 'run/finished', commits: 1, candidates: 1, incumbentId: 'c1' });
  });

  it('a budget that runs out mid-test leaves the candidate undecided, with no decision on partial evidence', async () => {
    const { base } = await setup({ calls: 12 });
    const { outcome, events } = await judge(base(withMarker('n1')));
    // How many were paid when the 13th was refused depends on which calls were still in flight.
    expect(outcome).toMatchObject({ status: 'finished', verdict: 'undecided', stoppedBy: expect.stringMatching(/^\d+ of 12 LLM calls$/), record: undefined });
    expect(events.filter((e) => e.type === 'decision')).toEqual([]);
    expect(events.find((e) => e.type === 'candidate/stopped')).toMatchObject({ candidateId: 'c1', reason: 'budget' });
    expect(verdictSentence('undecided', judgeEvidence(undefined, 40, 0.05, 20), 'x.prompt.md', '12 of 12 LLM calls')).toMatch(/^undecided: the budget stopped the test before it could decide \(12 of 12 LLM calls\)/);
  });

  it('writes on commit through the apply point, and a file changed meanwhile is reported, not written over', async () => {
    const { base } = await setup();
    const asked: string[] = [];
    const { outcome, events } = await judge({ ...base(withMarker('better')), apply: { decide: async () => 'accept', apply: async (s) => (asked.push(s.newText), 'stale') } });
    expect(asked).toEqual([withMarker('better')]);
    expect(outcome).toMatchObject({ verdict: 'commit', applied: 'stale' });
    expect(events.find((e) => e.type === 'edit/rejected')).toMatchObject({ by: 'run', reason: 'stale' });
    const rejected = await judge({
      ...base(withMarker('worse')),
      apply: {
        decide: async () => 'accept',
        apply: async () => {
          throw new Error('never asked');
        },
      },
    });
    expect(rejected.outcome).toMatchObject({ verdict: 'reject' });
    expect(rejected.outcome.applied).toBeUndefined();
  });

  it('judges without labels with reward-free PACE: the validator’s verdicts in both orders', async () => {
    const { base, inputs } = await setup({ labels: false });
    expect(inputs.spec.rewardFree).toBe(true);
    const { outcome, events } = await judge(base(withMarker('better')));
    expect(outcome).toMatchObject({ verdict: 'commit', record: { gate: 'pace-rf' } });
    const verdicts = events.filter((e) => e.type === 'verdict');
    expect(verdicts.length).toBe(2 * outcome.record!.itemsConsumed);
  });
});

describe('verdictSentence', () => {
  const record = (over: object) =>
    ({
      candidateId: 'c1',
      parentId: 'v0',
      incumbentId: 'v0',
      gate: 'pace+',
      configHash: '',
      alpha: 0.05,
      schedule: 'per-candidate',
      ledgerBefore: { tested: 0, commits: 0 },
      threshold: 20,
      orderSeed: 1,
      itemsConsumed: 17,
      wins: 6,
      losses: 0,
      ties: 11,
      logWealth: Math.log(20.1),
      decision: 'commit',
      reason: 'evidence',
      candidateCalls: 17,
      incumbentCalls: 17,
      ...over,
    }) as const;
  it('says the verdict, the evidence against its line and the tally, in one sentence', () => {
    const e = judgeEvidence(record({}) as never, 40, 0.05, 20);
    expect(e).toMatchObject({ threshold: 20, pairs: 6, wins: 6, losses: 0, ties: 11, itemsUsed: 17, devItems: 40, reason: 'evidence', abstentions: 0 });
    expect(verdictSentence('commit', e, 'a.prompt.md')).toBe(
      "commit: the candidate is better than a.prompt.md's current text — evidence ×20.1 (needs ×20), 6 won, 0 lost, 11 tied over 17 of 40 dev items. A candidate that is not better gets this far with probability at most α = 0.05.",
    );
    const futile = judgeEvidence(record({ decision: 'reject', reason: 'futile', wins: 1, losses: 6, logWealth: Math.log(0.05) }) as never, 40, 0.05, 20);
    expect(verdictSentence('reject', futile, 'a.prompt.md')).toMatch(/^reject: no evidence .* 1 won, 6 lost, 11 tied over 17 of 40 dev items; even winning every remaining dev item could not have reached the line/);
  });
});
