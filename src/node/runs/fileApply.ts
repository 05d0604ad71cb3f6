/**
 * The apply point of a face with no editor (`ratchet mcp`, and what the CLI's --apply does): the
 * edit is written atomically, and only over the text it was computed on. A file that changed
 * meanwhile is not written over ('stale'); one that already holds the edit's result is that edit,
 * written before an interruption ('applied').
 */
import type { RunControl, Suggestion } from '../../core/journal/control';
import type { NodeFiles } from '../files';

export function fileApply(files: NodeFiles): RunControl['apply'] {
  return async (s: Suggestion) => {
    const now = await files.tryReadText(s.file);
    if (now === s.newText) return 'applied';
    if (now !== s.baseText) return 'stale';
    await files.writeTextAtomic(s.file, s.newText);
    return 'applied';
  };
}
