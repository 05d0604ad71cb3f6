/**
 * Whether an agent loads a skill for a request: the first step of evaluating a `SKILL.md`.
 *
 * An agent with skills first sees only each skill's name and description (VS Code's "discovery"
 * step) and loads a skill's body when the description fits the request. Ratchet asks the agent
 * model the same question: the skill under evolution listed by its name and its description (this
 * version's), the item's message, and "which skill do you load: its name, or none". That is the
 * description's whole job, so it is measured on its own: an item that says `trigger: false` passes
 * when the skill stays unloaded, one that says `trigger: true` fails when it does not load.
 *
 * Reading the answer: the last line that names the skill or says none decides. An answer that does
 * neither leaves the skill unloaded — as with a real agent, a skill loads only when the model picks
 * it — and the evaluation's output and reason say plainly that the model gave no choice.
 */
import type { ChatMessage } from '../llm/types';

export interface SkillCard {
  name: string;
  description: string;
}

export function chooserMessages(skill: SkillCard, request: string): ChatMessage[] {
  const system = [
    'You are an agent with skills. A skill is a set of instructions you load only when it fits the request; you see each skill by its name and description.',
    '',
    'Skills:',
    `- ${skill.name}: ${skill.description.replace(/\s+/g, ' ')}`,
    '',
    'Decide whether the request needs one of these skills. Answer with the name of the skill to load, or none, on the last line.',
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: request },
  ];
}

export type SkillChoice = { loaded: boolean; read: true } | { loaded: false; read: false };

/** What the model chose: the last line naming the skill or saying "none". */
export function readSkillChoice(answer: string, name: string): SkillChoice {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const named = new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, 'i');
  const none = /(?<![\w-])none(?![\w-])/i;
  const lines = answer.split('\n').reverse();
  for (const line of lines) {
    const says = named.test(line);
    const refuses = none.test(line);
    if (says !== refuses) return { loaded: says, read: true };
  }
  return { loaded: false, read: false };
}
