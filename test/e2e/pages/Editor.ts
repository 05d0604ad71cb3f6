/**
 * The active text editor: opening files through Quick Open (Ctrl+P), reading and clicking code
 * lenses, typing. Scoped to the active editor group so a second open editor never matches.
 */
import type { Locator, Page } from 'playwright-core';
import { escapeRegExp, waitHidden, waitUntil, waitVisible } from './waits';

export class Editor {
  /** The Monaco editor of the active group. */
  readonly active: Locator;
  readonly codeLenses: Locator;

  constructor(private readonly page: Page) {
    this.active = page.locator('.editor-group-container.active .monaco-editor').first();
    // Each lens is an <a> inside `.codelens-decoration`; the separators between lenses are text.
    this.codeLenses = this.active.locator('.codelens-decoration a');
  }

  /** The active tab's accessible name (starts with the file name). */
  activeTab(): Locator {
    return this.page.locator('.editor-group-container.active .tab.active');
  }

  /**
   * Opens a workspace file by its path relative to the folder (Quick Open matches paths), and waits
   * until its tab is the active one and its editor is shown.
   */
  async openFile(relativePath: string, timeoutMs = 30_000): Promise<void> {
    const fileName = relativePath.split('/').pop() ?? relativePath;
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator('.quick-input-widget input');
    await waitVisible(input, 'Quick Open input', 10_000);
    await input.fill(relativePath);
    // The result row's label is the file name; its description holds the folder.
    const row = this.page
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(fileName)}$`) }) })
      .first();
    await waitVisible(row, `Quick Open row '${relativePath}'`, timeoutMs);
    await row.click();
    await waitHidden(this.page.locator('.quick-input-widget'), 'Quick Open', 10_000);
    await waitVisible(this.activeTab().filter({ hasText: fileName }), `active tab '${fileName}'`, timeoutMs);
    await waitVisible(this.active, `editor for '${fileName}'`, timeoutMs);
  }

  /** The texts of the code lenses currently rendered in the active editor, top to bottom. */
  async codeLensTexts(): Promise<string[]> {
    return (await this.codeLenses.allTextContents()).map((t) => t.trim()).filter((t) => t.length > 0);
  }

  /** Waits until a code lens with exactly this text (after any `$(icon)` label) is rendered. */
  async waitForCodeLens(text: string | RegExp, timeoutMs = 30_000): Promise<Locator> {
    const lens = this.codeLenses.filter({ hasText: typeof text === 'string' ? new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) : text }).first();
    await waitVisible(lens, `code lens ${String(text)}`, timeoutMs);
    return lens;
  }

  async clickCodeLens(text: string | RegExp, timeoutMs = 30_000): Promise<void> {
    await (await this.waitForCodeLens(text, timeoutMs)).click();
  }

  /** Types at the cursor of the active editor (focusing it first), as a user would. */
  async type(text: string): Promise<void> {
    await this.active.locator('.view-lines').click();
    await this.page.keyboard.type(text);
  }

  /** The visible text of the active editor, line by line (Monaco renders only visible lines). */
  async visibleLines(): Promise<string[]> {
    return this.active.locator('.view-lines .view-line').allTextContents();
  }

  /** Waits until some visible line of the active editor contains `text`. */
  async waitForText(text: string, timeoutMs = 30_000): Promise<void> {
    let lines: string[] = [];
    await waitUntil(
      async () => {
        // Monaco renders spaces as U+00A0 in view lines.
        lines = (await this.visibleLines()).map((l) => l.replace(/\u00a0/g, ' '));
        return lines.some((l) => l.includes(text)) ? true : undefined;
      },
      () => `editor line containing '${text}' (visible lines: ${JSON.stringify(lines.slice(0, 20))})`,
      timeoutMs,
    );
  }
}
