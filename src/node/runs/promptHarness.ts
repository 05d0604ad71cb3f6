/**
 * The agent harness a one-shot test of a prompt file uses (a judge run, an evaluation): a
 * `harness: command` run spec's command in the evaluation sandbox — workspace code, so refused in
 * an untrusted workspace before anything runs — or, for every other spec, none: the engine builds
 * the file kind's chat harness itself.
 */
import { RatchetError } from '../../core/errors';
import type { AgentHarness } from '../../core/evolve/harness';
import type { RunInputs } from '../../core/setup/spec';
import type { EndpointDefaults } from '../../core/run/endpointDefaults';
import type { NodeFiles } from '../files';
import { nodeEvaluationSandbox } from '../sandbox/sandbox';
import { commandHarness } from './commandHarness';
import { runSecrets } from '../environSecrets';

export async function promptHarness(inputs: Pick<RunInputs, 'spec' | 'prompt' | 'template'>, o: { workspace: string; files: NodeFiles; endpoint: EndpointDefaults; untrusted: boolean }): Promise<AgentHarness | undefined> {
  const { spec } = inputs;
  if (spec.harness.type !== 'command') return undefined;
  if (o.untrusted) {
    throw new RatchetError('badInput', "This run's harness runs a command from the workspace, which is not trusted; trust the workspace (Workspace Trust in the editor, or ratchet mcp --trust) or use harness type: chat.", {
      field: 'harness',
    });
  }
  return commandHarness({
    spec: spec.harness,
    prompt: inputs.prompt,
    template: inputs.template,
    workspace: o.workspace,
    files: o.files,
    cacheDir: o.files.join(o.workspace, '.ratchet', 'cache', 'harness'),
    secrets: runSecrets(spec, o.endpoint),
    sandbox: nodeEvaluationSandbox,
  });
}
