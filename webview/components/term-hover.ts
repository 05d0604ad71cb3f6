/**
 * The hover of a statistical term (`.term[title]`: "evidence ×3.1", "(needs ×20)", …): shown at once
 * in a card under the term, kept inside the panel however narrow it is, instead of the browser's
 * tooltip a second later. The sentence stays in the element's `title` (its accessible description,
 * and what a keyboard or screen-reader user gets); while the card shows, the title is set aside so
 * the browser does not draw its own tooltip over the card.
 */
import { el } from '../dom';

const MARGIN = 8;

export class TermHover {
  private readonly card = el('div', { className: 'term-hover', attrs: { role: 'tooltip' } });
  private target: HTMLElement | undefined;

  constructor(private readonly root: HTMLElement) {
    this.card.hidden = true;
    root.append(this.card);
    root.addEventListener('pointerover', (e) => this.enter(e.target));
    root.addEventListener('focusin', (e) => this.enter(e.target));
    root.addEventListener('pointerout', (e) => this.leave(e.relatedTarget));
    root.addEventListener('focusout', () => this.hide());
    root.addEventListener('scroll', () => this.hide(), { capture: true, passive: true });
  }

  /** The sentence on screen; undefined while no card shows. */
  get text(): string | undefined {
    return this.card.hidden ? undefined : (this.card.textContent ?? '');
  }

  private enter(node: EventTarget | null): void {
    const term = node instanceof Element ? node.closest<HTMLElement>('.term') : null;
    if (!term || term === this.target) return;
    this.hide();
    const text = term.title || term.dataset.hover;
    if (!text) return;
    this.target = term;
    term.dataset.hover = text;
    term.removeAttribute('title');
    this.card.textContent = text;
    this.card.hidden = false;
    this.place(term);
  }

  private leave(to: EventTarget | null): void {
    if (this.target && to instanceof Node && this.target.contains(to)) return;
    this.hide();
  }

  private hide(): void {
    const term = this.target;
    this.target = undefined;
    this.card.hidden = true;
    if (term?.dataset.hover !== undefined) {
      term.title = term.dataset.hover;
      delete term.dataset.hover;
    }
  }

  /** Under the term, or above it when the panel has no room below; never past either side. */
  private place(term: HTMLElement): void {
    const box = term.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    const height = document.documentElement.clientHeight;
    this.card.style.maxWidth = `${Math.max(120, Math.min(360, width - 2 * MARGIN))}px`;
    const card = this.card.getBoundingClientRect();
    const left = Math.max(MARGIN, Math.min(box.left, width - card.width - MARGIN));
    const below = box.bottom + 4;
    const top = below + card.height > height - MARGIN && box.top - card.height - 4 > MARGIN ? box.top - card.height - 4 : below;
    this.card.style.left = `${left}px`;
    this.card.style.top = `${top}px`;
  }
}
