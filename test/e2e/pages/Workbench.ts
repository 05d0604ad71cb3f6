/**
 * The VS Code workbench page, and the entry point to the other page objects. "Ready" means the
 * workbench DOM is shown with the requested folder open (the window title carries its name).
 */
import type { Page } from 'playwright-core';
import { CommandPalette } from './CommandPalette';
import { Dialog } from './Dialog';
import { Editor } from './Editor';
import { Notifications } from './Notifications';
import { ProblemsPanel } from './ProblemsPanel';
import { RatchetPanel } from './RatchetPanel';
import { RunningExtensions } from './RunningExtensions';
import { waitUntil, waitVisible } from './waits';

export class Workbench {
  readonly palette: CommandPalette;
  readonly dialog: Dialog;
  readonly editor: Editor;
  readonly notifications: Notifications;
  readonly problems: ProblemsPanel;
  readonly ratchetPanel: RatchetPanel;
  readonly runningExtensions: RunningExtensions;

  constructor(readonly page: Page) {
    this.palette = new CommandPalette(page);
    this.dialog = new Dialog(page);
    this.editor = new Editor(page, () => this.palette);
    this.notifications = new Notifications(page, this.palette);
    this.problems = new ProblemsPanel(page, this.palette);
    this.ratchetPanel = new RatchetPanel(page);
    this.runningExtensions = new RunningExtensions(page, this.palette);
  }

  /** Loads the workbench URL (with `?folder=`) and waits until it is usable. */
  async open(url: string, timeoutMs = 90_000): Promise<void> {
    await this.page.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
    await this.waitForReady(timeoutMs);
  }

  /** `.monaco-workbench` is rendered and visible; the heavy work after it happens in the extension host. */
  async waitForReady(timeoutMs = 90_000): Promise<void> {
    await waitVisible(this.page.locator('.monaco-workbench'), 'workbench', timeoutMs);
  }

  /** Waits until the window title names the open folder (e.g. "examples - code-server"). */
  async waitForFolder(name: string, timeoutMs = 30_000): Promise<void> {
    let title = '';
    await waitUntil(
      async () => {
        title = await this.page.title();
        return title.startsWith(`${name} - `) || title.includes(` - ${name} - `) ? true : undefined;
      },
      () => `window title naming folder '${name}' (last title: '${title}')`,
      timeoutMs,
    );
  }

  /**
   * Moves the mouse where it hovers nothing (the empty lower part of the side bar), so a screenshot
   * shows no tooltip or hover left over from the last click.
   */
  async parkMouse(): Promise<void> {
    const size = this.page.viewportSize() ?? { width: 1440, height: 900 };
    await this.page.mouse.move(40, size.height - 200);
  }

  /** Explorer rows (files and folders at the shown depth), by their accessible names. */
  async explorerItems(): Promise<string[]> {
    const rows = this.page.locator('.explorer-folders-view .monaco-list-row');
    return rows.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
  }
}
