/**
 * The one door through which VS Code hears that Ratchet's lenses changed. The server sends this
 * client no `workspace/codeLens/refresh` (the client declares no lens support: client.ts); the host tells this
 * door instead, on each settings change it sends (the Evolve lens's tooltip names the models, the
 * code search lens says whether the workspace is trusted) and on the server's start and stop.
 *
 * Why a door of our own: VS Code asks for a file's lenses only a while after it hears they changed
 * (250 ms at least, longer while its recent requests were slow), and each further change it hears
 * starts that wait over. Several changes can come within a few hundred milliseconds (the server's
 * start, then the settings it was sent), so the request that brings the lenses up to date would
 * wait from the last of them, not the first. Here a change heard while
 * an earlier one still waits for VS Code's request is not passed on: that request reads the server's
 * state when it comes, and so sees the change as well.
 *
 * VS Code may drop a request it was waiting to make (an editor that loses focus cancels its own), so
 * a change held back is passed on after all once `holdMs` have gone by with no request.
 */
export const LENS_HOLD_MS = 1_000;

export class LensRefresh {
  /** A change was passed on and no lens request has come since. */
  private waiting = false;
  private heldBack = false;
  private release: ReturnType<typeof setTimeout> | undefined;

  constructor(
    /** Tells VS Code the lenses changed (Ratchet's lens provider's event, server/lenses.ts). */
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
  }

  dispose(): void {
    clearTimeout(this.release);
    this.release = undefined;
  }
}
