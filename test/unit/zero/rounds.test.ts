import { describe, expect, it } from 'vitest';
import type { ChatRequest, ChatResponse } from '../../../src/core/llm/types';
import type { LlmClient } from '../../../src/core/ports';
import { listTemplateVariables } from '../../../src/core/prompt/template';
import { DEFAULT_ZERO_SETTINGS, ZeroRounds } from '../../../src/core/zero/rounds';

const BODY = 'Answer the question.\nQ: {{q}}';

const ROUND_TASKS: Record<number, string[]> = {
  1: ['easy sky colour riddle', 'hard prime factor puzzle', 'mixed river crossing plan', 'mixed coin weighing trick', 'mixed clock angle sum', 'mixed train meeting time'],
  // The first repeats a round-1 task word for word; the rest are new.
  2: ['mixed river crossing plan', 'mixed garden fence length', 'mixed recipe scaling ratio', 'mixed ladder wall height', 'mixed paint mixing shade', 'mixed bus timetable gap'],
};

/**
 * A scripted endpoint: the Challenger writes the round's tasks (told apart by whether it has seen
 * round 1's kept tasks), the Solver echoes the task and its sample, the judge scores "easy" tasks 1,
 * "hard" ones 0 and the rest by sample parity, and the pairwise judge always answers "A".
 */
class ScriptedLlm implements LlmClient {
  readonly requests: ChatRequest[] = [];

  chat(req: ChatRequest): Promise<ChatResponse> {
    this.requests.push(req);
    return Promise.resolve({ text: this.answer(req), finishReason: 'stop', logprobs: undefined, usage: { promptTokens: 1, completionTokens: 1 }, model: `m-${req.role}` });
  }

  embed(): never {
    throw new Error('not used');
  }

  private answer(req: ChatRequest): string {
    const system = req.messages[0]?.role === 'system' ? req.messages[0].content : '';
    const all = req.messages.map((m) => m.content).join('\n');
    const tag = /ANSWER-[0-9a-f]+/.exec(system)?.[0];
    if (system.startsWith('You write test tasks')) {
      const round = all.includes('Round 1 tasks kept') ? 2 : 1;
      return ROUND_TASKS[round]!.map((t) => `<question>\n${t}\n</question>`).join('\n');
    }
    if (system.startsWith('You split a task')) return '<subtask>\nfirst part\n</subtask>\n<subtask>\nsecond part\n</subtask>';
    if (system.startsWith('You compose one complete answer')) return 'composed answer';
    if (system.startsWith('You score one response')) {
      const response = /solved (\S.*) #(\d+)/.exec(all);
      const task = response?.[1] ?? '';
      const score = task.startsWith('easy') ? 1 : task.startsWith('hard') ? 0 : Number(response?.[2] ?? 0) % 2;
      return `Rationale: scripted.\n${tag}: ${score}`;
    }
    if (system.startsWith('You judge which')) return `Rationale: always the first.\n${tag}: A`;
    if (req.role === 'challenger') return 'the challenger guesses';
    const task = /Q: (.*)/.exec(all)?.[1] ?? '';
    return req.messages.length > 1 ? `part of ${task}` : `solved ${task} #${req.sampleIndex ?? 0}`;
  }
}

function engine(llm: LlmClient, concurrency = 4): ZeroRounds {
  return new ZeroRounds({
    runId: 'r',
    llm,
    concurrency,
    now: () => 0,
    template: { file: 'x.prompt.md', text: BODY, firstLine: 1, syntax: 'mustache', variables: listTemplateVariables(BODY) },
    variables: ['q'],
    brief: {},
    settings: { ...DEFAULT_ZERO_SETTINGS, tasks: 6, keep: 3, samples: 4, seed: 7 },
    challengerModel: 'm-challenger',
  });
}

