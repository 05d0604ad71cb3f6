// The fake server is the ground truth other tests and benches measure the engine against, so its
// simulation must do what its README promises: edits move accuracy by their declared size, the
// judge is as accurate and as biased as configured, the proposer walks its script.
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseAnswer } from '../../src/core/code/answers';
import { applyAnswer } from '../../src/core/code/patch';
import { agentVersion } from '../fixtures/fakeOpenAI/agent';
import { FaultQueue } from '../fixtures/fakeOpenAI/faults';
import { currentPrompt, respond, responsesOf, truthOf, verdictProbabilities } from '../fixtures/fakeOpenAI/roles';
import { normalizeScenario } from '../fixtures/fakeOpenAI/scenario';
import type { ScenarioInput } from '../fixtures/fakeOpenAI/scenario';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { FakeServer } from '../fixtures/fakeOpenAI/server';
import { tokenize } from '../fixtures/fakeOpenAI/tokens';
import { layerFor } from './llmHarness';

const N = 2000;
const manyItems = Array.from({ length: N }, (_, i) => ({ id: `i${i}`, question: `Question number ${i}?`, answer: i }));
const script: ScenarioInput = {
  seed: 11,
  items: manyItems,
  agent: { baseAccuracy: 0.6, effects: { bad: { kind: 'harm', delta: 0.15 } } },
  proposer: {
    edits: [
      { id: '1', text: 'Think step by step.', effect: { kind: 'gain', delta: 0.2 } },
      { id: '2', text: 'Be concise.', effect: { kind: 'neutral', churn: 0.5 } },
    ],
  },
};
const scenario = normalizeScenario(script);
const accuracyOn = (prompt: string) => {
  const v = agentVersion(scenario, prompt);
  return manyItems.filter((it) => v.correct(it.id)).length / N;
};
// Binomial standard error at p≈0.6, n=2000 is 0.011; bands of ±0.045 are 4 SE.
const BAND = 0.045;

describe('agent simulation (in-process)', () => {
  const base = 'Answer the question.';
  const gained = `${base}\n\n<!-- edit:1 -->\nThink step by step.`;

  it('matches the base accuracy, and a gain edit adds its delta by only turning wrong items right', () => {
    expect(Math.abs(accuracyOn(base) - 0.6)).toBeLessThan(BAND);
    expect(Math.abs(accuracyOn(gained) - accuracyOn(base) - 0.2)).toBeLessThan(BAND);
    const b = agentVersion(scenario, base);
    const g = agentVersion(scenario, gained);
    expect(manyItems.some((it) => b.correct(it.id) && !g.correct(it.id))).toBe(false);
    expect(g.accuracy).toBeCloseTo(0.8, 12);
  });

  it('a harm edit removes its delta by only turning right items wrong', () => {
    const harmed = `${base}\n<!-- edit:bad -->`;
    expect(Math.abs(accuracyOn(base) - accuracyOn(harmed) - 0.15)).toBeLessThan(BAND);
    const b = agentVersion(scenario, base);
    const h = agentVersion(scenario, harmed);
    expect(manyItems.some((it) => !b.correct(it.id) && h.correct(it.id))).toBe(false);
  });

  it('a neutral edit keeps the mean but changes which items are right', () => {
    const churned = `${base}\n<!-- edit:2 -->`;
    expect(Math.abs(accuracyOn(churned) - accuracyOn(base))).toBeLessThan(BAND);
    const b = agentVersion(scenario, base);
    const c = agentVersion(scenario, churned);
    const changed = manyItems.filter((it) => b.correct(it.id) !== c.correct(it.id)).length / N;
    // Half the items re-drawn at 0.6: P(changed) = 0.5 · 2 · 0.6 · 0.4 = 0.24.
    expect(Math.abs(changed - 0.24)).toBeLessThan(BAND);
  });

  it('depends on which markers are present, not on their order or on unknown markers', () => {
    const one = agentVersion(scenario, '<!-- edit:1 -->\n<!-- edit:2 -->');
    const other = agentVersion(scenario, 'x <!-- edit:2 --> y <!-- edit:1 --> <!-- edit:zzz -->');
    expect(other.key).toBe(one.key);
    expect(manyItems.every((it) => one.correct(it.id) === other.correct(it.id))).toBe(true);
  });
});

