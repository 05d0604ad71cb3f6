// What issue #25 says Ratchet must show, through the built CLI against the fake endpoint in its
// realistic mode (test/fixtures/fakeOpenAI/realistic.ts): answers written the way real models
// write them — verdicts in quotes and after prose, reasoning sections with a provisional answer,
// commentary and fenced examples after the prompt, a draft <DIFF> in the reasoning, answers cut
// off at a length limit — are read as the model meant them, and a judge that does not answer is
// shown as not answering, never as a tie.
//
// The fake's answers are drawn from the request, not from how they are written, so a run with a
// realistic judge and the same run with a judge that writes exactly the format asked make the same
// calls and must decide the same: every comparison below is against that well-formed run.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/core/journal/events';
import { emptyRunState, foldEvents } from '../../src/panelState/runState';
import { headerModel } from '../../webview/model/header';
import { statisticText } from '../../webview/model/feed';
import { REASONING_SHAPES, ROLE_SHAPES, shapeFor } from '../fixtures/fakeOpenAI/realistic';
import { normalizeScenario } from '../fixtures/fakeOpenAI/scenario';
import type { ScenarioInput } from '../fixtures/fakeOpenAI/scenario';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { FakeServer } from '../fixtures/fakeOpenAI/server';
import { CLI, decisions, journal, runCli, runIds } from './evolveCli';
import { runInProcess } from './evolveInProcess';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';
import { searchWorkspace } from './searchWorkspace';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

const JUDGE_SHAPES = [...ROLE_SHAPES.validator, ...REASONING_SHAPES];

async function withServer<T>(scenario: ScenarioInput, f: (server: FakeServer) => Promise<T>): Promise<T> {
  const server = await startFakeServer({ scenario });
  try {
    return await f(server);
  } finally {
    await server.close();
  }
}

const only = <T extends EngineEvent['type']>(events: readonly EngineEvent[], type: T) => events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);
const records = (events: readonly EngineEvent[]) => only(events, 'decision').map((e) => e.record);
const committedWith = (events: readonly EngineEvent[], marker: string) => {
  const c = only(events, 'candidate/proposed').find((p) => p.text.includes(marker));
  return c !== undefined && records(events).some((r) => r.candidateId === c.candidateId && r.decision === 'commit');
};
/** The shapes the fake drew for the requests of `role` it answered. */
const shapesUsed = (server: FakeServer, scenario: ScenarioInput, role: 'validator' | 'proposer') => {
  const s = normalizeScenario(scenario);
  return new Set(
    server.calls
      .filter((c) => c.role === role)
      .map((c) => {
        const body = c.body as { messages: { role: string; content: string }[]; seed?: number };
        return shapeFor(s, role, { messages: body.messages, seed: body.seed });
      }),
  );
};

describe('a judge that quotes its verdict line, or reasons before it', () => {
  it.each(['pace-rf', 'pairwise', 'focus'])(
    'lets a truly better prompt commit under %s, deciding exactly as a well-formed judge',
    async (gate) => {
      const seed = 3;
      const w = makeWorkspace({ gate, labels: false, candidates: 3, seed, ...(gate === 'focus' ? { gateLines: ['focus: { refreshEvery: 1 }'] } : {}) });
      const wellFormed = scenarioFor(w, { seed, gainAt: 1, gain: 0.3, validatorAccuracy: 1 });
      const realistic: ScenarioInput = { ...wellFormed, realistic: { roles: ['validator'], shapes: JUDGE_SHAPES } };
      await withServer(realistic, async (server) => {
        const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir]);
        const events = journal(w.dir, runIds(w.dir)[0]!);
        expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
        // Every judge answer came in some real model's way…
        const verdicts = only(events, 'verdict');
        expect(verdicts.length).toBeGreaterThan(0);
        expect(shapesUsed(server, realistic, 'validator').has(undefined)).toBe(false);
        expect(shapesUsed(server, realistic, 'validator').size).toBeGreaterThanOrEqual(gate === 'pace-rf' ? 10 : 4);
        // … and was read at once: no abstention, no second ask.
        expect(verdicts.filter((v) => v.winner === 'abstained')).toEqual([]);
        expect(server.calls.filter((c) => c.role === 'validator').every((c) => (c.body as { messages: unknown[] }).messages.length === 2)).toBe(true);
        // The real edit (marker edit:1, +0.30) is committed, as a well-formed judge's verdicts commit it.
        expect(committedWith(events, '<!-- edit:1 -->')).toBe(true);
        const reference = await runInProcess(seed, w.promptPath, wellFormed);
        expect(decisions(events)).toEqual(decisions(reference.events));
        // The judge's reasoning is journaled apart from its verdict.
        expect(verdicts.some((v) => v.thinking?.includes('At first sight'))).toBe(true);
      });
    },
    120_000,
  );
});

