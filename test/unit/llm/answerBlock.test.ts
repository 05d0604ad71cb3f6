// The proposer's revised prompt (and the meta role's rubric) as real models write it back (#25).
import { describe, expect, it } from 'vitest';
import { readAnswerBlock } from '../../../src/core/llm/answerBlock';
import { blockLines } from '../../../src/core/llm/blockLines';
import { PROMPT_FENCE_INFOS, readProposal } from '../../../src/core/evolve/proposer';

const lines = blockLines({ answerTag: 'ANSWER-0a1b2c3d4e5f' }, 'PROMPT');
const read = (answer: string) => readAnswerBlock(answer, lines, { infos: PROMPT_FENCE_INFOS, what: 'revised prompt', tag: 'prompt' });
const PROMPT = 'Solve the problem step by step.\nEnd with "Answer: <number>".';

describe("the block between the call's own lines", () => {
  it("is the call's hex under its label", () => {
    expect(lines).toEqual({ open: '<<<PROMPT-0a1b2c3d4e5f>>>', close: '<<<END PROMPT-0a1b2c3d4e5f>>>' });
  });

  it('reads the text between them, whatever the prose and fences around it', () => {
    const answer = `Reasoning: be explicit.\n\n${lines.open}\n${PROMPT}\n${lines.close}\n\nFor example, the model would now answer:\n\`\`\`\nAnswer: 18\n\`\`\``;
    expect(read(answer)).toEqual({ ok: true, value: { text: PROMPT, before: 'Reasoning: be explicit.' } });
  });

  it('keeps a prompt whose own fenced examples use the same fence as anything else', () => {
    const prompt = 'Reply in JSON:\n```\n{"answer": 1}\n```\nNothing else.';
    expect(read(`${lines.open}\n${prompt}\n${lines.close}`)).toMatchObject({ ok: true, value: { text: prompt } });
  });

  it('finds its lines in other case and decoration, and unwraps a fence the model put inside them', () => {
    const answer = `**${lines.open.toLowerCase()}**\n\`\`\`markdown\n${PROMPT}\n\`\`\`\n**${lines.close.toLowerCase()}**`;
    expect(read(answer)).toMatchObject({ ok: true, value: { text: PROMPT } });
  });

  it('takes the last complete block (a draft, then the final one) and ignores a line that restates both', () => {
    const answer = `I will write it between ${lines.open} and ${lines.close}.\n${lines.open}\ndraft\n${lines.close}\nBetter:\n${lines.open}\n${PROMPT}\n${lines.close}`;
    expect(read(answer)).toMatchObject({ ok: true, value: { text: PROMPT } });
  });

  it('refuses an answer that ends inside the block', () => {
    expect(read(`${lines.open}\n${PROMPT}\nAnd then`)).toEqual({ ok: false, problem: `Your answer ends inside the block opened by ${lines.open}: the line ${lines.close} never came.` });
  });
});

describe('a fenced block, read the CommonMark way', () => {
  it.each([
    ['```prompt', `\`\`\`prompt\n${PROMPT}\n\`\`\``],
    ['```markdown', `\`\`\`markdown\n${PROMPT}\n\`\`\``],
    ['a bare fence', `\`\`\`\n${PROMPT}\n\`\`\``],
    ['~~~', `~~~\n${PROMPT}\n~~~`],
    ['an indented fence', `  \`\`\`\`text\n  ${PROMPT.replace('\n', '\n  ')}\n  \`\`\`\``],
    ['a fence in a list item', `1. The prompt:\n   \`\`\`prompt\n   ${PROMPT.replace('\n', '\n   ')}\n   \`\`\``],
    ['<prompt> tags', `<prompt>\n${PROMPT}\n</prompt>`],
  ])('%s', (_name, answer) => {
    expect(read(`Reasoning: clearer.\n\n${answer}`)).toMatchObject({ ok: true, value: { text: PROMPT } });
  });

  it('closes at the first fence that closes it: a fenced example after the block never reaches the prompt', () => {
    const answer = `\`\`\`prompt\n${PROMPT}\n\`\`\`\n\nWith it the model answers like this:\n\`\`\`json\n{"answer": 18}\n\`\`\``;
    expect(read(answer)).toMatchObject({ ok: true, value: { text: PROMPT } });
  });

  it('prefers the ```prompt block over other allowed blocks, and refuses to guess between two others', () => {
    expect(read(`\`\`\`text\nold\n\`\`\`\n\`\`\`prompt\n${PROMPT}\n\`\`\``)).toMatchObject({ ok: true, value: { text: PROMPT } });
    expect(read('```markdown\none\n```\n```text\ntwo\n```')).toEqual({ ok: false, problem: 'Your answer has 2 fenced blocks and it is not clear which is the revised prompt.' });
  });

  it('refuses an answer that ends inside an open fence, even after a complete block (cut off, or closed early by a fence inside the prompt)', () => {
    const earlyClose = `\`\`\`prompt\nReply in JSON:\n\`\`\`json\n{"a": 1}\n\`\`\`\nNothing else.\n\`\`\``;
    const problem = read(earlyClose);
    expect(problem.ok).toBe(false);
    expect(problem).toMatchObject({ problem: expect.stringMatching(/ends inside a fenced block that is never closed.*<<<PROMPT-0a1b2c3d4e5f>>>/) });
    expect(read(`\`\`\`prompt\n${PROMPT}\n\`\`\`\nAnd a variant:\n\`\`\`prompt\nSolve it`).ok).toBe(false);
  });

  it('does not take a fenced block of another language for the prompt', () => {
    expect(read('Here is code:\n```python\nprint(1)\n```')).toMatchObject({ ok: false });
  });
});

describe('readProposal', () => {
  it('keeps the reasoning paragraph without its label, and refuses an empty prompt', () => {
    expect(readProposal(`**Reasoning:** be explicit.\n${lines.open}\n${PROMPT}\n${lines.close}`, lines)).toEqual({ ok: true, value: { text: PROMPT, reasoning: 'be explicit.' } });
    expect(readProposal(`${lines.open}\n\n${lines.close}`, lines)).toEqual({ ok: false, problem: `The revised prompt between ${lines.open} and ${lines.close} is empty.` });
  });
});
