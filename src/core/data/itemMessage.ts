/**
 * What a dataset item says to a file that is not itself the user message (instructions, an agent, a
 * skill: the file-kind table's `system-message` and `skill` kinds), checked before the first call:
 * - its user message: `harness.message` filled from the item, else the item's only variable, else
 *   its `input` variable;
 * - for a skill, whether the skill should load for it: the item's `trigger` (true or false, or the
 *   words a CSV cell holds: true/false, yes/no, 1/0). An item without one invokes the skill by name,
 *   as `/skill-name` does, so only its answer is scored.
 */
import { badInputError, diagnostic, lineLocation } from './diagnostics';
import type { Diagnostic } from './diagnostics';
import type { DataItem } from './item';
import { listTemplateVariables, lookupVariable, renderTemplate, valueText } from '../prompt/template';

/** The item variable that says whether a skill should load for the item. */
export const TRIGGER_FIELD = 'trigger';

const TRUE_WORDS = new Set(['true', 'yes', '1']);
const FALSE_WORDS = new Set(['false', 'no', '0']);

/** The item's trigger label: undefined when it has none, 'invalid' when it is not a yes or no. */
export function triggerOf(item: Pick<DataItem, 'vars'>): boolean | undefined | 'invalid' {
  const v = item.vars[TRIGGER_FIELD];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'boolean') return v;
  const word = String(v).trim().toLowerCase();
  return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : 'invalid';
}

/** The variables that may be the message: all but the trigger label. */
function messageFields(item: Pick<DataItem, 'vars'>): string[] {
  return Object.keys(item.vars).filter((k) => k !== TRIGGER_FIELD);
}

/** The item's user message. Throws (badInput, naming the item) when it has none; `checkItemMessages` finds that first. */
export function itemMessage(item: DataItem, message: string | undefined): string {
  if (message !== undefined) return renderTemplate(message, item.vars, { file: 'harness.message', itemId: item.id, syntax: 'copilot' });
  const fields = messageFields(item);
  const name = fields.length === 1 ? fields[0]! : fields.includes('input') ? 'input' : undefined;
  // Never an empty message in its place: the model would be scored on a question it was not asked.
  if (name === undefined) throw badInputError(checkItemMessages([item], { message, skill: false }));
  return valueText(item.vars[name]);
}

/** Problems with items as messages: no message to send, a trigger that is neither yes nor no. */
export function checkItemMessages(items: readonly DataItem[], o: { message: string | undefined; skill: boolean }): Diagnostic[] {
  const out: Diagnostic[] = [];
  const needed = o.message === undefined ? [] : listTemplateVariables(o.message, 1, 'copilot');
  for (const item of items) {
    const at = lineLocation(item.source.file, item.source.line);
    if (o.message !== undefined) {
      const missing = needed.find((v) => lookupVariable(item.vars, v.name) === undefined);
      if (missing) out.push(diagnostic(at, `item has no "${missing.name}" variable, which harness.message uses`, { field: missing.name }));
    } else {
      const fields = messageFields(item);
      if (fields.length !== 1 && !fields.includes('input')) {
        const has = fields.length === 0 ? 'no variable' : `the variables ${fields.map((f) => `"${f}"`).join(', ')}`;
        out.push(diagnostic(at, `item has ${has}; which one is the user's message? Name it "input", or set harness.message in the run spec, e.g. message: "{{${fields[0] ?? 'question'}}}"`, { field: 'harness.message' }));
      }
    }
    if (o.skill && triggerOf(item) === 'invalid') {
      out.push(diagnostic(at, `"${TRIGGER_FIELD}" is ${JSON.stringify(item.vars[TRIGGER_FIELD])}; write true when the skill should load for this request, false when it should not`, { field: TRIGGER_FIELD }));
    }
  }
  return out;
}

/** Whether any item says when the skill should load (such a run scores the trigger, so it needs a scorer). */
export function hasTriggerLabels(items: readonly DataItem[]): boolean {
  return items.some((i) => typeof triggerOf(i) === 'boolean');
}
