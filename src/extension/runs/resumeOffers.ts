/**
 * Offers to resume interrupted runs: when the process running them dies, and when a window opens
 * on a workspace that has some. "Don't Ask Again" leaves a run alone at the next openings (kept
 * per workspace); it is still offered if it is resumed later and its process dies again.
 */
import * as vscode from 'vscode';
import { commandId } from '../commandTable';
import type { RunsView } from '../views/runsView';
import { resumeOffer, runsToOffer } from './runNotices';

const DISMISSED_KEY = 'ratchet.resume.dismissed';
const DONT_ASK_AGAIN = "Don't Ask Again";

export class ResumeOffers {
  constructor(
    private readonly runsView: RunsView,
    private readonly state: vscode.Memento,
  ) {}

  /** `count`: the server's resumable count; `justStopped`: a run's process died just now. */
  async offer(count: number, justStopped: boolean): Promise<void> {
    await this.runsView.refresh();
    const resumable = this.runsView.listedRuns().filter((r) => r.resumable);
    const dismissed = new Set(this.state.get<string[]>(DISMISSED_KEY, []));
    const runs = runsToOffer(resumable, dismissed, justStopped);
    // An empty listing (it failed, or raced the server) still offers the count; a listing whose
    // runs were all dismissed offers nothing.
    if (resumable.length > 0 && runs.length === 0) return;
    const offer = resumeOffer(runs, resumable.length > 0 ? runs.length : count);
    const choice = await vscode.window.showInformationMessage(offer.message, offer.button, DONT_ASK_AGAIN);
    if (choice === offer.button) {
      await vscode.commands.executeCommand(commandId('resumeRun'), ...(offer.runId ? [offer.runId] : []));
    } else if (choice === DONT_ASK_AGAIN) {
      // Only ids still resumable are kept, so the list never outgrows the workspace's runs.
      const keep = new Set(resumable.map((r) => r.runId));
      await this.state.update(
        DISMISSED_KEY,
        [...new Set([...dismissed, ...runs.map((r) => r.runId)])].filter((id) => keep.has(id)),
      );
    }
  }
}
