/**
 * The one door through which VS Code hears that Ratchet's lenses changed. The server sends this
 * client no `workspace/codeLens/refresh` (the client declares no lens support: client.ts); the host tells this
 * door instead, on each suggestion change the server notifies, each settings change it sends, and
 * each suggestion the editor starts or stops hiding while it is answered.
 *
 * Why a door of our own: VS Code asks for a file's lenses only a while after it hears they changed
 * (250 ms at least, longer while its recent requests were slow), and each further change it hears
 * starts that wait over. One Accept or Reject sets off several changes within a few hundred
 * milliseconds (the lenses hidden here, the server's new state of the suggestion), so the request
 * that takes the lenses away waited from the last of them, not the first. Here a change heard while
 * an earlier one still waits for VS Code's request is not passed on: that request reads the server's
 * state when it comes, and so sees the change as well.
 *
 * VS Code may drop a request it was waiting to make (an editor that loses focus cancels its own), so
 * a change held back is passed on after all once `holdMs` have gone by with no request.
 *
 * That wait is the average time a file's last six lens requests took (250 ms at least). After a
 * window reload the first ones waited behind the extension host's start — other extensions
 * activating, the server's — and took seconds, so for as long as they were among the six every
 * change (a Reject's) kept its lenses on screen that long (bench:editor: 0.7–1.9 s after a reload,
 * 0.3 s in the same window). `settle` asks six times once the start is over, so the wait is of
 * requests as they take now.
 */
export const LENS_HOLD_MS = 1_000;

/** How many of its last lens requests VS Code averages to space the next (its `CodeLensProvide` debounce). */
export const LENS_PACE_WINDOW = 6;

export class LensRefresh {
  /** A change was passed on and no lens request has come since. */
  private waiting = false;
  private heldBack = false;
  private release: ReturnType<typeof setTimeout> | undefined;
  /** Requests still to have VS Code make after `settle`. */
  private toSettle = 0;

  constructor(
    /** Tells VS Code the lenses changed (Ratchet's lens provider's event, review/lenses.ts). */
    private readonly tell: () => void,
    private readonly holdMs = LENS_HOLD_MS,
  ) {}

  /** The lenses (may) have changed. */
  changed(): void {
    if (!this.waiting) {
      this.waiting = true;
      this.tell();
      return;
    }
    this.heldBack = true;
    this.release ??= setTimeout(() => {
      this.release = undefined;
      if (!this.heldBack) return;
      this.waiting = false;
      this.heldBack = false;
      this.changed();
    }, this.holdMs);
  }

  /** VS Code asked for lenses: it has whatever changed so far, and the next change is passed on. */
  asked(): void {
    this.waiting = false;
    this.heldBack = false;
    clearTimeout(this.release);
    this.release = undefined;
    if (this.toSettle > 0 && --this.toSettle > 0) this.changed();
  }

  /** Has VS Code ask for the lenses as many times as it averages over (after a start; see above). */
  settle(): void {
    this.toSettle = LENS_PACE_WINDOW;
    this.changed();
  }

  dispose(): void {
    this.toSettle = 0;
    clearTimeout(this.release);
    this.release = undefined;
  }
}
