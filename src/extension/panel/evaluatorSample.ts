// Sampling a code search's evaluator load for the panel's slot timeline. Apart from the controller,
// so registering the panel (src/extension/panel/register.ts) needs none of the panel's code.
import { isOver, type LiveRunStatus } from '../../core/journal/runStatus';
import type { EvaluatorLoadSample } from '../../protocol/webview';

/**
 * The evaluator load a status change says, at `at`, when it differs from the previous status's:
 * a run that is over has no evaluation running, whatever its last load said.
 */
export function evaluatorSample(status: LiveRunStatus | undefined, previous: LiveRunStatus | undefined, at: number): EvaluatorLoadSample | undefined {
  const load = status?.evaluator;
  if (!status || !load) return undefined;
  const busy = isOver(status) ? 0 : load.busy;
  const before = previous?.evaluator && { busy: isOver(previous) ? 0 : previous.evaluator.busy, slots: previous.evaluator.slots };
  if (before && before.busy === busy && before.slots === load.slots) return undefined;
  return { at, busy, slots: load.slots };
}
