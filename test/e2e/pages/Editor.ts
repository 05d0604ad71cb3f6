/**
 * The active text editor: opening files through Quick Open (Ctrl+P), reading and clicking code
 * lenses, typing. Scoped to the active editor group so a second open editor never matches.
 */
import type { Locator, Page } from 'playwright-core';
import type { CommandPalette } from './CommandPalette';
import { attemptTimeoutMs, defaultTimeoutMs, escapeRegExp, waitHidden, waitUntil, waitVisible } from './waits';

export class Editor {
  /** The Monaco editor of the active group. */
  readonly active: Locator;
  readonly codeLenses: Locator;
  /** The links in a pending suggestion's drawing (its widgets between the lines: review/inlineReview.ts). */
  readonly suggestionLinks: Locator;

  constructor(
    private readonly page: Page,
    private readonly palette: () => CommandPalette,
  ) {
    this.active = page.locator('.editor-group-container.active .monaco-editor').first();
    // Each lens is an <a> inside `.codelens-decoration`; the separators between lenses are text.
    this.codeLenses = this.active.locator('.codelens-decoration a');
    this.suggestionLinks = this.active.locator('.review-widget .comment-body a');
  }

  /** The active tab's accessible name (starts with the file name). */
  activeTab(): Locator {
    return this.page.locator('.editor-group-container.active .tab.active');
  }

