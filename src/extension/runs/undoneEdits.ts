/**
 * Whether an applied edit still stands in the editor. The run knows the edit it offered (the whole
 * file before and after, its `suggestion` event); after Accept, a Ctrl+Z that brings the file back
 * to exactly the text the edit replaced takes the edit back without the engine ever hearing of it.
 * The store learns it here, as an `edit/undone` the labels fold like any answer, and unlearns it
 * when Ctrl+Y (or typing) brings the edit's text back. Any other text is the user's own editing on
 * top of the edit, which still stands. No VS Code import: fed the document's path and text.
 */
import type { EditUndoneEvent } from '../../panelState/types';
import type { RunStore } from './runStore';

/**
 * The `edit/undone` events that bring the store's runs in line with the file at `path` as the
 * editor holds it now. `readText` is called only for a file an applied edit was offered on: this
 * runs on every keystroke in every file.
 */
export function undoneChanges(store: RunStore, path: string, readText: () => string, at: number): EditUndoneEvent[] {
  const changes: EditUndoneEvent[] = [];
  let text: string | undefined;
  for (const { runId } of store.runs()) {
    const run = store.get(runId);
    if (!run) continue;
    for (const [candidateId, offered] of run.detail.suggestions) {
      const node = run.state.candidates[candidateId];
      if (offered.file !== path || node?.applied === undefined) continue;
      text ??= readText();
      const holds = node.undone === true;
      const undone = holds ? text !== offered.newText : text === offered.baseText;
      if (undone !== holds) changes.push({ type: 'edit/undone', runId, at, candidateId, undone });
    }
  }
  return changes;
}
