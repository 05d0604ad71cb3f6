/**
 * Test Evaluator: the program as saved, evaluated once by its spec's evaluator in the sandbox —
 * exactly as a search evaluates its seed (`sandboxEvaluator`, src/node/runs/searchSandbox.ts), minus the
 * evaluation cache, since the point is to watch the evaluator run. The answer is the parsed result,
 * or the precise way the run broke the evaluator contract.
 *
 * The evaluator is workspace code: an untrusted workspace is refused here, before anything runs.
 */
import { dirname } from 'node:path';
import { parseBlocks } from '../core/code/blocks';
import { RatchetError } from '../core/errors';
import { ROLES } from '../core/llm/types';
import type { NodeFiles } from '../node/files';
import { sandboxEvaluator } from '../node/runs/searchSandbox';
import { loadCodeSpec } from '../node/runs/searchSpecFile';
import type { ServerSettings, TestEvaluatorResult } from '../protocol/lsp';
import { endpointDefaults } from './settings';

export async function testEvaluator(files: NodeFiles, settings: ServerSettings, programPath: string, signal: AbortSignal): Promise<TestEvaluatorResult> {
  if (!settings.trusted) {
    throw new RatchetError('badInput', 'Test Evaluator runs the evaluator, which is workspace code; trust the workspace first (Manage Workspace Trust).', { file: programPath });
  }
  const text = await files.readText(programPath);
  // The search would refuse these markers before evaluating anything; so does its test.
  parseBlocks(text, programPath);
  const spec = await loadCodeSpec(files, programPath, {});
  const keyNames = [...new Set(ROLES.map((role) => spec.models[role].apiKeyEnv).filter((n): n is string => n !== undefined))];
  const shinkaDir = spec.evaluator.command === undefined ? dirname(programPath) : undefined;
  const evaluate = sandboxEvaluator(spec, programPath, shinkaDir, endpointDefaults(settings, process.env, keyNames));
  const started = Date.now();
  const r = await evaluate(text, undefined, signal);
  return {
    ...(spec.evaluator.command === undefined ? {} : { command: spec.evaluator.command }),
    correct: r.correct,
    ...(r.score === undefined ? {} : { score: r.score }),
    instances: r.instances === undefined ? 0 : Object.keys(r.instances).length,
    ...(r.publicMetrics === undefined ? {} : { metrics: r.publicMetrics }),
    ...(r.feedback === undefined ? {} : { feedback: r.feedback }),
    ...(r.error === undefined ? {} : { error: r.error }),
    ...(r.output === undefined ? {} : { output: r.output }),
    ms: Date.now() - started,
  };
}
