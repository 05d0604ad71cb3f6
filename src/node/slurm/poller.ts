/**
 * The Slurm backend's one poll loop (backend.ts): it runs while the run has tasks in flight, every
 * `pollSeconds` while something changes, backing off to 30 s while nothing does; a new submission
 * brings the next poll back to `pollSeconds` from then.
 */
import { isCancellation } from '../../core/errors';

/** Longest interval between two polls while nothing changes. */
const MAX_POLL_MS = 30_000;

export interface PollerHooks {
  /** The first interval (evaluator.slurm.pollSeconds), in ms. */
  firstMs: number;
  /** Whether any task is still in flight: the loop ends when none is. */
  busy: () => boolean;
  /** One poll; whether anything changed. */
  tick: () => Promise<boolean>;
  /** A poll failed, other than by the run's end: the loop ends and this is told why. */
  failed: (err: unknown) => void;
}

export class Poller {
  private looping = false;
  private stopped = false;
  private polling: Promise<void> | undefined;
  private poke: (() => void) | undefined;

  constructor(private readonly h: PollerHooks) {}

  /** A task was added: the loop starts if it is not running, or looks again soon if it is. */
  wake(): void {
    this.poke?.();
    // `looping` turns false in the same turn the loop finds nothing left, so a task tracked after it is never missed.
    if (!this.looping && !this.stopped) {
      this.looping = true;
      this.polling = this.pollLoop();
    }
  }

  /** Ends the loop (a poll waiting out an outage is ended by the signal the caller aborted first). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.poke?.();
    await this.polling?.catch(() => undefined);
  }

  private async pollLoop(): Promise<void> {
    try {
      await this.pollWhileBusy();
    } finally {
      this.looping = false;
    }
  }

  private async pollWhileBusy(): Promise<void> {
    const first = this.h.firstMs;
    let interval = first;
    while (!this.stopped && this.h.busy()) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, interval);
        this.poke = () => {
          clearTimeout(timer);
          interval = first;
          // A new submission: look again soon, not at once (it is just queued).
          setTimeout(resolve, first);
        };
      });
      this.poke = undefined;
      if (this.stopped) return;
      try {
        interval = (await this.h.tick()) ? first : Math.min(MAX_POLL_MS, interval * 1.5);
      } catch (err) {
        // The run's end (or cancel) stops a poll waiting out an outage; anything else ends the run's evaluations.
        if (isCancellation(err) || this.stopped) return;
        this.h.failed(err);
        return;
      }
    }
  }
}
