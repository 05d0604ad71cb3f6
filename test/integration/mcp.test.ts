// `ratchet mcp` as an agent's host sees it: the built CLI launched over stdio, driven by the MCP
// SDK's own Client, its LLM calls answered by the fake OpenAI-compatible endpoint (mcpHarness.ts
// says which edit markers make a candidate better, worse or neutral).
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { FakeServer } from '../fixtures/fakeOpenAI/server';
import type { EngineEvent } from '../../src/core/journal/events';
import { binomialUpper, paceCommitProbability } from './bands';
import { CLI, journalSoFar, runIds } from './evolveCli';
import { SCRATCH, scenarioFor } from './evolveWorkspace';
import { PROGRAM, searchWorkspace } from './searchWorkspace';
import { TestClient } from './serverHarness';
import { CancelRunRequest, StartRunRequest } from '../../src/protocol/lsp';
import type { Workspace } from './evolveWorkspace';
import { openSession, samplingVia, setScorer, textOf } from './mcpHarness';
import { scenario, withMarker, workspace } from './judgeWorld';
import type { McpSession } from './mcpHarness';
import { until } from '../until';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

/** Looks like a real key, so both of the product's nets (by value and by shape) must catch it. */
const KEY = 'sk-mcp-test-4f9c2b7e1d0a8c6b5e3f';

interface Judged {
  verdict: 'commit' | 'reject' | 'undecided';
  evidence: { wealth: number; threshold: number; wins: number; losses: number; ties: number; itemsUsed: number; devItems: number; reason: string };
  applied: string;
  cost: { calls: number; dollars?: number };
  runId: string;
}
const judged = (r: { structuredContent?: unknown }) => r.structuredContent as Judged;