  /**
   * Opens a workspace file by its path relative to the folder (Quick Open matches paths), and waits
   * until its tab is the active one and its editor is shown.
   */
  async openFile(relativePath: string, timeoutMs = 60_000): Promise<void> {
    const fileName = relativePath.split('/').pop() ?? relativePath;
    const widget = this.page.locator('.quick-input-widget');
    const input = widget.locator('input');
    // The result row's label is the file name; its description holds the folder. The full path
    // puts it first, focused: Enter takes it. (A click can land on a row the list is re-rendering
    // as search results settle, on a loaded machine, and then nothing opens.)
    const row = this.page
      .locator('.quick-input-list .monaco-list-row.focused')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(fileName)}$`) }) })
      .first();
    // Quick Open closes when anything else takes focus: the walkthrough moving to its next step
    // once one checks off, a notification's toast, a webview finishing its load. Then the input
    // goes inert and hidden under the fill; open it again rather than wait out the timeout.
    const deadline = Date.now() + timeoutMs;
    // Each attempt gets its share, not the whole deadline: a fill that waits out the deadline on an
    // inert input leaves no time to open Quick Open again (CI: 'element is inert', then 30 s gone).
    const attemptMs = () => Math.max(1_000, Math.min(attemptTimeoutMs, deadline - Date.now()));
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('Control+P');
      await waitVisible(input, 'Quick Open input', defaultTimeoutMs);
      try {
        await input.fill(relativePath, { timeout: attemptMs() });
        await waitVisible(row, `Quick Open row '${relativePath}', focused`, attemptMs());
        await input.press('Enter', { timeout: attemptMs() });
        break;
      } catch (cause) {
        if (attempt >= 3 || Date.now() >= deadline || (await widget.isVisible())) throw cause;
      }
    }
    await waitHidden(widget, 'Quick Open', defaultTimeoutMs);
    await waitVisible(this.activeTab().filter({ hasText: fileName }), `active tab '${fileName}'`, timeoutMs);
    await waitVisible(this.active, `editor for '${fileName}'`, timeoutMs);
  }

  /**
   * The texts of the code lenses currently drawn in the active editor, top to bottom: the links,
   * and the plain text VS Code draws from its cache (the same titles, not clickable) whenever the
   * editor's model, its language or the lens providers change, until it has asked for them again.
   * Both are on screen: a lens drawn from the cache has not gone.
   */
  async codeLensTexts(): Promise<string[]> {
    const drawn = await this.active.locator('.codelens-decoration > a, .codelens-decoration > span').allTextContents();
    // The separators between lenses are spans too: " | ".
    return drawn.map((t) => t.trim()).filter((t) => t.length > 0 && t !== '|');
  }

  /** Waits until a code lens with exactly this text (after any `$(icon)` label), or matching it, is rendered. */
  async waitForCodeLens(text: string | RegExp, timeoutMs = 30_000): Promise<Locator> {
    return firstVisible(this.codeLenses, text, 'code lens', timeoutMs);
  }

  async clickCodeLens(text: string | RegExp, timeoutMs = 30_000): Promise<void> {
    await (await this.waitForCodeLens(text, timeoutMs)).click();
  }

  /**
   * The links a pending suggestion's drawing offers in the active editor (Accept, Reject, Diff,
   * Evidence: src/extension/review/commandLinks.ts), top to bottom, as their text reads.
   */
  async suggestionLinkTexts(): Promise<string[]> {
    return (await this.suggestionLinks.allTextContents()).map((t) => t.trim());
  }

  /** Every lens and suggestion link drawn in the active editor: a suggestion's Accept is in neither once it is answered. */
  async lensAndLinkTexts(): Promise<string[]> {
    return [...(await this.codeLensTexts()), ...(await this.suggestionLinkTexts())];
  }

  /** Waits until a suggestion's link with this text (after its icon), or matching it, is drawn. */
  async waitForSuggestionLink(text: string | RegExp, timeoutMs = 30_000): Promise<Locator> {
    return firstVisible(this.suggestionLinks, text, 'suggestion link', timeoutMs);
  }

  async clickSuggestionLink(text: string | RegExp, timeoutMs = 30_000): Promise<void> {
    await (await this.waitForSuggestionLink(text, timeoutMs)).click();
  }

  /** The tooltips of the suggestion's links in the active editor, top to bottom. */
  async suggestionLinkTooltips(): Promise<string[]> {
    return this.suggestionLinks.evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));
  }

  /** Types at the cursor of the active editor (focusing it first), as a user would. */
  async type(text: string): Promise<void> {
    await this.active.locator('.view-lines').click();
    await this.page.keyboard.type(text);
  }

  /**
   * The visible text of the active editor, line by line, top to bottom (Monaco renders only the
   * visible lines, positions each absolutely and recycles them, so DOM order is not line order;
   * it renders spaces as U+00A0).
   */
  async visibleLines(): Promise<string[]> {
    const lines = await this.active.locator('.view-lines .view-line').evaluateAll((els) => els.map((el) => ({ top: parseFloat((el as HTMLElement).style.top || '0'), text: el.textContent ?? '' })));
    return lines.sort((a, b) => a.top - b.top).map((l) => l.text.replace(/\u00a0/g, ' '));
  }

  /** The active editor's text as shown (all of it, for a file shorter than the viewport). */
  async text(): Promise<string> {
    return (await this.visibleLines()).join('\n');
  }

  /**
   * Texts that decorations add to the active editor (`before` / `after` content such as ghost text
   * and inline notes). Extension decorations render them as CSS pseudo-elements, not DOM text.
   */
  async decorationTexts(): Promise<string[]> {
    return this.active.locator('.view-lines').evaluateAll((roots) => {
      const out: string[] = [];
      for (const root of roots) {
        for (const el of Array.from(root.querySelectorAll('span'))) {
          for (const pseudo of ['::before', '::after']) {
            const content = getComputedStyle(el, pseudo).content;
            if (content && content !== 'none' && content !== 'normal' && content !== '""') out.push(content.replace(/^"|"$/g, '').replace(/\\"/g, '"'));
          }
        }
      }
      return out;
    });
  }

  /** Waits until a decoration of the active editor shows text containing `text`; returns that text. */
  async waitForDecorationText(text: string, timeoutMs = 30_000): Promise<string> {
    let seen: string[] = [];
    return waitUntil(
      async () => {
        seen = await this.decorationTexts();
        return seen.find((t) => t.includes(text));
      },
      () => `a decoration in the active editor showing '${text}' (decoration texts: ${JSON.stringify(seen.slice(0, 10))})`,
      timeoutMs,
    );
  }

  /**
   * The blocks of added lines a pending suggestion draws in place (inlineReview.ts: each is an
   * inline widget between the editor's lines), as rendered: each line's text, and whether it lies
   * whole inside the editor's visible text area (left of the minimap and the scrollbar, inside the
   * widget's own frame), so a line cut off or pushed out of sight counts as hidden; and how many
   * screen rows each line takes (more than one when it wraps).
   */
  async addedLineBlocks(): Promise<{ lines: string[]; allVisible: boolean; rows: number[] }[]> {
    return this.active.locator('.review-widget').evaluateAll((widgets) => {
      const editor = widgets[0]?.closest('.monaco-editor');
      const minimap = editor?.querySelector('.minimap');
      const frame = editor?.getBoundingClientRect();
      const textRight = minimap && minimap.getBoundingClientRect().width > 0 ? minimap.getBoundingClientRect().left : (frame?.right ?? 0);
      return widgets.map((w) => {
        const box = w.getBoundingClientRect();
        // Each added line is a <code> of the body's <div> (review/addedLines.ts); its words are spans.
        const lines = Array.from(w.querySelectorAll('.comment-body div > code'));
        const allVisible = Array.from(w.querySelectorAll('.comment-body div > code span')).every((sp) => {
          const r = sp.getBoundingClientRect();
          const seen = (sp as HTMLElement).offsetParent !== null && r.height > 0;
          return seen && r.left >= box.left && r.right <= Math.min(box.right, textRight) + 0.5 && r.top >= box.top && r.bottom <= box.bottom + 0.5;
        });
        // The screen rows a line takes: the distinct tops of its spans (a wrapped line has more than one).
        const rows = lines.map((l) => new Set(Array.from(l.querySelectorAll('span')).map((sp) => Math.round(sp.getBoundingClientRect().top))).size);
        return { lines: lines.map((l) => (l.textContent ?? '').replace(/\u00a0/g, ' ')), allVisible, rows };
      });
    });
  }

  /** The tooltips of the code lenses currently rendered in the active editor (`''` for a lens without one). */
  async codeLensTooltips(): Promise<string[]> {
    return this.codeLenses.evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));
  }

  /** The visible lines of the active editor drawn struck through (a pending suggestion's removed lines), top to bottom. */
  async struckThroughLines(): Promise<string[]> {
    const lines = await this.active
      .locator('.view-lines .view-line')
      .evaluateAll((els) =>
        els
          .filter((el) => Array.from(el.querySelectorAll('span')).some((sp) => getComputedStyle(sp).textDecorationLine.includes('line-through')))
          .map((el) => ({ top: parseFloat((el as HTMLElement).style.top || '0'), text: el.textContent ?? '' })),
      );
    return lines.sort((a, b) => a.top - b.top).map((l) => l.text.replace(/\u00a0/g, ' '));
  }

  /** Moves the cursor to a 1-based line with Go to Line (Ctrl+G), as a keyboard user would. */
  async goToLine(line: number): Promise<void> {
    await this.focus();
    await this.page.keyboard.press('Control+G');
    const input = this.page.locator('.quick-input-widget input');
    await waitVisible(input, 'the Go to Line input', defaultTimeoutMs);
    await input.fill(`:${line}`);
    await input.press('Enter');
    await waitHidden(this.page.locator('.quick-input-widget'), 'Go to Line', defaultTimeoutMs);
  }

  /**
   * Opens the quick-fix menu (Ctrl+.) at the cursor and returns the row titled `title`, as a
   * keyboard user asks for it. Asks again when an attempt's menu never lists it: a key pressed while
   * something else held focus (a toast, a webview finishing its load) goes elsewhere, and a menu
   * asked for while the language server is still answering an earlier request can come back empty
   * ("No code actions available") and close. Each attempt logs what the menu showed.
   */
  async quickFix(title: string, timeoutMs = 60_000): Promise<Locator> {
    const menu = this.page.locator('.action-widget');
    const row = menu.locator('.monaco-list-row', { hasText: title }).first();
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 1; ; attempt++) {
      await this.focus();
      await this.page.keyboard.press('Control+.');
      try {
        await waitVisible(row, `the quick fix '${title}' in the Ctrl+. menu`, Math.max(1_000, Math.min(attemptTimeoutMs, deadline - Date.now())));
        return row;
      } catch (cause) {
        const shown =
          (await menu.allTextContents().catch(() => [])).join(' | ') ||
          (
            await this.page
              .locator('.monaco-editor-overlaymessage')
              .allTextContents()
              .catch(() => [])
          ).join(' | ');
        console.log(`[e2e] Ctrl+. attempt ${attempt} did not list '${title}'; the menu showed: ${JSON.stringify(shown)}`);
        if (Date.now() >= deadline) throw cause;
        await this.page.keyboard.press('Escape');
      }
    }
  }

  /** Focuses the n-th editor group (1-based) through its command, as Ctrl+n would. */
  async focusGroup(n: 1 | 2 | 3): Promise<void> {
    const ordinal = ['First', 'Second', 'Third'][n - 1];
    const group = this.page.locator('.editor-group-container').nth(n - 1);
    await this.palette().run(`View: Focus ${ordinal} Editor Group`);
    await waitVisible(group.and(this.page.locator('.active')), `editor group ${n} active`, defaultTimeoutMs);
  }

  /** Ctrl+S in the active editor; resolves once its tab's dirty mark is gone (the file on disk holds what it shows). */
  async save(): Promise<void> {
    await this.focus();
    await this.page.keyboard.press('Control+S');
    await waitHidden(this.activeTab().and(this.page.locator('.dirty')), 'the dirty mark gone after Ctrl+S', defaultTimeoutMs);
  }

  /** Ctrl+Z in the active editor (focused first, without moving the cursor off the text). */
  async undo(): Promise<void> {
    await this.focus();
    await this.page.keyboard.press('Control+Z');
  }

  /**
   * Puts the keyboard focus in the active editor through the workbench's own command: a click
   * would move the cursor, and could land on a code lens or an inline widget.
   */
  async focus(): Promise<void> {
    const input = this.active.locator('textarea.inputarea, .native-edit-context').first();
    await this.palette().run('View: Focus Active Editor Group');
    await waitUntil(
      async () => ((await input.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false)) ? true : undefined),
      `keyboard focus in the active editor (${String(input)})`,
      defaultTimeoutMs,
    );
  }

  /** Waits until no visible line of the active editor contains `text`. */
  async waitForNoText(text: string, timeoutMs = 30_000): Promise<void> {
    let lines: string[] = [];
    await waitUntil(
      async () => {
        lines = await this.visibleLines();
        return lines.some((l) => l.includes(text)) ? undefined : true;
      },
      () => `no editor line containing '${text}' (visible lines: ${JSON.stringify(lines.slice(0, 20))})`,
      timeoutMs,
    );
  }

  /** Waits until some visible line of the active editor contains `text`. */
  async waitForText(text: string, timeoutMs = 30_000): Promise<void> {
    let lines: string[] = [];
    await waitUntil(
      async () => {
        lines = await this.visibleLines();
        return lines.some((l) => l.includes(text)) ? true : undefined;
      },
      () => `editor line containing '${text}' (visible lines: ${JSON.stringify(lines.slice(0, 20))})`,
      timeoutMs,
    );
  }
}

/** The first of `all` whose text is exactly `text` (spaces and an icon's gap aside), or matches it, once it is visible. */
async function firstVisible(all: Locator, text: string | RegExp, what: string, timeoutMs: number): Promise<Locator> {
  const found = all.filter({ hasText: typeof text === 'string' ? new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) : text }).first();
  await waitVisible(found, `${what} ${String(text)}`, timeoutMs);
  return found;
}
