// The code-search world of the in-process search tests: a program whose one constant x decides
// its quality, an evaluator scoring it on 30 noisy instances (fresh noise per evaluation), and a
// proposer answering in ShinkaEvolve's formats that moves x (or, neutral, only renames a comment),
// and a validator comparing two programs by the x each one's diff sets.
import type { ProgramEvaluator } from '../../../src/core/code/search';
import { runSearch } from '../../../src/core/code/search';
import type { EngineEvent } from '../../../src/core/journal/events';
import { CODE_DEFAULTS } from '../../../src/core/code/spec';
import type { CodeRunSpec, ParentSelection } from '../../../src/core/code/spec';
import type { CodeGateName } from '../../../src/core/code/gate';
import { DEFAULTS } from '../../../src/core/run/specTypes';
import type { LlmClient } from '../../../src/core/ports';
import type { ChatRequest } from '../../../src/core/llm/types';
import { hashSeed, SeededRandom } from '../../../src/core/random';

export const SEED_PROGRAM = ['// Frozen: the harness calls solve().', 'export function solve() {', '  // EVOLVE-BLOCK-START', '  const x = 0.10; // v0', '  // EVOLVE-BLOCK-END', '  return x;', '}', ''].join('\n');

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

/**
 * Which of two constants the validator prefers: 'truthful' the one nearer 0.8 (the better program),
 * 'contrarian' the smaller (so its verdicts rank programs against their scores).
 */
export type Judging = 'truthful' | 'contrarian';

/**
 * The validator's answer to gate pairwise's comparison: each program's x read from its diff against
 * the incumbent — the `+` line, or for the incumbent itself (an empty diff) the other side's `-` line.
 */
function judgePrograms(req: ChatRequest, judging: Judging): string {
  const hex = /DATA-([0-9a-f]{12})/.exec(req.messages[0]!.content)![1]!;
  const user = req.messages[1]!.content;
  const diff = (slot: 'A' | 'B') => new RegExp(`<<<DATA-${hex} program ${slot} diff>>>\\n([\\s\\S]*?)\\n?<<<END DATA-${hex}>>>`).exec(user)![1]!;
  const x = (mine: string, other: string) => constantOf((/^\+.*const x = .*$/m.exec(mine) ?? /^-.*const x = .*$/m.exec(other))![0]);
  const [a, b] = [x(diff('A'), diff('B')), x(diff('B'), diff('A'))];
  const better = judging === 'truthful' ? Math.abs(b - 0.8) - Math.abs(a - 0.8) : b - a;
  const verdict = better > 0 ? 'A' : better < 0 ? 'B' : 'tie';
  return `Rationale: program ${verdict} sets the better constant.\nANSWER-${hex}: ${verdict}`;
}

/** A proposer: moves x by a random step (or, neutral, only renames the comment), in the format the system prompt asks; also the validator. */
export function proposer(seed: number, neutral: boolean, firstAnswerBroken = false, judging: Judging = 'truthful'): LlmClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  let n = 0;
  return {
    requests,
    async chat(req) {
      requests.push(req);
      if (req.role === 'validator') return { text: judgePrograms(req, judging), finishReason: 'stop', logprobs: undefined, usage: { promptTokens: 10, completionTokens: 10 }, model: 'fake' } as Awaited<ReturnType<LlmClient['chat']>>;
      if (req.role === 'meta')
        return { text: 'Larger x helped.\n- move x up\n- keep the steps small', finishReason: 'stop', logprobs: undefined, usage: { promptTokens: 10, completionTokens: 10 }, model: 'fake' } as Awaited<ReturnType<LlmClient['chat']>>;
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

export function spec(gate: CodeGateName, proposals: number, parentSelection: ParentSelection = CODE_DEFAULTS.search.parentSelection): CodeRunSpec {
  return {
    kind: 'code',
    programPath: 'solve.mjs',
    sources: [],
    baseDir: '/ws',
    evaluator: { ...CODE_DEFAULTS.evaluator, supportFiles: [], scoreRange: { lo: 0, hi: 1 }, env: [], limits: { ...CODE_DEFAULTS.evaluator.limits } },
    gate: { ...DEFAULTS.gate, schedule: CODE_DEFAULTS.schedule, lambdas: [...DEFAULTS.gate.lambdas], name: gate, horizon: proposals },
    budget: { proposals },
    models: { agent: {}, proposer: {}, validator: {}, meta: {}, challenger: {} },
    islands: 2,
    search: { ...CODE_DEFAULTS.search, mix: { ...CODE_DEFAULTS.search.mix }, parentSelection },
    seed: 1,
    concurrency: 2,
    callTimeoutSeconds: 60,
    origin: {},
  };
}

/**
 * The events of a whole in-process search on two islands with frequent ring migration (every 2
 * generations, half the island), for the tests of what the panel folds and draws from a search.
 */
export async function migratingSearchEvents(seed: number, proposals: number, broken = false): Promise<EngineEvent[]> {
  const events: EngineEvent[] = [];
  const s = spec('pace+', proposals);
  await runSearch({
    spec: { ...s, islands: 2, search: { ...s.search, migrationInterval: 2, migrationRate: 0.5 } },
    seedText: SEED_PROGRAM,
    llm: proposer(seed, false, broken),
    evaluate: evaluator(seed).evaluate,
    random: new SeededRandom(seed),
    emit: async (e) => void events.push({ ...e, runId: 'r', at: events.length } as EngineEvent),
    signal: new AbortController().signal,
  });
  return events;
}