describe('ratchet mcp with an endpoint', () => {
  let fake: FakeServer;
  let ws: Workspace;
  let other: Workspace;
  let s: McpSession;

  beforeAll(async () => {
    ws = workspace(1);
    other = workspace(1);
    fake = await startFakeServer({ scenario: scenario(ws, 1), apiKey: KEY });
    s = await openSession({ args: ['-w', ws.dir, '-w', other.dir], env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: KEY } });
  });
  afterAll(async () => {
    await s.close();
    await fake.close();
  });

  it('lists its tools, each input and output schema a valid JSON Schema', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['cancel_run', 'evaluate', 'explain_decision', 'judge_edit', 'list_runs', 'run_status', 'start_run']);
    // Each schema names its draft; it must compile under that draft's validator.
    const compile = (schema: Record<string, unknown>) => (String(schema.$schema).includes('2020-12') ? new Ajv2020({ strict: true }) : new Ajv({ strict: true })).compile(schema);
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(() => compile(t.inputSchema), `${t.name} input`).not.toThrow();
      expect(t.outputSchema, `${t.name} has an output schema`).toBeDefined();
      expect(() => compile(t.outputSchema!), `${t.name} output`).not.toThrow();
      expect(t.description!.length, t.name).toBeGreaterThan(40);
      // One `type` per node: a nullable `type: [x, null]` is legal but not portable (Gemini's function
      // declarations take one type; the MCP Inspector's --strict warns about it).
      expect(JSON.stringify([t.inputSchema, t.outputSchema]), t.name).not.toMatch(/"type":\[/);
    }
    const judge = tools.find((t) => t.name === 'judge_edit')!;
    expect(judge.inputSchema.required).toEqual(['file']);
    // A candidate may come as text or as a diff; the budget has no field it would ignore.
    expect(Object.keys(judge.inputSchema.properties!)).toEqual(['file', 'candidate', 'diff', 'rationale', 'apply', 'budget']);
  });

  it('judge_edit commits a truly better prompt, with progress as it goes, and never says a dev item', async () => {
    const before = fake.calls.length;
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const r = await s.call('judge_edit', { file: ws.promptPath, candidate: withMarker('better'), rationale: 'fixes the wrong answers' }, { onprogress: (p) => progress.push(p) });
    const j = judged(r);
    // P(PACE+ does not commit) for a candidate winning each item with probability 0.4 and losing none: 1.4e-4 (bands.ts).
    expect(j.verdict, textOf(r)).toBe('commit');
    expect(j.evidence.wealth).toBeGreaterThanOrEqual(20);
    expect(j.evidence).toMatchObject({ threshold: 20, losses: 0, devItems: 40, reason: 'evidence' });
    expect(j.evidence.wins).toBeGreaterThanOrEqual(6);
    expect(j.cost.calls).toBe(fake.calls.length - before);
    expect(j.applied).toBe('not-requested');
    expect(readFileSync(ws.promptPath, 'utf8')).not.toContain('edit:better');
    // One notification per item consumed, out of the 40 dev items, the last at the crossing. The
    // server writes them all before its result, but the SDK's client hands a notification to its
    // handler a microtask late and a response at once: when the last one and the result reach the
    // client in one read, the client drops that one (its request is already answered).
    const seen = progress.map((p) => p.progress);
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1));
    expect(seen.length).toBeGreaterThanOrEqual(j.evidence.itemsUsed - 1);
    expect(seen.length).toBeLessThanOrEqual(j.evidence.itemsUsed);
    expect(progress.every((p) => p.total === 40)).toBe(true);
    if (seen.length === j.evidence.itemsUsed) expect(progress.at(-1)!.message).toMatch(/evidence ×2\d(\.\d+)? \(needs ×20\)/);
    else expect(progress.at(-1)!.message).toMatch(/^item \d+ of at most 40: evidence ×[\d.]+ \(needs ×20\)$/);
    // A1: the agent learns totals, not which items or what the model said on them.
    const said = JSON.stringify(r);
    for (const item of ws.items.slice(0, 90)) expect(said).not.toContain(item.question);
    // The run is a run like any other: journaled, with the candidate's text and the decision.
    const events = journalSoFar(ws.dir, j.runId);
    expect(events[0]).toMatchObject({ type: 'run/started', info: { kind: 'judge', gate: 'pace+' } });
    expect(events.find((e) => e.type === 'candidate/proposed' && e.candidateId === 'c1')).toMatchObject({ reasoning: 'fixes the wrong answers' });
    expect(events.at(-1)).toMatchObject({ type: 'run/finished', commits: 1, candidates: 1 });
  });

  it('judge_edit rejects a worse prompt as futile, and takes the candidate as a unified diff too', async () => {
    const current = readFileSync(ws.promptPath, 'utf8');
    const diff = ['--- a/task.prompt.md', '+++ b/task.prompt.md', '@@ -8,1 +8,3 @@', ' End with "The answer is N".', '+', '+<!-- edit:worse -->', ''].join('\n');
    expect(current.split('\n')[7]).toBe('End with "The answer is N".');
    const r = await s.call('judge_edit', { file: ws.promptPath, diff });
    const j = judged(r);
    expect(j.verdict, textOf(r)).toBe('reject');
    expect(j.evidence.reason).toBe('futile');
    expect(j.evidence.losses).toBeGreaterThan(j.evidence.wins);
    expect(textOf(r)).toMatch(/^reject: no evidence that the candidate is better/);
    // The second candidate against this very text: the agent is told what trying many costs.
    expect((r.structuredContent as { testsOnThisText: number }).testsOnThisText).toBe(2);
    expect(textOf(r)).toMatch(/This is candidate 2 judged against this text: across them, up to 2 × α = 0\.1 commits are expected by luck alone\./);
    const bad = await s.call('judge_edit', { file: ws.promptPath, diff: diff.replace('End with', 'Finish with') });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/The diff does not apply to the current text of .*task\.prompt\.md/);
  });

  it('apply: true writes the file on commit only, through the apply point that records provenance', async () => {
    const neutral = await s.call('judge_edit', { file: other.promptPath, candidate: withMarker('worse'), apply: true });
    expect(judged(neutral)).toMatchObject({ verdict: 'reject', applied: 'not-committed' });
    expect(readFileSync(other.promptPath, 'utf8')).not.toContain('edit:');
    const better = await s.call('judge_edit', { file: other.promptPath, candidate: withMarker('better'), apply: true });
    expect(judged(better)).toMatchObject({ verdict: 'commit', applied: 'applied' });
    expect(readFileSync(other.promptPath, 'utf8')).toBe(withMarker('better'));
    const events = journalSoFar(other.dir, judged(better).runId);
    expect(events.filter((e) => e.type === 'edit/applied')).toMatchObject([{ candidateId: 'c1', by: 'autopilot' }]);
    // The file's history holds the edit with its evidence, as an Accept in the editor would.
    const provenance = execSync(`cat ${join(other.dir, '.ratchet', 'provenance')}/*.jsonl`)
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { runId: string; after: string; evidence: { reason: string } });
    expect(provenance.at(-1)).toMatchObject({ runId: judged(better).runId, after: withMarker('better'), evidence: { reason: 'evidence' } });
  });

  it('a file changed while the candidate was judged is not written over', async () => {
    const w = workspace(1);
    const s2 = await openSession({ args: ['-w', w.dir], env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: KEY } });
    try {
      // Hold the test at its first agent calls, change the file, then let the test finish.
      fake.inject({ kind: 'park', model: 'sim-agent', times: Infinity });
      const pending = s2.call('judge_edit', { file: w.promptPath, candidate: withMarker('better'), apply: true });
      await fake.untilParked(1);
      writeFileSync(w.promptPath, `${readFileSync(w.promptPath, 'utf8')}\nThe user's own line.\n`);
      fake.clearFaults();
      fake.releaseParked();
      const j = judged(await pending);
      expect(j).toMatchObject({ verdict: 'commit', applied: 'stale' });
      expect(readFileSync(w.promptPath, 'utf8')).toContain("The user's own line.");
      expect(readFileSync(w.promptPath, 'utf8')).not.toContain('edit:better');
      expect(journalSoFar(w.dir, j.runId).find((e) => e.type === 'edit/rejected')).toMatchObject({ by: 'run', reason: 'stale' });
    } finally {
      fake.clearFaults();
      fake.releaseParked();
      await s2.close();
    }
  });

  it('a budget the test could pass is refused before any call, and no run folder is left', async () => {
    const before = fake.calls.length;
    const runsBefore = runIds(ws.dir).length;
    const r = await s.call('judge_edit', { file: ws.promptPath, candidate: withMarker('better'), budget: { calls: 10 } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/may need up to 80 LLM calls \(both versions on each of the 40 dev items of .*\) and the budget allows 10: raise budget\.calls to at least 80/);
    const e = await s.call('judge_edit', { file: ws.promptPath, candidate: withMarker('better'), budget: { evaluations: 79 } });
    expect(textOf(e)).toMatch(/may need up to 80 evaluations/);
    expect(fake.calls.length).toBe(before);
    expect(runIds(ws.dir).length).toBe(runsBefore);
  });

  it('a cancelled call stops its run: nothing more is asked of the endpoint, the journal says cancelled', async () => {
    const w = workspace(1);
    const s2 = await openSession({ args: ['-w', w.dir], env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: KEY } });
    try {
      fake.inject({ kind: 'park', model: 'sim-agent', skip: 4, times: Infinity });
      const abort = new AbortController();
      const pending = s2.call('judge_edit', { file: w.promptPath, candidate: withMarker('n1') }, { signal: abort.signal });
      await fake.untilParked(1);
      const [runId] = runIds(w.dir);
      abort.abort();
      await expect(pending).rejects.toThrow();
      await until('the journal to say cancelled', () => journalSoFar(w.dir, runId!).at(-1)?.type === 'run/cancelled');
      const asked = fake.calls.length;
      fake.clearFaults();
      fake.releaseParked();
      // The held calls were abandoned: answering them now starts nothing new.
      await new Promise((r) => setTimeout(r, 300));
      expect(fake.calls.length).toBe(asked);
      expect(journalSoFar(w.dir, runId!).filter((e) => e.type === 'decision')).toEqual([]);
    } finally {
      fake.clearFaults();
      fake.releaseParked();
      await s2.close();
    }
  });

  it('refuses a path outside its folders, and a link inside them that leads out', async () => {
    const outside = mkdtempSync(join(SCRATCH, 'ratchet-outside-'));
    writeFileSync(join(outside, 'x.prompt.md'), 'secret prompt\n');
    symlinkSync(join(outside, 'x.prompt.md'), join(ws.dir, 'link.prompt.md'));
    const before = fake.calls.length;
    for (const file of [join(outside, 'x.prompt.md'), join(ws.dir, 'link.prompt.md'), '../../etc/passwd', `file://${outside}/x.prompt.md`]) {
      const r = await s.call('judge_edit', { file, candidate: 'anything' });
      expect(r.isError, file).toBe(true);
      expect(textOf(r), file).toMatch(/is outside the folders this MCP server may use|does not exist/);
    }
    expect(fake.calls.length).toBe(before);
  });

  it('evaluate scores a split with its interval; explain_decision and the run resources say a decision in plain words', async () => {
    const ev = await s.call('evaluate', { file: ws.promptPath, split: 'test' });
    const score = ev.structuredContent as { n: number; mean: number; lo: number; hi: number; runId: string };
    expect(score.n).toBe(40);
    expect(score.lo).toBeLessThanOrEqual(score.mean);
    expect(score.hi).toBeGreaterThanOrEqual(score.mean);
    expect(journalSoFar(ws.dir, score.runId).find((e) => e.type === 'report/test')).toMatchObject({ split: 'test', n: 40 });

    const judgedRun = judged(await s.call('judge_edit', { file: ws.promptPath, candidate: withMarker('n1') })).runId;
    const list = (await s.call('list_runs', {})).structuredContent as { runs: { runId: string; kind: string }[] };
    const judge = list.runs.find((r) => r.runId === judgedRun)!;
    expect(judge.kind).toBe('judge');
    const ex = await s.call('explain_decision', { runId: judge.runId });
    expect(textOf(ex)).toMatch(/discordant pair/);
    const res = await s.client.readResource({ uri: `ratchet://runs/${judge.runId}/decisions/1` });
    const decision = JSON.parse((res.contents[0] as { text: string }).text) as { explanation: string; threshold: number };
    expect(decision.threshold).toBe(20);
    expect(decision.explanation).toBe((ex.structuredContent as { explanation: string }).explanation);
    const templates = await s.client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(['ratchet://runs/{runId}', 'ratchet://runs/{runId}/decisions/{n}']);
    const resources = await s.client.listResources();
    expect(resources.resources.map((r) => r.uri)).toContain(`ratchet://runs/${judge.runId}`);
    const run = JSON.parse(((await s.client.readResource({ uri: `ratchet://runs/${judge.runId}` })).contents[0] as { text: string }).text) as { kind: string; decisions: unknown[] };
    expect(run).toMatchObject({ kind: 'judge' });
    // Nothing of a dev item in a resource the agent may read.
    for (const item of ws.items) expect(JSON.stringify(run)).not.toContain(item.question);
  });

  it('no key reaches the agent: not in any result, not in an endpoint error that echoes it', async () => {
    const w = workspace(1);
    const wrong = await startFakeServer({ scenario: scenario(w, 1), apiKey: 'another-key' });
    const s2 = await openSession({ args: ['-w', w.dir], env: { OPENAI_BASE_URL: wrong.url, OPENAI_API_KEY: KEY } });
    try {
      const r = await s2.call('judge_edit', { file: w.promptPath, candidate: withMarker('better') });
      expect(r.isError).toBe(true);
      for (const text of [...s.seen, ...s2.seen]) expect(text).not.toContain(KEY);
      expect(s.seen.length).toBeGreaterThan(10);
    } finally {
      await s2.close();
      await wrong.close();
    }
  });
});

