/**
 * The PACE configuration a run spec's `gate:` section means, for the questions asked of it before
 * any candidate is paid for (can this dev set ever commit, how many straight wins it takes). The
 * gate runner builds its own per test, with the scores the scorer gives; these questions are
 * about the best case, all wins, where binary and continuous scores agree.
 */
import type { PaceConfig } from '../gates/pace';
import { isPaceGate } from '../gates/gateTable';
import { paceConfig } from '../gates/pace';
import type { GateSpec } from './specTypes';

export function paceConfigOf(gate: GateSpec): PaceConfig | undefined {
  const name = gate.name;
  if (!isPaceGate(name)) return undefined;
  return paceConfig(name, {
    alpha: gate.alpha,
    schedule: gate.schedule,
    horizonT: gate.horizon,
    population: gate.population,
    ...(name === 'pace' ? { bettor: { kind: 'fixed', lambda: gate.lambda } } : { bettor: { kind: 'mixture', lambdas: gate.lambdas } }),
  });
}
