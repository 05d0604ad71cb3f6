// The VS Code half of the panel against a fake `vscode` module: what gets registered, what the
// webview is given (options, HTML with CSP), the singleton, the serializer, and disposal.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { HostMessage, ViewMessage } from '../../../src/protocol/webview';
import { RunStatuses } from '../../../src/extension/runs/runStatuses';
import { RUN, proposed, started } from '../webview/events';

interface FakePanel {
  webview: {
    options: unknown;
    html: string;
    cspSource: string;
    posted: HostMessage[];
    receive?: (m: ViewMessage) => void;
    postMessage(m: HostMessage): Promise<boolean>;
    asWebviewUri(u: { path: string }): { toString(): string };
    onDidReceiveMessage(l: (m: ViewMessage) => void): { dispose(): void };
  };
  visible: boolean;
  revealed: number;
  disposed: boolean;
  iconPath?: unknown;
  onDispose?: () => void;
  reveal(): void;
  dispose(): void;
  onDidChangeViewState(): { dispose(): void };
  onDidDispose(l: () => void): { dispose(): void };
}

const fake = vi.hoisted(() => ({
  commands: new Map<string, (...a: unknown[]) => unknown>(),
  serializers: new Map<string, { deserializeWebviewPanel(p: unknown, s: unknown): Promise<void> }>(),
  providers: new Map<string, { provideTextDocumentContent(u: { path: string }): string }>(),
  created: [] as { viewType: string; options: unknown; panel: unknown }[],
  makePanel: undefined as unknown as () => unknown,
}));

vi.mock('vscode', () => {
  const uri = (path: string) => ({ path, toString: () => `file://${path}` });
  return {
    Uri: { joinPath: (base: { path: string }, ...parts: string[]) => uri([base.path, ...parts].join('/')), from: (c: { path: string }) => uri(c.path) },
    ViewColumn: { One: 1, Beside: -2 },
    window: {
      activeTextEditor: undefined,
      createWebviewPanel: (viewType: string, _title: string, _col: unknown, options: unknown) => {
        const panel = fake.makePanel();
        fake.created.push({ viewType, options, panel });
        return panel;
      },
      registerWebviewPanelSerializer: (viewType: string, s: { deserializeWebviewPanel(p: unknown, st: unknown): Promise<void> }) => {
        fake.serializers.set(viewType, s);
        return { dispose: () => fake.serializers.delete(viewType) };
      },
      showWarningMessage: vi.fn(),
      showTextDocument: vi.fn(),
    },
    commands: {
      registerCommand: (id: string, fn: (...a: unknown[]) => unknown) => {
        fake.commands.set(id, fn);
        return { dispose: () => fake.commands.delete(id) };
      },
      executeCommand: vi.fn(),
    },
    workspace: {
      registerTextDocumentContentProvider: (scheme: string, p: { provideTextDocumentContent(u: { path: string }): string }) => {
        fake.providers.set(scheme, p);
        return { dispose: () => fake.providers.delete(scheme) };
      },
    },
  };
});

const { registerPanel, RunStore } = await import('../../../src/extension/panel/index');
const { RatchetPanel } = await import('../../../src/extension/panel/ratchetPanel');

function makePanel(): FakePanel {
  const panel: FakePanel = {
    visible: true,
    revealed: 0,
    disposed: false,
    webview: {
      options: undefined,
      html: '',
      cspSource: 'https://csp.example',
      posted: [],
      postMessage(m) {
        panel.webview.posted.push(structuredClone(m));
        return Promise.resolve(true);
      },
      asWebviewUri: (u) => ({ toString: () => `https://csp.example${u.path}` }),
      onDidReceiveMessage(l) {
        panel.webview.receive = l;
        return { dispose: () => (panel.webview.receive = undefined) };
      },
    },
    reveal: () => void (panel.revealed += 1),
    dispose() {
      if (panel.disposed) return;
      panel.disposed = true;
      panel.onDispose?.();
    },
    onDidChangeViewState: () => ({ dispose: () => undefined }),
    onDidDispose(l) {
      panel.onDispose = l;
      return { dispose: () => (panel.onDispose = undefined) };
    },
  };
  return panel;
}
fake.makePanel = makePanel;

function setup(statuses?: RunStatuses) {
  const subscriptions: { dispose(): void }[] = [];
  const context = { extensionUri: { path: '/ext' }, subscriptions } as unknown as Parameters<typeof registerPanel>[0];
  const store = new RunStore();
  store.appendAll([started(), proposed('c0', undefined, 'parent text'), proposed('c1', 'c0', 'child text')]);
  const cancelRun = vi.fn();
  const handle = registerPanel(context, { store, cancelRun, resumeRun: vi.fn(), loadRun: vi.fn(), ...(statuses ? { statuses } : {}) });
  return { subscriptions, store, cancelRun, context, handle };
}

beforeEach(() => {
  RatchetPanel.instance?.dispose();
  fake.created.length = 0;
});

