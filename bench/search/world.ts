// The scripted world of bench/search: a program whose quality lives in its text (`const q = <k>`,
// tenths of 0.05), a proposer that answers at once in ShinkaEvolve's diff format with a new edit
// number and a quality step, and the run spec every cell starts from.
import { CODE_DEFAULTS } from '../../src/core/code/spec';
import type { CodeRunSpec } from '../../src/core/code/spec';
import type { LlmClient } from '../../src/core/ports';
import { hashSeed } from '../../src/core/random';
import { DEFAULTS } from '../../src/core/run/specTypes';

export const SEED = ['export function solve() {', '  // EVOLVE-BLOCK-START', '  const q = 0; // edit 0', '  // EVOLVE-BLOCK-END', '  return q;', '}', ''].join('\n');

/** Proposes, from the parent's text, an edit (a new edit number) that raises the quality by `step` × 0.05 (0: neutral). */
export function scriptedProposer(step: number, seed: number): LlmClient {
  let n = 0;
  return {
    async chat(req) {
      const user = req.messages[1]!.content;
      const parent = /```\n([\s\S]*?)\n```/.exec(user)![1]!;
      const line = parent.split('\n').find((l) => l.includes('const q'))!;
      const q = Number(/const q = (-?\d+)/.exec(line)![1]);
      n++;
      const next = `  const q = ${q + step}; // edit ${hashSeed(seed, n) % 100000}`;
      const text = `<NAME>edit</NAME>\n<DESCRIPTION>try</DESCRIPTION>\n<DIFF>\n<<<<<<< SEARCH\n${line}\n=======\n${next}\n>>>>>>> REPLACE\n</DIFF>`;
      return { text, finishReason: 'stop', logprobs: undefined, usage: { promptTokens: 0, completionTokens: 0 }, model: 'bench' } as Awaited<ReturnType<LlmClient['chat']>>;
    },
    async embed() {
      throw new Error('no embeddings');
    },
  };
}

export function benchSpec(gate: 'pace+' | 'greedy', proposals: number, seed: number): CodeRunSpec {
  return {
    kind: 'code',
    programPath: 'solve.mjs',
    sources: [],
    baseDir: '.',
    evaluator: { ...CODE_DEFAULTS.evaluator, supportFiles: [], scoreRange: { lo: 0, hi: 1 }, env: [], limits: { ...CODE_DEFAULTS.evaluator.limits } },
    gate: { ...DEFAULTS.gate, lambdas: [...DEFAULTS.gate.lambdas], name: gate, horizon: proposals },
    budget: { proposals },
    models: { agent: {}, proposer: {}, validator: {}, meta: {}, challenger: {} },
    islands: 1,
    search: { ...CODE_DEFAULTS.search, mix: { diff: 1, full: 0, cross: 0 }, parentSelection: 'beam' },
    seed,
    concurrency: 2,
    callTimeoutSeconds: 60,
    origin: {},
  };
}
