// A git repository for `ratchet check`: three prompt files with their run specs on `main`, and a
// branch `pr` whose first commit makes one truly better (every wrong answer right) and one neutral
// (every item re-drawn at the same accuracy), and whose second commit makes the third worse (two
// thirds of its right answers wrong) — the fake endpoint's edit markers (judgeWorld.ts). The first
// commit also makes a program better (its evaluator's instances, run in the sandbox).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROMPT_BODY, SCRATCH } from './evolveWorkspace';
import { EVALUATOR, PROGRAM } from './searchWorkspace';
import type { Workspace } from './evolveWorkspace';
import type { CheckPolicy } from '../../src/core/check/policy';

export const CHECKED_FILES = ['prompts/better.prompt.md', 'prompts/neutral.prompt.md', 'prompts/worse.prompt.md'] as const;
/** A program and its evaluator (searchWorkspace.ts): scored on 40 instances by how close its rate is to 0.5. */
export const PROGRAM_FILE = 'programs/step.mjs';
/** Dev items per file: enough that the better and the worse edit decide at any threshold the tests' ledger sets. */
export const DEV_ITEMS = 100;

const promptText = (marker?: string): string => `---\ndescription: arithmetic\n---\n${PROMPT_BODY}${marker ? `\n<!-- edit:${marker} -->\n` : ''}`;

function spec(): string {
  return [
    'dataset: ../data/items.jsonl',
    `split: { feedback: 0, dev: ${DEV_ITEMS}, test: 20 }`,
    'scorer:',
    '  type: numeric',
    'models:',
    '  agent: { model: sim-agent, temperature: 0 }',
    '  validator: { model: sim-validator }',
    'gate:',
    '  name: pace+',
    '  alpha: 0.05',
    'seed: 1',
    'concurrency: 8',
  ].join('\n');
}

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
}

/**
 * The repository, checked out at `pr`; `ledger` (the .ratchet/ledger.json text) committed on main
 * when given; `policies` a prompt file's own `check: { require: … }`, in its sidecar on main.
 */
export function checkRepo(ledger?: string, policies: Partial<Record<(typeof CHECKED_FILES)[number], CheckPolicy>> = {}): Workspace & { files: typeof CHECKED_FILES } {
  const dir = mkdtempSync(join(SCRATCH, 'ratchet-check-'));
  const n = DEV_ITEMS + 20;
  const items = Array.from({ length: n }, (_, i) => ({ id: `q${i + 1}`, question: `What is ${100 + i} plus ${7 * i + 3}?`, answer: 100 + i + 7 * i + 3 }));
  mkdirSync(join(dir, 'data'));
  mkdirSync(join(dir, 'prompts'));
  writeFileSync(join(dir, 'data', 'items.jsonl'), items.map((it) => JSON.stringify({ id: it.id, question: it.question, expected: it.answer })).join('\n') + '\n');
  for (const f of CHECKED_FILES) {
    writeFileSync(join(dir, f), promptText());
    const own = policies[f];
    writeFileSync(join(dir, f.replace('.prompt.md', '.ratchet.yaml')), `${spec()}\n${own ? `check:\n  require: ${own}\n` : ''}`);
  }
  mkdirSync(join(dir, 'programs'));
  writeFileSync(join(dir, PROGRAM_FILE), PROGRAM);
  writeFileSync(join(dir, 'programs', 'evaluate.mjs'), EVALUATOR);
  writeFileSync(join(dir, `${PROGRAM_FILE}.ratchet.yaml`), ['kind: code', 'evaluator:', '  command: node evaluate.mjs {program} {results}', '  supportFiles: [evaluate.mjs]', '  timeoutSeconds: 60', 'seed: 1', ''].join('\n'));
  // A changed prompt without a run spec is named and left out.
  writeFileSync(join(dir, 'prompts', 'notes.prompt.md'), 'Plain notes.\n');
  writeFileSync(join(dir, '.gitignore'), '.ratchet/runs/\n.ratchet/cache/\n');
  if (ledger !== undefined) {
    mkdirSync(join(dir, '.ratchet'));
    writeFileSync(join(dir, '.ratchet', 'ledger.json'), ledger);
  }
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  git(dir, 'checkout', '-q', '-b', 'pr');
  writeFileSync(join(dir, CHECKED_FILES[0]), promptText('better'));
  writeFileSync(join(dir, CHECKED_FILES[1]), promptText('n1'));
  writeFileSync(join(dir, 'prompts', 'notes.prompt.md'), 'Plain notes, edited.\n');
  // The program's rate moved to 0.5: better on every instance.
  writeFileSync(join(dir, PROGRAM_FILE), PROGRAM.replace('const rate = 0.300;', 'const rate = 0.500;'));
  git(dir, 'commit', '-q', '-am', 'better and neutral');
  writeFileSync(join(dir, CHECKED_FILES[2]), promptText('worse'));
  git(dir, 'commit', '-q', '-am', 'worse');
  return { dir, promptPath: join(dir, CHECKED_FILES[0]), items, files: CHECKED_FILES };
}