describe('validator simulation (in-process)', () => {
  const s = normalizeScenario({ items: [{ id: 'q', question: 'What is six times seven?', answer: 42 }], validator: { accuracy: 0.8, positionBias: 0.1 } });

  it('knows the better response from the item, else from the prompt versions', () => {
    const text = (a: string, b: string) => `What is six times seven?\n<response_a>${a}</response_a>\n<response_b>${b}</response_b>`;
    const judge = (a: string, b: string) => truthOf(s, text(a, b), responsesOf(text(a, b))!);
    expect(judge('The answer is 41', 'The answer is 42')).toBe('B');
    expect(judge('The answer is 42', 'so 40')).toBe('A');
    expect(judge('42', '42')).toBe('tie');
    const prompts = normalizeScenario({ proposer: { edits: [{ id: 'g', text: 'x', effect: { kind: 'gain', delta: 0.1 } }] } });
    const p = '<response_a>plain</response_a><response_b>plain\n<!-- edit:g --></response_b>';
    expect(truthOf(prompts, p, responsesOf(p)!)).toBe('B');
  });

  it('reads headed sections too', () => {
    expect(responsesOf('Compare.\nResponse A:\nfirst\nResponse B:\nsecond')).toEqual({ a: 'first', b: 'second' });
  });

  it('has the configured accuracy and position bias', () => {
    const p = verdictProbabilities(s, 'B');
    expect(p.A).toBeCloseTo(0.1 + 0.9 * 0.2, 12);
    expect(p.B).toBeCloseTo(0.9 * 0.8, 12);
    expect(p.tie).toBe(0);
    expect(verdictProbabilities(s, 'tie').tie).toBeCloseTo(0.9, 12);
  });
});

describe('proposer simulation (in-process)', () => {
  it('finds the current prompt in a fenced block, a tag, or the last user message', () => {
    expect(currentPrompt([{ role: 'user', content: 'Improve:\n```prompt\nBe kind.\n```\nThanks' }])).toBe('Be kind.');
    expect(currentPrompt([{ role: 'user', content: '<current_prompt>\nBe kind.\n</current_prompt>' }])).toBe('Be kind.');
    expect(currentPrompt([{ role: 'user', content: 'Be kind.' }])).toBe('Be kind.');
  });

  // What the code-search proposer answers, applied to the program the way the search applies it.
  const JS = ['export const N = 3;', '// EVOLVE-BLOCK-START', 'const step = 0.50;', '// EVOLVE-BLOCK-END', 'export const run = () => step * N;', ''].join('\n');
  const PY = ['def run():', '    # EVOLVE-BLOCK-START', '    step = 0.50', '    # EVOLVE-BLOCK-END', '    return step', ''].join('\n');
  const propose = (edits: 'nudge' | 'neutral', program: string, format: 'diff' | 'full', seed: number): string => {
    const system = format === 'diff' ? 'Only the EVOLVE-BLOCK regions may change. Answer with <DIFF> blocks.' : 'Only the EVOLVE-BLOCK regions may change. Answer with <CODE>.';
    const out = respond(
      'proposer',
      normalizeScenario({ code: { edits } }),
      {
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: `Current program:\n\n\`\`\`\n${program}\n\`\`\`` },
        ],
        seed,
      },
      { metaCalls: 0, challengerCalls: 0 },
    );
    const parsed = parseAnswer(out.text);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const applied = applyAnswer(program, parsed.answer);
    if (!applied.ok) throw new Error(applied.error.message);
    return applied.text;
  };
  const code = (text: string) =>
    text
      .split('\n')
      .filter((l) => !/^\s*(\/\/|#)/.test(l))
      .join('\n');

  it.each(['diff', 'full'] as const)('code: a nudge moves the one literal in the block by at most a fifth (%s)', (format) => {
    for (const seed of [1, 2, 3]) {
      const child = propose('nudge', JS, format, seed);
      const step = Number(/const step = ([\d.]+);/.exec(child)![1]);
      expect(step).not.toBe(0.5);
      expect(Math.abs(step / 0.5 - 1)).toBeLessThanOrEqual(0.2);
      expect(child.replace(/const step = [\d.]+;/, '')).toBe(JS.replace('const step = 0.50;', ''));
    }
  });

  it.each(['diff', 'full'] as const)("code: a neutral edit changes one comment line in the marker's syntax, a new one each time (%s)", (format) => {
    for (const program of [JS, PY]) {
      const child = propose('neutral', program, format, 1);
      const grandchild = propose('neutral', child, format, 2);
      expect(new Set([program, child, grandchild]).size).toBe(3);
      expect(code(child)).toBe(code(program));
      expect(code(grandchild)).toBe(code(program));
      // The second edit rewrites the note the first one left instead of adding another.
      expect(grandchild.split('\n')).toHaveLength(program.split('\n').length + 1);
    }
    expect(propose('neutral', PY, format, 1)).toMatch(/^ {4}# EVOLVE-BLOCK-START\n {4}# neutral note \d+\n {4}step = 0\.50$/m);
  });
});

describe('probabilistic faults (in-process)', () => {
  const bodies = Array.from({ length: N }, (_, i) => JSON.stringify({ model: 'sim-agent', n: i }));
  const struck = (q: FaultQueue) => bodies.map((b) => q.take('/v1/chat/completions', 'sim-agent', b) !== undefined);

  it('strikes about `rate` of the requests, the same ones on a rerun, and a retried request draws afresh', () => {
    const queue = () => {
      const q = new FaultQueue();
      q.push({ kind: 'status', status: 429, retryAfterMs: 1, rate: 0.5, times: Infinity });
      return q;
    };
    const q = queue();
    const first = struck(q);
    // Binomial standard error at p = 0.5, n = 2000 is 0.011; ±0.045 is 4 SE.
    expect(Math.abs(first.filter(Boolean).length / N - 0.5)).toBeLessThan(BAND);
    expect(struck(queue())).toEqual(first);
    const again = struck(q);
    expect(again).not.toEqual(first);
    expect(q.size).toBe(1);
  });

  it('lets requests a rate fault spares fall through to the next fault; counts `times` only on strikes', () => {
    const q = new FaultQueue();
    q.push({ kind: 'hang', rate: 0.1, times: 3, seed: 4 });
    q.push({ kind: 'malformed', times: Infinity });
    const kinds = bodies.slice(0, 200).map((b) => q.take('/v1/chat/completions', 'sim-agent', b)?.kind);
    expect(kinds.filter((k) => k === 'hang')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'malformed')).toHaveLength(197);
  });

  it('refuses a rate outside (0, 1]', () => {
    expect(() => new FaultQueue().push({ kind: 'reset', rate: 0 })).toThrow(/\(0, 1\]/);
    expect(() => new FaultQueue().push({ kind: 'reset', rate: 1.5 })).toThrow(/\(0, 1\]/);
  });
});

