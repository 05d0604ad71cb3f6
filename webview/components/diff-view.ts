/** <ratchet-diff-view>: the parent → child diff of a candidate, line by line, as text. */
import { el, setChildren } from '../dom';
import { diffModel } from '../model/diffLines';

const SIGN = { add: '+', del: '-', same: ' ', fold: ' ' } as const;

export class DiffView extends HTMLElement {
  show(parentText: string | undefined, childText: string): void {
    this.setAttribute('role', 'region');
    this.setAttribute('aria-label', 'Diff from parent to candidate');
    if (parentText === undefined) {
      setChildren(this, [el('p', { className: 'note', text: 'No parent text: this is a root candidate, shown in full.' }), el('pre', { className: 'diff', text: childText })]);
      return;
    }
    const model = diffModel(parentText, childText);
    const pre = el('pre', { className: 'diff' });
    for (const line of model.lines) {
      pre.append(el('div', { className: `diff-line diff-${line.kind}`, text: `${SIGN[line.kind]} ${line.text}` }));
    }
    setChildren(this, [el('p', { className: 'note', text: model.added + model.removed === 0 ? 'No change from the parent.' : `${plural(model.added, 'line')} added, ${model.removed} removed.` }), pre]);
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

customElements.define('ratchet-diff-view', DiffView);