describe('gated runs started and followed from the agent', () => {
  it('start_run answers at once; run_status follows it live to its end; apply writes what the gate committed', async () => {
    const w = workspace(1);
    // The proposer's first edit is a real +0.3 gain; the rest re-draw items at the same accuracy.
    const fake = await startFakeServer({ scenario: scenarioFor(w, { seed: 1, gainAt: 1 }) });
    const s = await openSession({ args: ['-w', w.dir], env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'k' } });
    try {
      const started = await s.call('start_run', { file: w.promptPath, apply: true, budget: { candidates: 2 } });
      const { runId, kind, budget } = started.structuredContent as { runId: string; kind: string; budget: Record<string, number> };
      expect(kind).toBe('evolve');
      expect(budget).toEqual({ candidates: 2, calls: 200 });
      let status: { state: string; live: boolean; tested: number; commits: number; line: string } | undefined;
      const states = new Set<string>();
      const end = Date.now() + 120_000;
      for (;;) {
        status = (await s.call('run_status', { runId })).structuredContent as typeof status;
        states.add(status!.state);
        if (status!.state !== 'running' || Date.now() > end) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toMatchObject({ state: 'finished', live: true, tested: 2 });
      expect(status!.commits).toBeGreaterThanOrEqual(1);
      expect(readFileSync(w.promptPath, 'utf8')).toContain('Hint 1: read the question twice.');
      const listed = (await s.call('list_runs', {})).structuredContent as { runs: { runId: string; kind: string; status: string; commits: number }[] };
      expect(listed.runs.find((r) => r.runId === runId)).toMatchObject({ kind: 'evolve', status: 'finished', commits: status!.commits });
    } finally {
      await s.close();
      await fake.close();
    }
  }, 120_000);

  it('cancel_run stops a run this server started; its journal keeps what it did', async () => {
    const w = workspace(1);
    const fake = await startFakeServer({ scenario: scenarioFor(w, { seed: 1 }) });
    const s = await openSession({ args: ['-w', w.dir], env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'k' } });
    try {
      fake.inject({ kind: 'park', model: 'sim-proposer', times: Infinity });
      const { runId } = (await s.call('start_run', { file: w.promptPath })).structuredContent as { runId: string };
      await fake.untilParked(1);
      expect((await s.call('cancel_run', { runId })).structuredContent).toEqual({ runId, cancelled: true });
      // The journal's line is on disk a moment before it is durable and folded into the status: wait for the status.
      const end = Date.now() + 60_000;
      let state = '';
      while (state !== 'cancelled' && Date.now() < end) state = ((await s.call('run_status', { runId })).structuredContent as { state: string }).state;
      expect(state).toBe('cancelled');
      expect(journalSoFar(w.dir, runId).at(-1)?.type).toBe('run/cancelled');
      expect((await s.call('cancel_run', { runId })).structuredContent).toEqual({ runId, cancelled: false });
    } finally {
      fake.clearFaults();
      fake.releaseParked();
      await s.close();
      await fake.close();
    }
  });

  it("run_status reads a run the editor started from the editor's run daemon, live, without taking the editor's place", async () => {
    const w = workspace(1);
    const fake = await startFakeServer({ scenario: scenarioFor(w, { seed: 1 }) });
    // The editor's side: the language server, which starts the workspace's run daemon and attaches to it.
    const editor = await TestClient.start({ folders: [w.dir], settings: { provider: 'openai', trusted: true, baseURL: fake.url } });
    const s = await openSession({ args: ['-w', w.dir], env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'k' } });
    let runId = '';
    try {
      fake.inject({ kind: 'park', model: 'sim-proposer', times: Infinity });
      ({ runId } = await editor.conn.sendRequest(StartRunRequest, { uri: editor.uriOf(w.promptPath), kind: 'evolve' }));
      await fake.untilParked(1);
      const status = (await s.call('run_status', { runId })).structuredContent as { state: string; live: boolean; kind: string };
      expect(status).toMatchObject({ state: 'running', live: true, kind: 'evolve' });
      const listed = (await s.call('list_runs', {})).structuredContent as { runs: { runId: string; status: string }[] };
      expect(listed.runs.find((r) => r.runId === runId)?.status).toBe('running');
      // The editor is still the daemon's client: the run's statuses keep reaching it.
      const before = editor.runStatuses.length;
      await editor.conn.sendRequest(CancelRunRequest, { runId });
      await until('the editor to hear the run end', () => editor.runStatuses.slice(before).some((p) => p.status.runId === runId && p.status.state === 'cancelled'));
      // Over, the daemon no longer runs it: its journal says how it ended.
      await until('the run to leave the daemon', () => journalSoFar(w.dir, runId).at(-1)?.type === 'run/cancelled');
      const after = (await s.call('run_status', { runId })).structuredContent as { state: string; live: boolean };
      expect(after.state).toBe('cancelled');
    } finally {
      fake.clearFaults();
      fake.releaseParked();
      await s.close();
      await editor.stop();
      await fake.close();
      // The daemon would linger for the next run: it goes with the test.
      const owner = runId && existsSync(join(w.dir, '.ratchet', 'runs', runId, 'lock.json')) ? (JSON.parse(readFileSync(join(w.dir, '.ratchet', 'runs', runId, 'lock.json'), 'utf8')) as { pid: number }).pid : undefined;
      if (owner !== undefined) process.kill(owner, 'SIGKILL');
    }
  }, 120_000);

  it("a client's roots replace the folders the server was started on", async () => {
    const mine = workspace(1);
    const theirs = workspace(1);
    const fake = await startFakeServer({ scenario: scenario(theirs, 1) });
    const s = await openSession({ args: ['-w', mine.dir], env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'k' }, roots: [theirs.dir] });
    try {
      const refused = await s.call('evaluate', { file: mine.promptPath });
      expect(textOf(refused)).toMatch(/is outside the folders this MCP server may use/);
      const scored = await s.call('evaluate', { file: 'task.prompt.md', split: 'dev' });
      expect(scored.structuredContent).toMatchObject({ split: 'dev', n: 40 });
      expect(runIds(theirs.dir)).toHaveLength(1);
      expect(runIds(mine.dir)).toEqual([]);
    } finally {
      await s.close();
      await fake.close();
    }
  });
});