describe('a judge that does not answer', () => {
  it('is shown as abstaining — the CLI, runs show and the panel — with the warning naming its model, never as a tie', async () => {
    const seed = 2;
    const w = makeWorkspace({ gate: 'pace-rf', labels: false, candidates: 2, seed });
    const base = scenarioFor(w, { seed, gainAt: 1, validatorAccuracy: 1 });
    await withServer({ ...base, validator: { ...base.validator, abstain: 1 } }, async (server) => {
      const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir]);
      const id = runIds(w.dir)[0]!;
      const events = journal(w.dir, id);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      const verdicts = only(events, 'verdict');
      expect(verdicts.length).toBeGreaterThan(0);
      expect(verdicts.every((v) => v.winner === 'abstained' && /^Your answer has no line "ANSWER-[0-9a-f]{12}: …"\.$/.test(v.problem ?? ''))).toBe(true);
      // Each judgement was asked twice, in the same chat (calls of a batch past the verdict are paid, not journaled: GATES.md 4.7).
      const asked = server.calls.filter((c) => c.role === 'validator').map((c) => (c.body as { messages: { role: string; content: string }[] }).messages);
      const again = asked.filter((m) => m.length === 4);
      // Every re-ask follows a first ask; a first ask whose re-ask the run's end or its budget
      // refused (at most one per slot, concurrency 8) goes without.
      const unasked = asked.length - 2 * again.length;
      expect(unasked).toBeGreaterThanOrEqual(0);
      expect(unasked).toBeLessThanOrEqual(8);
      expect(again.length).toBeGreaterThanOrEqual(verdicts.length);
      expect(again[0]![2]).toEqual({ role: 'assistant', content: 'Both responses have merits and flaws; I cannot choose between them.' });
      expect(again[0]![3]!.content).toMatch(/^Your answer has no line "ANSWER-[0-9a-f]{12}: …"\. Answer again: end with one line "ANSWER-[0-9a-f]{12}: A", "ANSWER-[0-9a-f]{12}: B" or "ANSWER-[0-9a-f]{12}: tie", and nothing after it\.$/);
      // The gate left every item out: no wins, no losses, no ties.
      for (const rec of records(events)) {
        expect(rec).toMatchObject({ decision: 'reject', wins: 0, losses: 0, ties: 0, unjudged: rec.itemsConsumed, judge: { abstained: rec.judge!.answers, model: 'sim-validator' } });
      }
      const total = records(events).reduce((n, rec) => n + rec.judge!.answers, 0);
      expect(total).toBe(verdicts.length);
      // The CLI: each test's warning, and the run's last line.
      expect(r.stderr).toMatch(/warn: The judge \(model sim-validator\) did not answer (\d+) of \1 times in c1's test, even when asked again; (\d+) of \2 items were left out of the test, not counted as ties\./);
      expect(r.stderr).toContain(`the judge did not answer ${total} of ${total} times`);
      // Not "0W 0L 35T": the items the judge did not answer for are no ties. (×40: the run-level
      // default's first line; its screen could judge no item either, so it let the dev set decide.)
      expect(r.stderr).toMatch(/decision: REJECT c1 \(futile\) · pace-rf α 0\.05 · 0W 0L 0T (\d+) unjudged over \1 items · wealth 1 of 40 · the judge did not answer (\d+) of \2 times/);
      expect(records(events)[0]!.screen).toMatchObject({ verdict: 'promote', wins: 0, losses: 0, ties: 0 });
      // runs show.
      const shown = await runCli(['runs', 'show', id, '-w', w.dir]);
      expect(shown.stdout).toContain(`the judge did not answer ${total} of ${total} times (model sim-validator), even when asked again: those items were left out of the tests, not counted as ties`);
      expect(shown.stdout).toMatch(/verdict +c1 vs v0 on q\d+: the judge did not answer, asked twice \(child-first\)/);
      // The panel, folding the same journal as the extension's store does.
      const state = foldEvents(emptyRunState(id), events);
      expect(headerModel(state, Date.now()).judge).toBe(`The judge did not answer ${total} of ${total} times (model sim-validator), even when asked again: those items were left out of the tests, not counted as ties.`);
      expect(headerModel(state, Date.now()).warning).toMatch(/^The judge \(model sim-validator\) did not answer/);
      const row = state.decisions[0]!;
      expect(statisticText(row)).toMatch(/verdicts child 0 · parent 0 · tie 0 · no answer \d+/);
      expect(statisticText(row)).not.toMatch(/tie [1-9]/);
    });
  }, 120_000);
});

