// Suggest mode: while a committed edit waits for the user's Accept or Reject (minutes, or across a
// window reload), the cost every face shows is the one the run has spent, not the last cost/update
// before the test that produced the suggestion.
import { describe, expect, it } from 'vitest';
import { createScorer } from '../../../src/core/data/scorers/registry';
import { runEvolve } from '../../../src/core/evolve/loop';
import type { Metered } from '../../../src/core/evolve/loop';
import { ROLES } from '../../../src/core/llm/types';
import type { ChatRequest, ChatResponse, CostReport, Role } from '../../../src/core/llm/types';
import type { Ports } from '../../../src/core/ports';
import { SeededRandom } from '../../../src/core/random';
import type { EngineEvent } from '../../../src/core/journal/events';
import { loadRunInputs } from '../../../src/core/setup/spec';
import { memFiles } from '../data/fakeFiles';
import type { RunControl } from '../../../src/core/journal/control';

const ITEMS = 48;

function workspace() {
  const items = Array.from({ length: ITEMS }, (_, i) => JSON.stringify({ id: `q${i + 1}`, question: `question ${i + 1}`, expected: 7 }));
  return memFiles({
    '/w/task.prompt.md': 'Question: {{question}}\n',
    '/w/data/items.jsonl': `${items.join('\n')}\n`,
    '/w/task.ratchet.yaml': [
      'dataset: data/items.jsonl',
      'split: { feedback: 4, dev: 40, test: 4 }',
      'scorer:',
      '  type: numeric',
      'gate:',
      '  name: pace+',
      '  alpha: 0.05',
      'budget:',
      '  candidates: 1',
      'seed: 1',
      'mode: suggest',
      'concurrency: 4',
    ].join('\n'),
  });
}

/** The starting prompt gets every item wrong; the proposer's edit (with HINT) gets them right. */
class ScriptedLlm implements Metered {
  private readonly calls = new Map<Role, number>();

  async chat(req: ChatRequest): Promise<ChatResponse> {
    this.calls.set(req.role, (this.calls.get(req.role) ?? 0) + 1);
    const prompt = req.messages.map((m) => m.content).join('\n');
    const text = req.role === 'proposer' ? 'Reasoning: add a hint.\n\n```prompt\nHINT: the answer is 7.\nQuestion: {{question}}\n```\n' : prompt.includes('HINT') ? 'The answer is 7' : 'The answer is 0';
    return { text, finishReason: 'stop', logprobs: undefined, usage: { promptTokens: 10, completionTokens: 2 }, model: 'sim' };
  }

  async embed(): Promise<never> {
    throw new Error('not used');
  }

  cost(): CostReport {
    const report = {} as CostReport;
    for (const role of ROLES) {
      const calls = this.calls.get(role) ?? 0;
      report[role] = { calls, cachedCalls: 0, retries: 0, promptTokens: calls * 10, completionTokens: calls * 2, dollars: undefined };
    }
    return report;
  }

  totalCalls(): number {
    return [...this.calls.values()].reduce((a, b) => a + b, 0);
  }

  totalDollars(): undefined {
    return undefined;
  }
}

describe('a suggestion waiting for the user', () => {
  it('comes with the cost spent so far, not the cost before the test that produced it', async () => {
    const files = workspace();
    const inputs = await loadRunInputs(files, '/w/task.prompt.md');
    const llm = new ScriptedLlm();
    let t = 1_000;
    const ports: Ports = {
      llm,
      files,
      clock: { now: () => (t += 1), sleep: async () => undefined },
      random: new SeededRandom(1),
      log: { log: () => undefined },
      proc: { run: () => Promise.reject(new Error('not used')) },
    };
    const events: EngineEvent[] = [];
    let seenWhileWaiting: { llmCalls: number | undefined; spent: number } | undefined;
    const control: RunControl = {
      decide: async () => {
        // What the panel, the status bar and the Runs view have to show while the user decides.
        const last = events.findLast((e) => e.type === 'cost/update');
        seenWhileWaiting = { llmCalls: last?.type === 'cost/update' ? last.llmCalls : undefined, spent: llm.totalCalls() };
        return 'accept';
      },
      apply: async () => 'applied',
    };
    const result = await runEvolve(
      { runId: 'r1', spec: inputs.spec, prompt: inputs.prompt, template: inputs.template, splits: inputs.splits, scorer: await createScorer(inputs.spec.scorer!, { baseDir: inputs.spec.baseDir }), ports, meter: llm, control },
      async (e) => void events.push(e),
      new AbortController().signal,
    );

    expect(result).toMatchObject({ status: 'finished', commits: 1 });
    // Before the fix no cost/update had come yet: the panel said 0 calls while the user decided.
    expect(seenWhileWaiting!.spent).toBeGreaterThan(0);
    expect(seenWhileWaiting!.llmCalls).toBe(seenWhileWaiting!.spent);
    // One cost/update more, right after the suggestion; the events around it keep their order.
    // (The test split's per-item scores, both versions on every test item, come before its report.)
    const from = events.findIndex((e) => e.type === 'decision');
    const testItems = Array<string>(2 * inputs.splits.test.length).fill('item/evaluated');
    expect(events.slice(from).map((e) => e.type)).toEqual(['decision', 'suggestion', 'cost/update', 'edit/applied', 'cost/update', ...testItems, 'report/test', 'cost/update', 'run/finished']);
  });
});
