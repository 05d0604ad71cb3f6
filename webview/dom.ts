/**
 * Element construction for the panel. Text always goes in through text nodes / textContent, never
 * through HTML parsing, so an LLM output such as `<img src=x onerror=…>` shows as those characters.
 */
export interface ElProps {
  className?: string;
  text?: string;
  title?: string;
  attrs?: Record<string, string | undefined>;
}

export type Child = Node | string | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: ElProps = {}, children: Child[] = []): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  applyProps(node, props);
  append(node, children);
  return node;
}

/** Custom elements (vscode-*, ratchet-*) by tag name. */
export function custom<T extends HTMLElement = HTMLElement>(tag: string, props: ElProps = {}, children: Child[] = []): T {
  const node = document.createElement(tag) as T;
  applyProps(node, props);
  append(node, children);
  return node;
}

function applyProps(node: HTMLElement, props: ElProps): void {
  if (props.className) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  if (props.title !== undefined) node.title = props.title;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value !== undefined) node.setAttribute(name, value);
  }
}

function append(node: HTMLElement, children: Child[]): void {
  for (const child of children) {
    if (child === undefined || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replaces an element's children; the string form is set as text, never parsed. */
export function setChildren(node: Element, children: Child[]): void {
  node.replaceChildren(...children.filter((c): c is Node | string => c !== undefined && c !== false));
}

export function setText(node: Element, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

export function icon(name: string, label?: string): HTMLElement {
  const i = custom('vscode-icon', { attrs: { name, 'aria-hidden': label ? undefined : 'true', label } });
  return i;
}

/** A codicon glyph from the page's codicon.css: far cheaper than a <vscode-icon> in recycled list rows. */
export function codicon(name: string): HTMLElement {
  return el('span', { className: `codicon codicon-${name}`, attrs: { 'aria-hidden': 'true' } });
}
