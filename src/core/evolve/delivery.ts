/**
 * How a committed edit reaches the file: in suggest mode the user is asked first; then the run's
 * control writes it, unless the file changed since the candidate was computed.
 */
import type { RunControl, Suggestion } from '../journal/control';
import type { Metered } from '../run/budget';
import type { RunSpec } from '../run/specTypes';
import type { Emit } from './gateContext';

export type Landing = 'applied' | 'dry-run' | 'rejected' | 'stale';

export async function deliver(s: Suggestion, mode: RunSpec['mode'], control: RunControl, emit: Emit, meter: Metered, signal: AbortSignal): Promise<Landing> {
  let by: 'autopilot' | 'user' = 'autopilot';
  if (mode === 'suggest') {
    await emit({ type: 'suggestion', ...s });
    // The iteration's cost/update comes only after the user's answer, which can take minutes or
    // outlive the window; until then every face (panel, status bar, Runs view, CLI) would show the
    // cost before this test — 0 calls on the first one. Only the meter knows the calls, tokens and
    // dollars, so the engine says them now. After `suggestion`, not before it: a resume replays the
    // journal event by event, and a run journaled before this event existed, interrupted while its
    // suggestion waited, ends with that `suggestion` — it stays resumable.
    await emit({ type: 'cost/update', cost: meter.cost(), llmCalls: meter.totalCalls() });
    const answer = await control.decide(s, signal);
    if (answer === 'reject') {
      await emit({ type: 'edit/rejected', candidateId: s.candidateId, file: s.file, by: 'user' });
      return 'rejected';
    }
    by = 'user';
  }
  const r = await control.apply(s, by);
  if (r === 'applied') await emit({ type: 'edit/applied', candidateId: s.candidateId, file: s.file, by });
  else if (r === 'stale') await emit({ type: 'log', level: 'warn', message: `${s.file} changed since ${s.candidateId} was computed; the edit was not written over it.` });
  return r;
}
