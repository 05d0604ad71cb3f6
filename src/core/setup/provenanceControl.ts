/**
 * Records provenance where every accepted edit passes: the run's `RunControl.apply`. Whichever face
 * answers it — the editor (Accept, or autopilot through the language server) or the CLI (`--apply`,
 * `--interactive`) — an edit that reached the file gets its record (provenance.ts), with the
 * evidence of the run's own `decision` event for that candidate.
 */
import type { Clock, Files, Log } from '../ports';
import type { DecisionRecord } from '../gates/record';
import type { JournaledEvent } from '../journal/events';
import { appendProvenance, provenanceRecord } from '../journal/provenance';
import type { RunControl } from '../journal/control';

export interface ProvenanceRecorderOptions {
  files: Files;
  clock: Clock;
  log: Log;
  /** The workspace folder that holds `.ratchet/`. */
  root: string;
  /** The prompt file (or program), relative to `root`, with `/` separators. */
  file: string;
  runId: () => string;
  runKind: 'evolve' | 'search';
}

export class ProvenanceRecorder {
  /** Each committed candidate's decision, with its seq in the journal. */
  private readonly commits = new Map<string, { record: DecisionRecord; seq: number }>();

  constructor(private readonly o: ProvenanceRecorderOptions) {}

  /** Every event of the run, the replayed ones of a resume included, as the journal holds it. */
  observe(e: JournaledEvent): void {
    if (e.type === 'decision' && e.record.decision === 'commit') this.commits.set(e.record.candidateId, { record: e.record, seq: e.seq });
  }

  /** `inner`, with a record appended after each edit it reports written. */
  control(inner: RunControl): RunControl {
    return {
      decide: (s, signal) => inner.decide(s, signal),
      apply: async (s, by) => {
        const outcome = await inner.apply(s, by);
        if (outcome === 'applied') await this.record(s.candidateId, by, s.baseText, s.newText);
        return outcome;
      },
    };
  }

  private async record(candidateId: string, by: 'user' | 'autopilot', before: string, after: string): Promise<void> {
    const commit = this.commits.get(candidateId);
    const runId = this.o.runId();
    try {
      if (!commit) throw new Error(`no commit decision for ${candidateId} was journaled`);
      const at = new Date(this.o.clock.now()).toISOString();
      await appendProvenance(this.o.files, this.o.root, provenanceRecord({ file: this.o.file, runId, runKind: this.o.runKind, candidateId, by, at, decision: commit.record, decisionSeq: commit.seq, before, after }));
    } catch (err) {
      // The edit is in the file either way; a missing history entry must not stop the run.
      this.o.log.log('warn', `The provenance of ${candidateId} (run ${runId}) was not recorded: ${err instanceof Error ? err.message : String(err)}.`, { file: this.o.file });
    }
  }
}
