/**
 * The models line of a prompt file before any run: which model each role the run would call uses,
 * and where that was chosen (run/modelChoice.ts), with the editor's settings as they are now. The
 * Evolve lens's tooltip shows it, so a wrong model is seen before anything is paid.
 */
import type { Files } from '../core/ports';
import { rolesCalled } from '../core/setup/estimate';
import { describeModelChoices, roleModels } from '../core/run/modelChoice';
import { loadRunSpec, namesNoDataset } from '../core/setup/spec';
import type { ServerSettings } from '../protocol/lsp';
import { endpointDefaults, settingsOverrides } from './settings';

/** undefined when the spec does not load: its diagnostics say why, and a run would say it too. */
export async function modelLine(files: Files, promptPath: string, settings: ServerSettings): Promise<string | undefined> {
  const spec = await loadRunSpec(files, promptPath).catch(() => undefined);
  if (!spec) return undefined;
  const o = settingsOverrides(settings);
  // The settings' gate decides whether a validator is called, as it would in the run.
  const gated = o.gate === undefined ? spec : { ...spec, gate: { ...spec.gate, name: o.gate } };
  // A spec with no dataset makes Evolve a zero-data run: the Challenger is called too.
  const models = roleModels(spec, rolesCalled(gated, namesNoDataset(spec) ? 'zeroDataEvolve' : 'evolve'), o, endpointDefaults(settings, process.env), settings.provider === 'vscode-lm');
  return describeModelChoices(models);
}