describe('a rubric grade written the way models write it', () => {
  function rubricWorkspace(seed: number) {
    const w = makeWorkspace({ gate: 'pace+', candidates: 3, seed });
    const spec = join(w.dir, 'task.ratchet.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('scorer:\n  type: numeric', 'scorer:\n  type: llm-rubric\n  rubric: The final number is the right answer.\n  scale: 10'));
    return w;
  }

  it('in backticks, bold or quotes, after reasoning: read, and the run decides as with bare grades', async () => {
    const seed = 4;
    const w = rubricWorkspace(seed);
    const wellFormed = scenarioFor(w, { seed, gainAt: 1, validatorAccuracy: 1 });
    const realistic: ScenarioInput = { ...wellFormed, realistic: { roles: ['validator'], shapes: ['backticked', 'bold', 'quoted', 'after-prose', 'think', 'harmony'] } };
    await withServer(realistic, async (server) => {
      const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir]);
      const events = journal(w.dir, runIds(w.dir)[0]!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      expect(only(events, 'item/evaluated').filter((e) => e.abstained !== undefined)).toEqual([]);
      expect(shapesUsed(server, realistic, 'validator').size).toBeGreaterThanOrEqual(5);
      expect(decisions(events)).toEqual(decisions((await runInProcess(seed, w.promptPath, wellFormed)).events));
      expect(committedWith(events, '<!-- edit:1 -->')).toBe(true);
    });
  }, 120_000);

  it('missing, asked again and still missing: an abstention the gate leaves out — the run goes on to its end', async () => {
    const seed = 5;
    const w = rubricWorkspace(seed);
    const base = scenarioFor(w, { seed, gainAt: 1, validatorAccuracy: 1 });
    await withServer({ ...base, validator: { ...base.validator, abstain: 0.3 } }, async (server) => {
      const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir]);
      const events = journal(w.dir, runIds(w.dir)[0]!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      expect(only(events, 'run/failed')).toEqual([]);
      const ungraded = only(events, 'item/evaluated').filter((e) => e.abstained !== undefined);
      expect(ungraded.length).toBeGreaterThan(0);
      expect(ungraded[0]!.abstained).toMatch(/^the judge gave no grade for item q\d+: Your answer has no line "ANSWER-[0-9a-f]{12}: n"\.$/);
      expect(records(events).some((rec) => (rec.unjudged ?? 0) > 0)).toBe(true);
    });
  }, 120_000);
});

