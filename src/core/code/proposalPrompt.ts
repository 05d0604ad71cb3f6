/**
 * What the proposer is asked: the parent program, the regions it may change, other programs of the
 * search with their public metrics, a meta recommendation, and the answer format of the proposal
 * kind — ShinkaEvolve's tags, so a Shinka user's habits carry over. Fix mode shows the broken
 * program with what its evaluator said.
 */
import type { ChatMessage } from '../llm/types';
import type { ProgramRecord } from './database';

const FORMAT: Record<'diff' | 'full' | 'cross', string> = {
  diff: [
    'Answer with <NAME>a short name</NAME>, <DESCRIPTION>what you change and why</DESCRIPTION>, then <DIFF> holding one or more blocks:',
    '<<<<<<< SEARCH',
    'exact lines of the current program',
    '=======',
    'their replacement',
    '>>>>>>> REPLACE',
    '</DIFF>. SEARCH text must match the program exactly and lie inside the editable regions.',
  ].join('\n'),
  full: 'Answer with <NAME>a short name</NAME>, <DESCRIPTION>what you change and why</DESCRIPTION>, then <CODE> holding the whole new program in one fenced code block </CODE>. Keep the code outside the EVOLVE-BLOCK regions exactly as it is.',
  cross:
    'Combine the best ideas of the current program and the other programs shown. Answer with <NAME>a short name</NAME>, <DESCRIPTION>which ideas you combine</DESCRIPTION>, then <CODE> holding the whole new program in one fenced code block </CODE>. Keep the code outside the EVOLVE-BLOCK regions exactly as it is.',
};

export function proposalMessages(o: {
  kind: 'diff' | 'full' | 'cross';
  path: string;
  parentText: string;
  parent: Readonly<ProgramRecord>;
  spans: string;
  inspirations: { record: Readonly<ProgramRecord>; text: string }[];
  fix: boolean;
  /** In fix mode, the end of what the broken program printed. */
  output?: string;
  hint?: string;
}): ChatMessage[] {
  const metrics = (r: Readonly<ProgramRecord>): string => [r.score === undefined ? undefined : `score ${r.score.toPrecision(6)}`, r.publicMetrics ? JSON.stringify(r.publicMetrics) : undefined, r.feedback].filter((x) => x).join('; ');
  const system = ['You are an expert programmer improving a program that an evaluator scores; higher is better.', `Only the EVOLVE-BLOCK regions (${o.spans}) may change; everything outside them is fixed.`, FORMAT[o.kind]].join('\n\n');
  const parts = [
    o.fix ? `This program is incorrect; fix it first. The evaluator said: ${o.parent.feedback ?? 'no reason given'}` : `Current program (${metrics(o.parent) || 'not scored yet'}):`,
    fenceOf(o.parentText),
    ...(o.fix && o.output ? ['What it printed (the end):', fenceOf(o.output)] : []),
  ];
  for (const insp of o.inspirations) parts.push(`Another program of this search (${metrics(insp.record)}):`, fenceOf(insp.text));
  if (o.hint) parts.push(`A recommendation from the search so far: ${o.hint}`);
  return [
    { role: 'system', content: system },
    { role: 'user', content: parts.join('\n\n') },
  ];
}

function fenceOf(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}