describe('false commits over seeded neutral candidates', () => {
  it('stay within the binomial band of PACE+ at α = 0.05', async () => {
    // Each neutral candidate re-draws every dev item at the file's accuracy, in a world seeded apart
    // (its own scenario seed, its own workspace and response cache): against the file's text an item
    // is a win with probability 0.24 and a loss with 0.24. PACE+ then commits with probability
    // p = 0.0285 (bands.ts, exact), at most α = 0.05 by its guarantee. More commits than the 1e-3
    // upper quantile of Bin(N, p) fails (and that band is inside α's).
    const N = 30;
    const spaces = Array.from({ length: N }, () => workspace(1));
    const fake = await startFakeServer({ scenario: scenario(spaces[0]!, 1) });
    const s = await openSession({ args: spaces.flatMap((w) => ['-w', w.dir]), env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'k' } });
    try {
      const verdicts: string[] = [];
      for (let i = 0; i < N; i++) {
        fake.setScenario(scenario(spaces[i]!, 100 + i));
        const r = await s.call('judge_edit', { file: spaces[i]!.promptPath, candidate: withMarker('n1') });
        expect(r.isError, textOf(r)).toBeFalsy();
        verdicts.push(judged(r).verdict);
      }
      const p = paceCommitProbability(40, 0.24, 0.24);
      expect(p).toBeLessThan(0.05);
      const commits = verdicts.filter((v) => v === 'commit').length;
      expect(commits).toBeLessThanOrEqual(binomialUpper(N, p));
      expect(binomialUpper(N, p)).toBeLessThanOrEqual(binomialUpper(N, 0.05));
      // Every test decided: none was cut short by its budget.
      expect(verdicts.filter((v) => v === 'undecided')).toEqual([]);
    } finally {
      await s.close();
      await fake.close();
    }
  }, 240_000);
});

