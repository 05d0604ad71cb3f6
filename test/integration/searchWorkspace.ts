// A code search workspace for the integration tests: a program whose EVOLVE-BLOCK holds one
// numeric literal, and an evaluator (a real command, run in the sandbox) that scores it on 40
// instances by how close the literal is to 0.5. The fake server's proposer nudges numeric literals
// inside the block, so a search finds better programs that the gate can commit.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PROGRAM = ['// The harness imports step(); only the block changes.', 'export function step() {', '  // EVOLVE-BLOCK-START', '  const rate = 0.300;', '  // EVOLVE-BLOCK-END', '  return rate;', '}', ''].join('\n');

/** Scores each instance by how close `rate` is to 0.5, and reports whether it could see a key. */
export const EVALUATOR = `
import { pathToFileURL } from 'node:url';
const [program, , instancesFile] = process.argv.slice(2);
const { step } = await import(pathToFileURL(program).href);
const rate = step();
const ids = Array.from({ length: 40 }, (_, i) => 'inst-' + (i + 1));
const instances = {};
ids.forEach((id, i) => (instances[id] = Math.max(0, Math.min(1, 1 - 4 * Math.abs(rate - 0.5) - 0.01 * (i % 5)))));
const mean = Object.values(instances).reduce((a, b) => a + b, 0) / ids.length;
const keys = Object.keys(process.env).filter((k) => /KEY|TOKEN|SECRET/.test(k));
console.log(JSON.stringify({ correct: true, combined_score: mean, instances, public: { rate }, text_feedback: 'env keys: ' + keys.join(',') }));
`;

export interface SearchWorkspace {
  dir: string;
  /** The program file, step.mjs. */
  program: string;
}

/** A fresh folder with step.mjs, its spec (step.mjs.ratchet.yaml) and the evaluator; `prelude(dir)` runs first in the evaluator. */
export function searchWorkspace(prelude?: (dir: string) => string): SearchWorkspace {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-search-'));
  const program = join(dir, 'step.mjs');
  writeFileSync(program, PROGRAM);
  writeFileSync(join(dir, 'evaluate.mjs'), `${prelude?.(dir) ?? ''}\n${EVALUATOR}`);
  writeFileSync(
    join(dir, 'step.mjs.ratchet.yaml'),
    ['kind: code', 'evaluator:', '  command: node evaluate.mjs {program} {results}', '  supportFiles: [evaluate.mjs]', '  timeoutSeconds: 60', 'models:', '  proposer: { model: sim-proposer }', 'islands: 1', 'concurrency: 2', ''].join('\n'),
  );
  return { dir, program };
}
