/**
 * The evolve runs and code searches an agent started with `start_run`, executed in this process
 * (the CLI's engine and journal, as `ratchet evolve` and `ratchet search` run them) and followed
 * with `run_status`: each run's live status is the same fold the run daemon keeps
 * (core/journal/runStatus.ts), fed by the run's journaled events. A run outlives the tool call
 * that started it, not the server: when the client goes away its runs stop where they are, their
 * journals say `interrupted`, and `ratchet runs resume` takes them up.
 */
import { RatchetError, isCancellation } from '../core/errors';
import type { JournaledEvent } from '../core/journal/events';
import { StatusFeed, isOver, startingStatus } from '../core/journal/runStatus';
import type { LiveRunStatus } from '../core/journal/runStatus';
import type { LlmTransport } from '../core/ports';
import type { EndpointDefaults } from '../core/run/endpointDefaults';
import type { EvolveOverrides, SearchOverrides } from '../core/run/overrides';
import { SystemClock } from '../node/clock';
import type { NodeFiles } from '../node/files';
import { startEvolveRun } from '../node/runs/evolveRun';
import { fileApply } from '../node/runs/fileApply';
import { startSearchRun } from '../node/runs/searchRun';
import { runController } from '../node/runController';

interface HostedRun {
  readonly file: string;
  readonly root: string;
  readonly controller: AbortController;
  status: StatusFeed | undefined;
}

export interface StartRequest {
  kind: 'evolve' | 'search';
  path: string;
  root: string;
  /** Write what the gate commits into the file: each commit of an evolve run as it comes, a search's best at its end. */
  apply: boolean;
  evolve?: EvolveOverrides;
  search?: SearchOverrides;
  endpoint: EndpointDefaults;
  /** The client's models (sampling), for an evolve run; a code search calls its endpoint itself. */
  transport?: LlmTransport;
  untrusted: boolean;
  version: string;
}

export class InProcessRuns {
  private readonly runs = new Map<string, HostedRun>();
  private readonly clock = new SystemClock();

  constructor(private readonly files: NodeFiles) {}

  /** Starts the run; answered with its id once its journal exists (input errors come back as the error). */
  start(r: StartRequest): Promise<{ runId: string }> {
    const busy = [...this.runs.values()].find((h) => h.file === r.path && h.status !== undefined && !isOver(h.status.current));
    if (busy) throw new RatchetError('badInput', `${r.path} is already being evolved by a run this server started; cancel it first.`, { file: r.path });
    const hosted: HostedRun = { file: r.path, root: r.root, controller: runController(), status: undefined };
    let ready: (runId: string) => void = () => undefined;
    const first = new Promise<{ runId: string }>((resolve) => (ready = (runId) => resolve({ runId })));
    const onEvent = (e: JournaledEvent) => {
      if (!hosted.status) {
        this.runs.set(e.runId, hosted);
        hosted.status = new StatusFeed(startingStatus(e.runId), () => undefined, this.clock);
        ready(e.runId);
      }
      hosted.status.event(e);
    };
    const common = { onEvent, signal: hosted.controller.signal, endpointDefaults: r.endpoint, version: r.version, untrusted: r.untrusted };
    const run: Promise<unknown> =
      r.kind === 'evolve'
        ? startEvolveRun({
            ...common,
            promptPath: r.path,
            workspace: r.root,
            overrides: { ...r.evolve, ...(r.apply ? { mode: 'autopilot' } : {}) },
            // No one to ask: a suggestion is taken as the gate gave it, and written only with apply.
            control: { decide: async () => 'accept', apply: r.apply ? fileApply(this.files) : async () => 'dry-run' },
            ...(r.transport ? { transport: r.transport } : {}),
          })
        : startSearchRun({ ...common, programPath: r.path, workspace: r.root, overrides: r.search ?? {}, apply: r.apply });
    const ended = run.then(
      () => hosted.status?.end(),
      (err: unknown) => {
        hosted.status?.end(isCancellation(err) ? undefined : err instanceof Error ? err.message : String(err));
        throw err;
      },
    );
    // A run that fails before its first event answers the start with its error.
    return Promise.race([first, ended.then(() => first)]);
  }

  /** The live status of a run this server started; undefined for any other. */
  status(runId: string): LiveRunStatus | undefined {
    return this.runs.get(runId)?.status?.current;
  }

  /** Whether a run this server started and still runs was told to stop. */
  cancel(runId: string): boolean {
    const hosted = this.runs.get(runId);
    if (!hosted?.status || isOver(hosted.status.current)) return false;
    hosted.controller.abort(new RatchetError('cancelled', 'Cancelled by the MCP client (cancel_run).'));
    return true;
  }
}