describe('over HTTP, through the real SDK', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer({ scenario: script });
  });
  afterEach(() => {
    server.setScenario(script);
    server.resetStats();
  });
  afterAll(async () => {
    await server.close();
  });

  it('the agent answers exactly what agentVersion predicts', async () => {
    const llm = layerFor(server.url, { concurrency: 8 });
    const prompt = 'Answer.\n\n<!-- edit:1 -->\nThink step by step.';
    const v = agentVersion(scenario, prompt);
    const sample = manyItems.slice(0, 60);
    const answers = await Promise.all(
      sample.map((it) =>
        llm.chat({
          role: 'agent',
          messages: [
            { role: 'system', content: prompt },
            { role: 'user', content: it.question },
          ],
        }),
      ),
    );
    const right = answers.map((a, i) => a.text.endsWith(`The answer is ${sample[i]!.answer}`));
    expect(right).toEqual(sample.map((it) => v.correct(it.id)));
    expect(right.some((r) => !r)).toBe(true);
    expect(server.calls.map((c) => c.item).sort()).toEqual(sample.map((it) => it.id).sort());
  });

  it('with noise, samples vary by seed but repeat for the same seed', async () => {
    server.setScenario({ ...script, agent: { ...script.agent, baseAccuracy: 0.5, noise: 1 } });
    const llm = layerFor(server.url);
    const ask = (seed: number) => llm.chat({ role: 'agent', seed, messages: [{ role: 'user', content: manyItems[3]!.question }] });
    const texts = await Promise.all(Array.from({ length: 40 }, (_, seed) => ask(seed).then((r) => r.text)));
    const right = texts.filter((t) => t.endsWith('The answer is 3')).length;
    expect(right).toBeGreaterThan(8);
    expect(right).toBeLessThan(32);
    expect((await ask(5)).text).toBe(texts[5]);
  });

  it('the proposer walks its script, one marked edit per call, then stops', async () => {
    const llm = layerFor(server.url);
    let prompt = 'Answer the question.';
    const reasons: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await llm.chat({ role: 'proposer', messages: [{ role: 'user', content: `Improve this prompt.\n\n\`\`\`prompt\n${prompt}\n\`\`\`` }] });
      const m = /^Reasoning: (.*)\n\n```prompt\n([\s\S]*)\n```$/.exec(res.text);
      expect(m).not.toBeNull();
      reasons.push(m![1]!);
      prompt = m![2]!;
    }
    expect(prompt).toBe('Answer the question.\n\n<!-- edit:1 -->\nThink step by step.\n\n<!-- edit:2 -->\nBe concise.');
    expect(reasons[2]).toMatch(/No further edits/);
  });

  it('the validator is as accurate as configured, with logprobs for its verdict', async () => {
    server.setScenario({ ...script, validator: { accuracy: 0.8, positionBias: 0 } });
    const llm = layerFor(server.url, { concurrency: 8 });
    const n = 300;
    const verdicts = await Promise.all(
      manyItems.slice(0, n).map((it, i) => {
        const right = `The answer is ${it.answer}`;
        const wrong = `The answer is ${it.answer + 1}`;
        const [a, b] = i % 2 === 0 ? [right, wrong] : [wrong, right];
        const content = `${it.question}\n<response_a>${a}</response_a>\n<response_b>${b}</response_b>`;
        return llm.chat({ role: 'validator', logprobs: true, topLogprobs: 3, messages: [{ role: 'user', content }] }).then((r) => ({ r, better: i % 2 === 0 ? 'A' : 'B' }));
      }),
    );
    const correct = verdicts.filter(({ r, better }) => r.text.startsWith(`Verdict: ${better}\n`)).length / n;
    // Binomial SE at 0.8, n=300 is 0.023; ±0.09 is 4 SE.
    expect(Math.abs(correct - 0.8)).toBeLessThan(0.09);
    const { r } = verdicts[0]!;
    expect(r.text).toMatch(/^Verdict: (A|B|tie)\nRationale: /);
    const verdictToken = r.logprobs![2]!;
    expect(verdictToken.top!.map((t) => t.token).sort()).toEqual([' A', ' B', ' tie']);
    expect(verdictToken.top![0]!.logprob).toBeCloseTo(Math.log(0.8), 3);
  });

  it('a fully position-biased validator always says A', async () => {
    server.setScenario({ ...script, validator: { positionBias: 1 } });
    const llm = layerFor(server.url);
    const texts = await Promise.all([0, 1, 2, 3, 4].map((i) => llm.chat({ role: 'validator', messages: [{ role: 'user', content: `${manyItems[i]!.question}\nResponse A:\nThe answer is -1\nResponse B:\nThe answer is ${i}` }] })));
    expect(texts.map((t) => t.text.split('\n')[0])).toEqual(Array(5).fill('Verdict: A'));
  });

  it('the challenger writes tasks the agent can solve, and meta cycles its rubrics', async () => {
    server.setScenario({ ...script, agent: { baseAccuracy: 1 } });
    const llm = layerFor(server.url);
    const res = await llm.chat({ role: 'challenger', messages: [{ role: 'user', content: 'Write 3 tasks.' }] });
    const block = /```jsonl\n([\s\S]*)\n```/.exec(res.text)![1]!;
    const tasks = block.split('\n').map((l) => JSON.parse(l) as { question: string; answer: number });
    expect(tasks).toHaveLength(3);
    for (const t of tasks) {
      const a = await llm.chat({ role: 'agent', messages: [{ role: 'user', content: t.question }] });
      expect(a.text).toMatch(new RegExp(`The answer is ${t.answer}$`));
    }
    const rubrics = await Promise.all([0, 1, 2].map((i) => llm.chat({ role: 'meta', messages: [{ role: 'user', content: `rubric ${i}` }] })));
    expect(new Set(rubrics.map((r) => /```rubric\n([\s\S]*)\n```/.exec(r.text)![1])).size).toBe(2);
  });

  it('streams the same answer as SSE, honours max_tokens, lists models and decodes base64 embeddings', async () => {
    const sdk = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
    const messages = [{ role: 'user' as const, content: manyItems[0]!.question }];
    const whole = await sdk.chat.completions.create({ model: 'sim-agent', messages });
    const stream = await sdk.chat.completions.create({ model: 'sim-agent', messages, stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(whole.choices[0]!.message.content);
    expect(usage).toEqual(whole.usage);

    const cut = await sdk.chat.completions.create({ model: 'sim-agent', messages, max_tokens: 3 });
    expect(cut.choices[0]!.finish_reason).toBe('length');
    expect(tokenize(cut.choices[0]!.message.content!)).toHaveLength(3);

    expect((await sdk.models.list()).data.map((m) => m.id)).toContain('sim-validator');

    const b64 = await sdk.embeddings.create({ model: 'e', input: 'hello' });
    const floats = await sdk.embeddings.create({ model: 'e', input: 'hello', encoding_format: 'float' });
    b64.data[0]!.embedding.forEach((x, i) => expect(x).toBeCloseTo(floats.data[0]!.embedding[i]!, 6));
  });
});