describe("the proposer's answer", () => {
  it('a fenced example after the proposed prompt never reaches the file', async () => {
    const seed = 6;
    const w = makeWorkspace({ gate: 'pace+', candidates: 3, seed, mode: 'autopilot' });
    const scenario: ScenarioInput = { ...scenarioFor(w, { seed, gainAt: 1 }), realistic: { roles: ['proposer'], shapes: ['fenced-example-after', 'markdown-fence'] } };
    await withServer(scenario, async (server) => {
      const before = readFileSync(w.promptPath, 'utf8');
      const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir, '--apply']);
      const events = journal(w.dir, runIds(w.dir)[0]!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      expect(shapesUsed(server, scenario, 'proposer')).toEqual(new Set(['fenced-example-after', 'markdown-fence']));
      const proposed = only(events, 'candidate/proposed').filter((p) => p.parentId !== undefined);
      expect(proposed.length).toBeGreaterThan(0);
      for (const p of proposed) expect(p.text).not.toMatch(/The answer is 42|"answer": 42|which is the format we want|```/);
      expect(committedWith(events, '<!-- edit:1 -->')).toBe(true);
      const after = readFileSync(w.promptPath, 'utf8');
      expect(after).toBe(`${before.trimEnd()}\n\n<!-- edit:1 -->\nHint 1: read the question twice.\n`);
    });
  }, 120_000);

  it('a draft <DIFF> in a reasoning section never becomes the child', async () => {
    const ws = searchWorkspace();
    await withServer({ realistic: { roles: ['proposer'], shapes: ['think'] } }, async (server) => {
      const r = await runCli(['search', ws.program, '--base-url', server.url, '--model', 'sim-proposer', '--evaluations', '6', '--json', '-w', ws.dir]);
      const events = r.stdout
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as EngineEvent);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      const children = only(events, 'candidate/proposed').filter((p) => p.parentId !== undefined);
      expect(children.length).toBeGreaterThan(0);
      for (const c of children) {
        expect(c.text).not.toContain('draft, abandoned');
        expect(c.thinking).toContain('draft, abandoned');
      }
      expect(only(events, 'proposal/failed').filter((f) => f.reason === 'format')).toEqual([]);
    });
  }, 120_000);
});

describe('an answer cut off at a length limit', () => {
  it('is asked for again with more room, and the run decides as if it had never been cut', async () => {
    const seed = 7;
    const w = makeWorkspace({ gate: 'pace+', candidates: 3, seed });
    const wellFormed = scenarioFor(w, { seed, gainAt: 1 });
    await withServer({ ...wellFormed, limits: { defaultMaxTokens: 20, roles: ['proposer'] } }, async (server) => {
      const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir]);
      const events = journal(w.dir, runIds(w.dir)[0]!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      const asked = server.calls.filter((c) => c.role === 'proposer').map((c) => (c.body as { max_tokens?: number }).max_tokens);
      expect(asked.filter((m) => m === undefined).length).toBe(asked.filter((m) => m === 2048).length);
      expect(decisions(events)).toEqual(decisions((await runInProcess(seed, w.promptPath, wellFormed)).events));
    });
  }, 120_000);

  it('is never parsed as final: cut off even with more room, no candidate is made of it', async () => {
    const seed = 8;
    const w = makeWorkspace({ gate: 'pace+', candidates: 3, seed });
    await withServer({ ...scenarioFor(w, { seed, gainAt: 1 }), limits: { hardMaxTokens: 20, roles: ['proposer'] } }, async (server) => {
      const before = readFileSync(w.promptPath, 'utf8');
      const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir, '--apply']);
      const events = journal(w.dir, runIds(w.dir)[0]!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      expect(only(events, 'candidate/proposed').map((p) => p.candidateId)).toEqual(['v0']);
      const warned = only(events, 'log').filter((l) => l.level === 'warn');
      expect(warned.length).toBeGreaterThan(0);
      expect(warned[0]!.message).toMatch(/^Iteration 1: the proposer's answer could not be read, even when asked again \(Your answer was cut off at the length limit before it ended\.\); the iteration is skipped\.$/);
      const cost = only(events, 'cost/update').at(-1)!.cost;
      expect(cost.proposer.truncated).toBeGreaterThan(0);
      expect(readFileSync(w.promptPath, 'utf8')).toBe(before);
      expect(r.code).toBe(1);
      const shown = await runCli(['runs', 'show', runIds(w.dir)[0]!, '-w', w.dir]);
      expect(shown.stdout).toMatch(/\d+ answers cut off before the end \(at the length limit even with more room, or by a content filter\), not read as answers/);
    });
  }, 120_000);
});
