// A throwaway workspace for evolve runs against the fake server: a prompt file, its sidecar spec
// and a dataset of arithmetic items the simulated agent answers, plus the matching scenario.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScenarioInput, ScriptedEdit } from '../fixtures/fakeOpenAI/scenario';
import { SCRATCH_VARIABLE, memoryOrTmp } from './scratchSetup';

export interface WorkspaceOptions {
  gate?: string;
  candidates?: number;
  seed?: number;
  /** Items in the dataset; split 10 feedback / 40 dev / rest test by default. */
  items?: number;
  labels?: boolean;
  mode?: 'suggest' | 'autopilot';
  split?: Record<string, number>;
  /** Extra lines under `gate:` (two-space indented), e.g. `focus: { refreshEvery: 2 }`. */
  gateLines?: string[];
  /** Extra top-level spec lines, e.g. `merge: true`. */
  extraTopLines?: string[];
  /** Extra lines under `budget:` (two-space indented), e.g. `calls: 40`. */
  budgetLines?: string[];
  /** Extra members of every role's model mapping, e.g. `price: { input: 1, output: 2 }`. */
  modelExtra?: string;
}

export interface Workspace {
  dir: string;
  promptPath: string;
  items: { id: string; question: string; answer: number }[];
}

/**
 * Where throwaway workspaces go: the run's folder that scratchSetup.ts makes and removes (a RAM file
 * system when the machine has one), or that file system itself under a config without it.
 */
export const SCRATCH = process.env[SCRATCH_VARIABLE] ?? memoryOrTmp();

export const PROMPT_BODY = 'You solve arithmetic problems.\n\nQuestion: {{question}}\n\nEnd with "The answer is N".\n';

export function makeWorkspace(o: WorkspaceOptions = {}): Workspace {
  const dir = mkdtempSync(join(SCRATCH, 'ratchet-evolve-'));
  const n = o.items ?? 90;
  const items = Array.from({ length: n }, (_, i) => ({ id: `q${i + 1}`, question: `What is ${100 + i} plus ${7 * i + 3}?`, answer: 100 + i + 7 * i + 3 }));
  mkdirSync(join(dir, 'data'));
  const labels = o.labels ?? true;
  writeFileSync(join(dir, 'data', 'items.jsonl'), items.map((it) => JSON.stringify(labels ? { id: it.id, question: it.question, expected: it.answer } : { id: it.id, question: it.question })).join('\n') + '\n');
  const promptPath = join(dir, 'task.prompt.md');
  writeFileSync(promptPath, `---\ndescription: arithmetic\n---\n${PROMPT_BODY}`);
  const split = o.split ?? { feedback: 10, dev: 40, test: n - 50 };
  const extra = o.modelExtra ? `, ${o.modelExtra}` : '';
  const spec = [
    'dataset: data/items.jsonl',
    `split: { ${Object.entries(split)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')} }`,
    ...(labels ? ['scorer:', '  type: numeric'] : []),
    'models:',
    `  agent: { model: sim-agent, temperature: 0${extra} }`,
    `  proposer: { model: sim-proposer${extra} }`,
    `  validator: { model: sim-validator${extra} }`,
    `  meta: { model: sim-meta${extra} }`,
    `  challenger: { model: sim-challenger${extra} }`,
    'gate:',
    `  name: ${o.gate ?? 'pace+'}`,
    '  alpha: 0.05',
    ...(o.gateLines ?? []).map((l) => `  ${l}`),
    'budget:',
    `  candidates: ${o.candidates ?? 10}`,
    ...(o.budgetLines ?? []).map((l) => `  ${l}`),
    `seed: ${o.seed ?? 1}`,
    `mode: ${o.mode ?? 'autopilot'}`,
    'concurrency: 8',
    ...(o.extraTopLines ?? []),
  ].join('\n');
  writeFileSync(join(dir, 'task.ratchet.yaml'), `${spec}\n`);
  return { dir, promptPath, items };
}

/** Ten scripted edits: neutral churn, except `gainAt` (1-based) which raises accuracy by `gain`. */
export function scenarioFor(ws: Workspace, opts: { seed: number; gainAt?: number; gain?: number; baseAccuracy?: number; validatorAccuracy?: number; gainReplaces?: string }): ScenarioInput {
  const edits: ScriptedEdit[] = Array.from({ length: 10 }, (_, i) => ({
    id: String(i + 1),
    text: `Hint ${i + 1}: read the question twice.`,
    effect: i + 1 === opts.gainAt ? { kind: 'gain', delta: opts.gain ?? 0.3 } : { kind: 'neutral', churn: 0.3 },
    // The gain edit may rewrite a line of the prompt rather than append (a change that removes as well as adds).
    ...(i + 1 === opts.gainAt && opts.gainReplaces !== undefined ? { replaces: opts.gainReplaces } : {}),
  }));
  return {
    seed: opts.seed,
    items: ws.items.map((it) => ({ id: it.id, question: it.question, answer: it.answer })),
    agent: { baseAccuracy: opts.baseAccuracy ?? 0.6, noise: 0 },
    proposer: { edits },
    validator: { accuracy: opts.validatorAccuracy ?? 0.8, positionBias: 0, tieRate: 1 },
    meta: { rubrics: ['Prefer the response whose final answer is correct.', 'Check the arithmetic of the final number.'] },
  };
}
