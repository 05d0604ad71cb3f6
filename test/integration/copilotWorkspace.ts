// Throwaway workspaces laid out as a repository with Copilot customizations (#31): a file where
// Copilot looks for it, its sidecar run spec and a dataset of arithmetic items the simulated agent
// answers, plus the matching scenario. The front matter and the frozen tokens are what the tests
// check come back byte for byte.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ScenarioInput, ScriptedEdit } from '../fixtures/fakeOpenAI/scenario';
import { sidecarPathFor } from '../../src/core/setup/specSource';
import { SCRATCH } from './evolveWorkspace';

export interface CopilotItem {
  id: string;
  question: string;
  answer: number;
  /** Skills only: whether the skill should load for it. */
  trigger?: boolean;
}

export interface CopilotWorkspace {
  dir: string;
  /** The file under evolution, absolute. */
  file: string;
  items: CopilotItem[];
}

/** A Copilot prompt file: front matter Copilot reads (with a comment), `${input:question}`, and frozen tokens. */
export const PROMPT_FRONT = ['---', "description: 'Answer an arithmetic question'   # Copilot shows this in the / menu", 'agent: ask', "tools: ['search/codebase', 'web/fetch']", 'argument-hint: a question about numbers', '---', ''].join(
  '\n',
);
export const PROMPT_BODY = [
  'You solve arithmetic problems. Look at ${selection} in ${file} when there is one.',
  'Check units with #tool:web/fetch and the [house notes](../../docs/notes.md).',
  '',
  'Question: ${input:question:Type the question}',
  '',
  'End with "The answer is N".',
  '',
].join('\n');

export const SKILL_TEXT = [
  '---',
  'name: arithmetic',
  'description: Solve arithmetic questions about sums. Use when: the user asks what a sum is.',
  'argument-hint: [question]',
  '---',
  '# Arithmetic',
  '',
  'Work the sum out step by step, then end with "The answer is N".',
  '',
].join('\n');

export const INSTRUCTIONS_TEXT = ['---', "applyTo: '**/*.py'", "description: 'How to answer numeric questions'", '---', 'When you are asked a number, show your working.', 'End with "The answer is N".', ''].join('\n');

export const AGENTS_TEXT = ['# Agent notes', '', 'Answer questions about numbers with care; see [the glossary](docs/glossary.md).', 'End with "The answer is N".', ''].join('\n');

export interface CopilotOptions {
  /** Path of the file under evolution, relative to the workspace. */
  path: string;
  text: string;
  /** Top-level spec lines added to the sidecar (e.g. a harness). */
  extra?: string[];
  candidates?: number;
  seed?: number;
  /** Every third item says the skill should not load for it. */
  triggers?: boolean;
  items?: number;
}

export function makeCopilotWorkspace(o: CopilotOptions): CopilotWorkspace {
  const dir = mkdtempSync(join(SCRATCH, 'ratchet-copilot-'));
  const file = join(dir, o.path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, o.text);
  const n = o.items ?? 60;
  const items: CopilotItem[] = Array.from({ length: n }, (_, i) => ({
    id: `q${i + 1}`,
    question: `What is ${200 + i} plus ${5 * i + 2}?`,
    answer: 200 + i + 5 * i + 2,
    ...(o.triggers ? { trigger: i % 3 !== 2 } : {}),
  }));
  const data = join(dirname(file), 'data', 'items.jsonl');
  mkdirSync(dirname(data), { recursive: true });
  writeFileSync(data, items.map((it) => JSON.stringify({ id: it.id, question: it.question, expected: it.answer, ...(it.trigger === undefined ? {} : { trigger: it.trigger }) })).join('\n') + '\n');
  writeFileSync(
    sidecarPathFor(file),
    [
      'dataset: data/items.jsonl',
      `split: { feedback: 10, dev: 40, test: ${n - 50} }`,
      'scorer: numeric',
      'models:',
      '  agent: { model: sim-agent, temperature: 0 }',
      '  proposer: { model: sim-proposer }',
      '  validator: { model: sim-validator }',
      '  meta: { model: sim-meta }',
      '  challenger: { model: sim-challenger }',
      'gate: { name: pace+, alpha: 0.05 }',
      `budget: { candidates: ${o.candidates ?? 3} }`,
      `seed: ${o.seed ?? 1}`,
      'mode: autopilot',
      'concurrency: 8',
      ...(o.extra ?? []),
      '',
    ].join('\n'),
  );
  return { dir, file, items };
}

/**
 * The proposer's script: edit 1 a real gain (+0.5 over a 0.4 base: on 40 dev items it wins about
 * 20 and loses none, so PACE+ commits it with probability above 1 − 1e-5), then what `rest` adds.
 */
export function copilotScenario(ws: CopilotWorkspace, rest: ScriptedEdit[] = []): ScenarioInput {
  return {
    seed: 1,
    items: ws.items.map((it) => ({ id: it.id, question: it.question, answer: it.answer, ...(it.trigger === undefined ? {} : { trigger: it.trigger }) })),
    agent: { baseAccuracy: 0.4, noise: 0 },
    proposer: { edits: [{ id: '1', text: 'Add the units digits first, then the tens.', effect: { kind: 'gain', delta: 0.5 }, reasoning: 'Teach column addition.' }, ...rest] },
    validator: { accuracy: 0.9, positionBias: 0, tieRate: 1 },
  };
}
