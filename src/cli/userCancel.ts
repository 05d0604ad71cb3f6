/**
 * The CLI's cancellation of a run: Ctrl+C (SIGINT) or SIGTERM aborts its signal once, and the run
 * winds down through the journal as cancelled rather than the process dying mid-write.
 */
import { RatchetError } from '../core/errors';
import { runController } from '../node/runController';

/** `dispose` stops listening, once the run is over. */
export function cancelledByUser(): { controller: AbortController; dispose: () => void } {
  const controller = runController();
  const onSignal = () => controller.abort(new RatchetError('cancelled', 'Cancelled by the user.'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    controller,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
