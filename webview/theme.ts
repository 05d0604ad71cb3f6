/**
 * Canvas charts cannot resolve CSS variables, so chart colours are read from the --vscode-*
 * variables VS Code sets on <html>/<body> and re-read when the theme changes.
 */
export function themeColor(name: string, fallbackVar = 'foreground'): string {
  const style = getComputedStyle(document.body);
  const value = style.getPropertyValue(`--vscode-${name}`).trim();
  if (value) return value;
  const fallback = style.getPropertyValue(`--vscode-${fallbackVar}`).trim();
  // Outside VS Code (tests, the bench page) no variable exists; the browser's text colour is
  // the only colour that is guaranteed to read on the page background.
  return fallback || style.color || 'currentColor';
}

/** uPlot band fills need a concrete colour; a translucent one keeps the points and lines over it readable. */
export function themeColorAlpha(color: string): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  return hex ? `#${hex[1]}33` : `color-mix(in srgb, ${color} 20%, transparent)`;
}

/** Calls `listener` when VS Code switches theme (it rewrites body's class and data attribute). */
export function onThemeChange(listener: () => void): () => void {
  const observer = new MutationObserver(() => listener());
  observer.observe(document.body, { attributes: true, attributeFilter: ['class', 'data-vscode-theme-kind'] });
  return () => observer.disconnect();
}
