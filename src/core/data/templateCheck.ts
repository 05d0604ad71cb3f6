/**
 * Every item must supply every variable the prompt uses, checked before the first LLM call: a hole
 * found mid-run would cost money and, scored as a failure, bias the comparison.
 */
import type { Template } from '../prompt/template';
import { lookupVariable } from '../prompt/template';
import { diagnostic, lineLocation } from './diagnostics';
import type { Diagnostic } from './diagnostics';
import { RESERVED_FLAT_KEYS } from './item';
import type { DataItem } from './item';

export function checkItemsAgainstTemplate(items: readonly DataItem[], template: Pick<Template, 'file' | 'variables'>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const promptName = baseName(template.file);
  for (const item of items) {
    const reported = new Set<string>();
    for (const v of template.variables) {
      if (reported.has(v.name) || lookupVariable(item.vars, v.name) !== undefined) continue;
      reported.add(v.name);
      let message = `item has no "${v.name}" variable, which ${promptName} uses on line ${v.line}`;
      if ((RESERVED_FLAT_KEYS as readonly string[]).includes(v.root)) {
        message += `; "${v.root}" is reserved in flat items (id, expected, answer, assert), so put variables under "vars" or rename it in the prompt`;
      }
      out.push(diagnostic(lineLocation(item.source.file, item.source.line), message, { field: v.name }));
    }
  }
  return out;
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
