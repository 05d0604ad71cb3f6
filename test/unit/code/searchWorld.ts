// The code-search world of the in-process search tests: a program whose one constant x decides
// its quality, an evaluator scoring it on 30 noisy instances (fresh noise per evaluation), and a
// proposer answering in ShinkaEvolve's formats that moves x (or, neutral, only renames a comment).
import type { ProgramEvaluator } from '../../../src/core/code/search';
import { CODE_DEFAULTS } from '../../../src/core/code/spec';
import type { CodeRunSpec } from '../../../src/core/code/spec';
import { DEFAULTS } from '../../../src/core/run/specTypes';
import type { LlmClient } from '../../../src/core/ports';
import type { ChatRequest } from '../../../src/core/llm/types';
import { hashSeed, SeededRandom } from '../../../src/core/random';

export const SEED_PROGRAM = [
  '// Frozen: the harness calls solve().',
  'export function solve() {',
  '  // EVOLVE-BLOCK-START',
  '  const x = 0.10; // v0',
  '  // EVOLVE-BLOCK-END',
  '  return x;',
  '}',
  '',
].join('\n');

export const INSTANCES = Array.from({ length: 30 }, (_, i) => `inst-${i + 1}`);
export const constantOf = (text: string): number => Number(/const x = ([\d.-]+)/.exec(text)![1]);

/** Scores near 1 − |x − 0.8| per instance with fresh noise per evaluation: a program's score is noisy. */
export function evaluator(seed: number): { evaluate: ProgramEvaluator; runs: () => number } {
  let runs = 0;
  const evaluate: ProgramEvaluator = async (text, ids) => {
    runs++;
    const r = new SeededRandom(hashSeed(seed, text, runs));
    const x = constantOf(text);
    const instances: Record<string, number> = {};
    for (const id of ids ?? INSTANCES) instances[id] = Math.min(1, Math.max(0, 0.9 - Math.abs(x - 0.8) + 0.3 * (r.next() - 0.5)));
    const scores = Object.values(instances);
    return { correct: true, score: scores.reduce((a, b) => a + b, 0) / scores.length, instances };
  };
  return { evaluate, runs: () => runs };
}

/** A proposer: moves x by a random step (or, neutral, only renames the comment), in the format the system prompt asks. */
export function proposer(seed: number, neutral: boolean, firstAnswerBroken = false): LlmClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  let n = 0;
  return {
    requests,
    async chat(req) {
      requests.push(req);
      if (req.role === 'meta') return { text: 'Larger x helped.\n- move x up\n- keep the steps small', finishReason: 'stop', logprobs: undefined, usage: { promptTokens: 10, completionTokens: 10 }, model: 'fake' } as Awaited<ReturnType<LlmClient['chat']>>;
      const user = req.messages[1]!.content;
      const parent = /```\n([\s\S]*?)\n```/.exec(user)![1]!;
      const line = parent.split('\n').find((l) => l.includes('const x'))!;
      const r = new SeededRandom(hashSeed(seed, n++));
      const x = constantOf(line);
      const next = neutral ? line.replace(/v\d+/, `v${n}`) : line.replace(String(constantOf(line).toFixed(2)), (x + (r.next() < 0.6 ? 1 : -1) * (0.05 + 0.3 * r.next())).toFixed(2));
      const retry = req.messages.length > 2;
      const search = firstAnswerBroken && !retry ? line.replace('const', 'let') : line;
      const wantsCode = req.messages[0]!.content.includes('<CODE>');
      const text = wantsCode
        ? `<NAME>move</NAME>\n<DESCRIPTION>change x</DESCRIPTION>\n<CODE>\n\`\`\`js\n${parent.replace(line, next)}\n\`\`\`\n</CODE>`
        : `<NAME>move</NAME>\n<DESCRIPTION>change x</DESCRIPTION>\n<DIFF>\n<<<<<<< SEARCH\n${search}\n=======\n${next}\n>>>>>>> REPLACE\n</DIFF>`;
      return { text, finishReason: 'stop', logprobs: undefined, usage: { promptTokens: 10, completionTokens: 10 }, model: 'fake' } as Awaited<ReturnType<LlmClient['chat']>>;
    },
    async embed() {
      throw new Error('no embeddings here');
    },
  };
}

export function spec(gate: 'pace+' | 'greedy', proposals: number): CodeRunSpec {
  return {
    kind: 'code',
    programPath: 'solve.mjs',
    sources: [],
    baseDir: '/ws',
    evaluator: { ...CODE_DEFAULTS.evaluator, supportFiles: [], scoreRange: { lo: 0, hi: 1 }, env: [], limits: { ...CODE_DEFAULTS.evaluator.limits } },
    gate: { ...DEFAULTS.gate, lambdas: [...DEFAULTS.gate.lambdas], name: gate, horizon: proposals },
    budget: { proposals },
    models: { agent: {}, proposer: {}, validator: {}, meta: {}, challenger: {} },
    islands: 2,
    search: { ...CODE_DEFAULTS.search, mix: { ...CODE_DEFAULTS.search.mix } },
    seed: 1,
    concurrency: 2,
    callTimeoutSeconds: 60,
    origin: {},
  };
}
