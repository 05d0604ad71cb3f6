/**
 * The models line of a prompt file before any run: which model each role the run would call uses,
 * and where that was chosen (run/modelChoice.ts), with the editor's settings as they are now. The
 * Evolve lens's tooltip shows it, so a wrong model is seen before anything is paid.
 */
import { rolesCalled } from '../core/setup/estimate';
import { describeModelChoices, roleModels } from '../core/run/modelChoice';
import { namesNoDataset } from '../core/setup/spec';
import type { RunSpec } from '../core/run/specTypes';
import type { ServerSettings } from '../protocol/lsp';
import { endpointDefaults, settingsOverrides } from './settings';

/** The spec as loaded (server/specCache.ts): a spec that does not load has no models line; its diagnostics say why. */
export function modelLine(spec: RunSpec, settings: ServerSettings): string {
  const o = settingsOverrides(settings);
  // The settings' gate decides whether a validator is called, as it would in the run.
  const gated = o.gate === undefined ? spec : { ...spec, gate: { ...spec.gate, name: o.gate } };
  // A spec with no dataset makes Evolve a zero-data run: the Challenger is called too.
  const models = roleModels(spec, rolesCalled(gated, namesNoDataset(spec) ? 'zeroDataEvolve' : 'evolve'), o, endpointDefaults(settings, process.env), settings.provider === 'vscode-lm');
  return describeModelChoices(models);
}