describe('zero-data rounds', () => {
  it('keeps the tasks with spread, never a held-out one, and tells the next round what was kept; a repeat of an earlier round is dropped', async () => {
    const llm = new ScriptedLlm();
    const rounds = engine(llm);
    const one = await rounds.round(1, BODY, new AbortController().signal);
    const kept = one.dev.map((t) => t.text);
    const heldOut = one.test.map((t) => t.text);
    expect(heldOut).toHaveLength(2);
    expect(kept.filter((t) => heldOut.includes(t))).toEqual([]);
    // Every answer to "easy" passes and to "hard" fails: no spread, never kept.
    expect(kept.every((t) => t.startsWith('mixed'))).toBe(true);
    expect(one.dev.every((t) => t.dispersion === 0.5 && t.difficulty === 0.5 && t.round === 1)).toBe(true);
    expect(one.event.kept.map((k) => k.text)).toEqual(kept);

    const two = await rounds.round(2, BODY, new AbortController().signal);
    expect(two.event.discarded.duplicate).toBe(1);
    expect([...two.dev, ...two.test].map((t) => t.text)).not.toContain('mixed river crossing plan');
    const writers = llm.requests.filter((r) => r.messages[0]?.content.startsWith('You write test tasks'));
    expect(writers).toHaveLength(2);
    for (const t of kept) expect(writers[1]!.messages[1]!.content).toContain(t);
  });

  it('measures the judge on both orders of each known-order pair, and shows the next round the pairs it got wrong', async () => {
    const llm = new ScriptedLlm();
    const rounds = engine(llm);
    const one = await rounds.round(1, BODY, new AbortController().signal);
    // Always "A": right with the better response first, wrong with it second — every pair splits.
    for (const r of one.event.reliability) expect(r).toMatchObject({ pairs: 2, split: 2, right: 0, wrong: 0, agreement: 0.5 });
    expect(one.event.exemplarsUsed).toEqual([]);
    expect(one.event.exemplars.map((e) => e.type).sort()).toEqual(['amplification', 'amplification', 'roleAsymmetry', 'roleAsymmetry']);

    const before = llm.requests.length;
    const two = await rounds.round(2, BODY, new AbortController().signal);
    expect(two.event.exemplarsUsed).toEqual(one.event.exemplars.map((e) => e.pairId));
    const pairCalls = llm.requests.slice(before).filter((r) => r.messages[0]?.content.startsWith('You judge which'));
    // Round 2 has five new tasks, one held out: two pairs, each judged in both orders.
    expect(pairCalls.length).toBe(4);
    for (const call of pairCalls) expect(call.messages[1]!.content).toContain('Worked example 4, judged wrongly before');
  });

  it('samples the Solver M times at a temperature above 0, each sample its own cache entry', async () => {
    const llm = new ScriptedLlm();
    await engine(llm).round(1, BODY, new AbortController().signal);
    const solver = llm.requests.filter((r) => r.role === 'agent' && r.messages.length === 1);
    expect(solver).toHaveLength(6 * 4);
    expect(solver.every((r) => (r.temperature ?? 0) > 0)).toBe(true);
    expect(new Set(solver.map((r) => `${r.messages[0]!.content}#${r.sampleIndex}`)).size).toBe(24);
  });

  it("hands the client at most the run's concurrency of calls at once, and decides as it would with any width", async () => {
    const parked = new ParkedLlm();
    const round = engine(parked, 3).round(1, BODY, new AbortController().signal);
    let settled = false;
    void round.finally(() => (settled = true));
    // Released a batch at a time: whatever the round has asked for by then is all it can have outstanding.
    while (!settled) {
      parked.releaseAll();
      await new Promise<void>((r) => setImmediate(r));
    }
    const narrow = await round;
    expect(parked.maxOutstanding).toBe(3);
    const wide = await engine(new ScriptedLlm(), 1000).round(1, BODY, new AbortController().signal);
    expect(narrow.event).toEqual(wide.event);
  });
});

/** The scripted endpoint, each call held until the test releases it: what the round has outstanding, counted. */
class ParkedLlm extends ScriptedLlm {
  private held: (() => void)[] = [];
  outstanding = 0;
  maxOutstanding = 0;

  override async chat(req: ChatRequest): Promise<ChatResponse> {
    this.outstanding++;
    this.maxOutstanding = Math.max(this.maxOutstanding, this.outstanding);
    await new Promise<void>((release) => this.held.push(release));
    this.outstanding--;
    return super.chat(req);
  }

  releaseAll(): void {
    for (const release of this.held.splice(0)) release();
  }
}
