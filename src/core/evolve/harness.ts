/**
 * How one version of a file meets the agent on one item: the harness. What the evaluator scores is
 * the harness's answer; which harness runs is the run spec's `harness` (core/run/specTypes.ts) and
 * the file's kind (the file-kind table's `evaluatedAs`):
 * - `user-message`: the version, its variables filled from the item, is the user message;
 * - `system-message`: the version (variables filled) is the system message, the item's message the
 *   user message — the instructions' effect on the model's answers;
 * - `skill`: for an item that says whether the skill should load (`trigger`), the model first
 *   decides from the skill's description (skillTrigger.ts); a wrong decision scores 0 without an
 *   answer, a right "not loaded" scores 1; a loaded skill's body is the system message of the answer.
 * A `harness: command` run gets its harness from its face (src/node/runs/commandHarness.ts).
 */
import type { DataItem } from '../data/item';
import { itemMessage, triggerOf } from '../data/itemMessage';
import type { EvaluatedAs } from '../files/fileKinds';
import { RatchetError } from '../errors';
import type { LlmClient } from '../ports';
import { skillParts } from '../prompt/evolvable';
import type { Template } from '../prompt/template';
import { renderPrompt } from '../prompt/template';
import type { ChatMessage } from '../llm/types';
import type { HarnessSpec, ModelSpec } from '../run/specTypes';
import { chooserMessages, readSkillChoice } from './skillTrigger';

export interface AgentAnswer {
  /** What the agent was given, as the proposer's traces show it. */
  input: string;
  /** What is scored (or judged): the agent's final answer, reasoning removed (src/core/llm/answer.ts). */
  output: string;
  /** The agent's reasoning, apart from its answer: journaled, never scored. */
  thinking?: string;
  /** Why the answer has no final answer to score: it was cut off at the length limit or by a content filter (#25). */
  cutOff?: string;
  /** The answer's token log-probabilities, when the endpoint gave them (Soft Elo). */
  tokenLogprobs?: number[];
  /** Decided before any scorer: a skill that loaded when it should not have, or did not when it should. */
  decided?: { score: number; reason: string };
}

export interface AgentHarness {
  answer(versionText: string, item: DataItem, signal: AbortSignal): Promise<AgentAnswer>;
}

export interface ChatHarnessDeps {
  llm: LlmClient;
  /** The prompt's template: its file, first line and syntax (the text is each version's). */
  template: Template;
  agent: ModelSpec;
  logprobs: boolean;
  evaluatedAs: EvaluatedAs;
  /** The item's user message (`harness.message`), where the kind needs one. */
  message: string | undefined;
  /** A skill's name, as the agent lists it. */
  skillName?: string;
}

/** What the proposer is told about a file that is not a plain prompt. */
export function proposerNote(evaluatedAs: EvaluatedAs): string | undefined {
  switch (evaluatedAs) {
    case 'user-message':
      return undefined;
    case 'system-message':
      return 'The prompt is a set of instructions an agent reads as its system message before each request (the examples show the requests and the answers): improve how it steers the answers.';
    case 'skill':
      return 'The prompt is an agent skill (SKILL.md): between the --- lines its description, which an agent reads to decide whether to load the skill for a request (keep it one `description:` entry, under 1024 characters, saying what the skill does and when to use it), then the instructions the agent follows once it is loaded. Revise both, and return both.';
  }
}

/** The agent's LLM calls per evaluation at most (the cost estimate): none when a command runs the agent. */
export function agentCallsPerEvaluation(harness: HarnessSpec, evaluatedAs: EvaluatedAs): number {
  if (harness.type === 'command') return 0;
  return evaluatedAs === 'skill' ? 2 : 1;
}

export function chatHarness(d: ChatHarnessDeps): AgentHarness {
  const call = async (messages: ChatMessage[], signal: AbortSignal) => {
    const res = await d.llm.chat(
      {
        role: 'agent',
        messages,
        temperature: d.agent.temperature ?? 0,
        // The run spec's limit is part of what is evaluated (A3): an answer cut off at it stays cut off.
        ...(d.agent.maxTokens === undefined ? {} : { maxTokens: d.agent.maxTokens, onTruncated: 'keep' as const }),
        ...(d.agent.stop === undefined || d.agent.stop.length === 0 ? {} : { stop: [...d.agent.stop] }),
        ...(d.logprobs ? { logprobs: true } : {}),
        sampleIndex: 0,
      },
      signal,
    );
    return {
      text: res.text,
      ...(res.logprobs ? { tokenLogprobs: res.logprobs.map((t) => t.logprob) } : {}),
      ...(res.reasoning === undefined ? {} : { thinking: res.reasoning }),
      ...(res.truncated
        ? { cutOff: `the answer was ${res.filtered ? "stopped by the endpoint's content filter" : 'cut off'} at ${res.usage.completionTokens} tokens (finish reason "${res.finishReason}") before it gave a final answer` }
        : {}),
    };
  };
  const fill = (text: string, item: DataItem) => renderPrompt({ ...d.template, text }, item.vars, item.id);

  return {
    async answer(versionText, item, signal) {
      if (d.evaluatedAs === 'user-message') {
        const input = fill(versionText, item);
        const res = await call([{ role: 'user', content: input }], signal);
        return { input, output: res.text, ...answered(res) };
      }
      const message = itemMessage(item, d.message);
      let body = versionText;
      if (d.evaluatedAs === 'skill') {
        const parts = skillParts(versionText);
        // The loop refuses such a version before it is evaluated, and the run a skill without a description.
        if (typeof parts === 'string') throw new RatchetError('internal', `A skill version reached the agent although ${parts}.`);
        body = parts.body;
        const should = triggerOf(item);
        if (typeof should === 'boolean') {
          const name = d.skillName ?? 'skill';
          const chooser = chooserMessages({ name, description: parts.description.value }, message);
          const chose = await call(chooser, signal);
          // A choice cut off is not read as one (#25).
          const choice = readSkillChoice(chose.cutOff === undefined ? chose.text : '', name);
          const said = choice.read ? (choice.loaded ? `loaded ${name}` : 'loaded no skill') : 'named neither the skill nor none, so no skill loaded';
          if (choice.loaded !== should) {
            const reason = should ? `the skill should load for this request, and the model ${said}` : `the skill should not load for this request, and the model ${said}`;
            return { input: message, output: `(skill check: the model ${said})`, decided: { score: 0, reason } };
          }
          if (!should) return { input: message, output: `(skill check: the model ${said}, as it should)`, decided: { score: 1, reason: 'the skill rightly stayed unloaded' } };
        }
      }
      const system = fill(body, item);
      const res = await call(
        [
          { role: 'system', content: system },
          { role: 'user', content: message },
        ],
        signal,
      );
      return { input: message, output: res.text, ...answered(res) };
    },
  };
}

/** What an answer carries besides its text: logprobs, the reasoning, whether it was cut off. */
function answered(res: Pick<AgentAnswer, 'tokenLogprobs' | 'thinking' | 'cutOff'>): Pick<AgentAnswer, 'tokenLogprobs' | 'thinking' | 'cutOff'> {
  return {
    ...(res.tokenLogprobs ? { tokenLogprobs: res.tokenLogprobs } : {}),
    ...(res.thinking === undefined ? {} : { thinking: res.thinking }),
    ...(res.cutOff === undefined ? {} : { cutOff: res.cutOff }),
  };
}