describe('RatchetPanel in VS Code', () => {
  it('registers ratchet.showPanel, the serializer and the candidate documents, all owned by the context', () => {
    const { subscriptions } = setup();
    expect([...fake.commands.keys()]).toContain('ratchet.showPanel');
    expect([...fake.serializers.keys()]).toEqual(['ratchet.panel']);
    expect([...fake.providers.keys()]).toEqual(['ratchet-candidate']);
    expect(fake.providers.get('ratchet-candidate')!.provideTextDocumentContent({ path: `/${RUN}/c1.md` })).toBe('child text');
    for (const d of subscriptions) d.dispose();
    expect(fake.commands.has('ratchet.showPanel')).toBe(false);
    expect(fake.serializers.size).toBe(0);
  });

  it('opens one panel with scripts on, resources limited to out/ and media/, and a CSP with a fresh nonce', async () => {
    setup();
    await fake.commands.get('ratchet.showPanel')!();
    await fake.commands.get('ratchet.showPanel')!();
    expect(fake.created).toHaveLength(1);
    const { viewType, options, panel } = fake.created[0]! as { viewType: string; options: { enableScripts: boolean; localResourceRoots: { path: string }[] }; panel: FakePanel };
    expect(viewType).toBe('ratchet.panel');
    expect(options.enableScripts).toBe(true);
    expect(options.localResourceRoots.map((u) => u.path)).toEqual(['/ext/out', '/ext/media']);
    expect(panel.revealed).toBe(1);
    const nonce = /script-src 'nonce-([^']+)'/.exec(panel.webview.html)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{24}$/);
    expect(panel.webview.html).toContain(`<script nonce="${nonce}" src="https://csp.example/ext/out/webview.js">`);
    expect(panel.webview.html).toContain('style-src https://csp.example; font-src https://csp.example;');
  });

  it('answers the view through the controller and forwards Cancel', async () => {
    const { cancelRun } = setup();
    await fake.commands.get('ratchet.showPanel')!();
    const panel = fake.created[0]!.panel as FakePanel;
    panel.webview.receive!({ type: 'view/ready', runId: undefined });
    expect(panel.webview.posted[0]).toMatchObject({ type: 'run/snapshot', run: { runId: RUN } });
    panel.webview.receive!({ type: 'run/cancel', runId: RUN });
    expect(cancelRun).toHaveBeenCalledWith(RUN);
  });

  it('opens the panel on a decision for the Evidence command, sending the focus once the view is ready', async () => {
    const { handle } = setup();
    await handle.focus(RUN, 'c1');
    const panel = fake.created[0]!.panel as FakePanel;
    // The webview's script has not run yet: a message now would be lost.
    expect(panel.webview.posted).toEqual([]);
    panel.webview.receive!({ type: 'view/ready', runId: undefined });
    expect(panel.webview.posted.map((m) => m.type)).toEqual(['run/snapshot', 'focus']);
    expect(panel.webview.posted[1]).toEqual({ type: 'focus', runId: RUN, candidateId: 'c1' });
    // The panel is open and ready: a second Evidence reveals it and focuses at once.
    await handle.focus(RUN, 'c0');
    expect([fake.created.length, panel.revealed, panel.webview.posted.at(-1)]).toEqual([1, 1, { type: 'focus', runId: RUN, candidateId: 'c0' }]);
  });

  it('revives a panel VS Code restored after a reload, and disposes it cleanly', async () => {
    setup();
    const restored = makePanel();
    await fake.serializers.get('ratchet.panel')!.deserializeWebviewPanel(restored, { tab: 'lineage' });
    expect(restored.webview.html).toContain('Content-Security-Policy');
    restored.webview.receive!({ type: 'view/ready', runId: RUN });
    expect(restored.webview.posted.map((m) => m.type)).toEqual(['run/snapshot']);
    expect(RatchetPanel.instance).toBeDefined();
    restored.dispose();
    expect(RatchetPanel.instance).toBeUndefined();
    expect(restored.webview.receive).toBeUndefined();
  });

  it('posts a code search’s evaluator load to the open view as it changes, idle once the run is over', async () => {
    const statuses = new RunStatuses();
    const { subscriptions } = setup(statuses);
    await fake.commands.get('ratchet.showPanel')!();
    const panel = fake.created[0]!.panel as FakePanel;
    panel.webview.receive!({ type: 'view/ready', runId: undefined });
    const status = (state: 'running' | 'finished', busy: number, line: string) => ({ uri: 'file:///w/solve.js', workspace: '/w', status: { runId: 's1', state, tested: 0, commits: 0, line, evaluator: { busy, slots: 4, runs: 0 } } });
    statuses.set(status('running', 3, 'a'));
    statuses.set(status('running', 3, 'b')); // the line changed, not the load
    statuses.set(status('finished', 3, 'c'));
    const loads = panel.webview.posted.filter((m) => m.type === 'programs/load');
    expect(loads).toMatchObject([
      { runId: 's1', busy: 3, slots: 4 },
      { runId: 's1', busy: 0, slots: 4 },
    ]);
    for (const d of subscriptions) d.dispose();
    statuses.set(status('running', 1, 'd'));
    expect(panel.webview.posted.filter((m) => m.type === 'programs/load')).toHaveLength(2);
  });
});