describe('sampling when no endpoint is configured', () => {
  it("judges with the client's own model, priced at $0, and no call goes to an endpoint of its own", async () => {
    const w = workspace(1);
    const fake = await startFakeServer({ scenario: scenario(w, 1) });
    const counter = { calls: 0 };
    // No OPENAI_BASE_URL, no OPENAI_API_KEY: the server has no endpoint; the client's model is the fake.
    const s = await openSession({ args: ['-w', w.dir], env: {}, sampling: samplingVia(fake, counter) });
    try {
      const r = await s.call('judge_edit', { file: w.promptPath, candidate: withMarker('better') });
      const j = judged(r);
      expect(j.verdict, textOf(r)).toBe('commit');
      expect(j.cost.calls).toBe(counter.calls);
      expect(j.cost.calls).toBeGreaterThan(0);
      expect(j.cost.dollars).toBe(0);
      // Every call the fake saw came through the client's sampling handler.
      expect(fake.calls.length).toBe(counter.calls);
      const events: EngineEvent[] = journalSoFar(w.dir, j.runId);
      expect(events.find((e) => e.type === 'run/started')).toMatchObject({ info: { models: [{ role: 'agent', model: 'sim-agent' }] } });
    } finally {
      await s.close();
      await fake.close();
    }
  });

  it('without an endpoint or sampling, says how to give it one, before any call', async () => {
    const w = workspace(1);
    const s = await openSession({ args: ['-w', w.dir], env: {} });
    try {
      const r = await s.call('judge_edit', { file: w.promptPath, candidate: withMarker('better') });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/No model endpoint is configured for ratchet mcp and this MCP client does not offer sampling: set OPENAI_API_KEY/);
      expect(runIds(w.dir)).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('workspace code runs only when trusted', () => {
  it('refuses a command scorer without --trust, before it runs and before any call', async () => {
    const w = workspace(1);
    const marker = join(w.dir, 'scorer-ran');
    setScorer(w, `  type: command\n  command: "touch ${marker}; echo 1"`);
    const fake = await startFakeServer({ scenario: scenario(w, 1) });
    const s = await openSession({ args: ['-w', w.dir], env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'k' } });
    try {
      const r = await s.call('judge_edit', { file: w.promptPath, candidate: withMarker('better') });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/This run's command scorer executes code from the workspace, which is not trusted; trust the workspace \(Workspace Trust in the editor, or ratchet mcp --trust\)/);
      expect(fake.calls.length).toBe(0);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await s.close();
      await fake.close();
    }
  });
  it('refuses a module scorer in an evolve run without --trust, before the module is loaded', async () => {
    // Loading a module scorer runs its top level: the refusal must come before the import.
    const w = workspace(1);
    const marker = join(w.dir, 'scorer-imported');
    writeFileSync(join(w.dir, 'score.mjs'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport function score() { return 1; }\n`);
    setScorer(w, '  type: module\n  path: score.mjs');
    const fake = await startFakeServer({ scenario: scenario(w, 1) });
    const s = await openSession({ args: ['-w', w.dir], env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'k' } });
    try {
      const started = await s.call('start_run', { file: w.promptPath });
      let said = textOf(started);
      if (!started.isError) {
        const { runId } = started.structuredContent as { runId: string };
        await vi.waitFor(
          async () => {
            const status = await s.call('run_status', { runId });
            said = textOf(status);
            expect((status.structuredContent as { state: string }).state).not.toBe('running');
          },
          { timeout: 60_000, interval: 100 },
        );
      }
      expect(said).toMatch(/This run's module scorer executes code from the workspace, which is not trusted/);
      expect(existsSync(marker)).toBe(false);
      expect(fake.calls.length).toBe(0);
    } finally {
      await s.close();
      await fake.close();
    }
  }, 90_000);
});

describe('judging a program: its evaluator in the sandbox, only its EVOLVE-BLOCK regions changed', () => {
  // searchWorkspace.ts: step.mjs returns `rate`; its evaluator scores 40 instances by how close
  // rate is to 0.5 (each 0.8 better at 0.5 than at the file's 0.3), in the code search's sandbox.
  const edit = (rate: string) => PROGRAM.replace('const rate = 0.300;', `const rate = ${rate};`);

  it('commits a better program, rejects a worse one, refuses a change to the frozen code, and writes on commit', async () => {
    const w = searchWorkspace();
    const s = await openSession({ args: ['-w', w.dir, '--trust'], env: {} });
    try {
      const better = await s.call('judge_edit', { file: w.program, candidate: edit('0.500'), apply: true });
      expect(better.structuredContent, textOf(better)).toMatchObject({ verdict: 'commit', applied: 'applied', evidence: { unit: 'instance', devItems: 40, losses: 0, reason: 'evidence' } });
      expect(textOf(better)).toMatch(/instances/);
      expect(readFileSync(w.program, 'utf8')).toBe(edit('0.500'));
      const worse = await s.call('judge_edit', { file: w.program, candidate: edit('0.100').replace('0.300', '0.500') });
      expect(worse.structuredContent, textOf(worse)).toMatchObject({ verdict: 'reject' });
      const frozen = await s.call('judge_edit', { file: w.program, candidate: edit('0.500').replace('return rate;', 'return 0.5;').replace('const rate = 0.500;', 'const rate = 0.501;') });
      expect(textOf(frozen)).toMatch(/The candidate changes .*step\.mjs outside its EVOLVE-BLOCK regions/);
      const events = journalSoFar(w.dir, (better.structuredContent as { runId: string }).runId);
      expect(events[0]).toMatchObject({ type: 'run/started', info: { kind: 'judge' } });
      expect(events.find((e) => e.type === 'program/evaluated')).toMatchObject({ candidateId: 'c1', correct: true });
    } finally {
      await s.close();
    }
  });

  it('refuses to run the evaluator of an untrusted workspace', async () => {
    const w = searchWorkspace();
    const s = await openSession({ args: ['-w', w.dir], env: {} });
    try {
      const r = await s.call('judge_edit', { file: w.program, candidate: edit('0.500') });
      expect(textOf(r)).toMatch(/runs its evaluator, which is workspace code: trust the workspace first \(ratchet mcp --trust/);
      expect(runIds(w.dir)).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
