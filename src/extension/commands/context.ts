/**
 * What command handlers may reach: one object built in main.ts, so a handler's dependencies are
 * visible in its signature and tests can hand in fakes.
 */
import type * as vscode from 'vscode';
import type { Config } from '../config';
import type { EditorErrors } from '../errors';
import type { RunStore } from '../panel';
import type { InlineReview } from '../review/inlineReview';
import type { RunFeed } from '../runs/runFeed';
import type { RunStatuses } from '../runs/runStatuses';
import type { ApiKeyStore } from '../secrets';
import type { ServerHost } from '../server/serverHost';
import type { RunsView } from '../views/runsView';

export interface CommandContext {
  extension: vscode.ExtensionContext;
  host: ServerHost;
  config: Config;
  apiKeys: ApiKeyStore;
  errors: EditorErrors;
  log: vscode.LogOutputChannel;
  store: RunStore;
  feed: RunFeed;
  /** The runs' live statuses, as the server relays them. */
  statuses: RunStatuses;
  review: InlineReview;
  runsView: RunsView;
  panel: { show(): unknown; showRun(runId: string, target?: string): unknown; focus(runId: string, candidateId: string): unknown; columnFor(from: number | undefined): number | undefined };
}

export type Handler = (...args: unknown[]) => unknown;
