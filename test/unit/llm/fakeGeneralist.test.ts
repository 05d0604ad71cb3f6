// The fake endpoint's generalist model plays each role by what the request asks, as one real model
// does for a user who set only ratchet.models.default. The requests are the ones Ratchet's roles
// build, so a change of their wording that the generalist would misread fails here.
import { describe, expect, it } from 'vitest';
import { itemJudgeCall } from '../../../src/core/evolve/judge';
import { challengerMessages } from '../../../src/core/zero/challengerPrompt';
import { composeMessages, decomposeMessages } from '../../../src/core/zero/amplification';
import { taskScoreCall } from '../../../src/core/zero/taskJudge';
import { modelIds, normalizeScenario, roleOfModel } from '../../fixtures/fakeOpenAI/scenario';

describe('fake endpoint: a generalist model', () => {
  const s = normalizeScenario({ generalists: ['llama3.1'] });
  const role = (messages: readonly { role: string; content: string }[]) => roleOfModel(s, 'llama3.1', messages);

  it('is listed, and plays the proposer for the proposer’s instructions and the agent for a bare task', () => {
    expect(modelIds(s)).toContain('llama3.1');
    expect(
      role([
        { role: 'system', content: 'You improve prompts for a language model.' },
        { role: 'user', content: '…' },
      ]),
    ).toBe('proposer');
    expect(role([{ role: 'user', content: 'Problem: 3 + 4?' }])).toBe('agent');
    expect(roleOfModel(s, 'gpt-4o-mini', [])).toBeUndefined();
  });

  it('plays the Challenger and the judge of a zero-data round from their requests', () => {
    expect(role(challengerMessages({ body: 'Question: {{question}}', variables: ['question'], count: 4 }))).toBe('challenger');
    expect(role(decomposeMessages('What is 12 + 30?'))).toBe('challenger');
    expect(role(composeMessages('What is 12 + 30?', [{ subtask: '12 + 30', answer: '42' }]))).toBe('challenger');
    expect(role(taskScoreCall('Correct answers score 1.', 'What is 12 + 30?', '42').messages)).toBe('validator');
    expect(role(itemJudgeCall('Prefer the correct answer.', 'What is 12 + 30?', '42', '41').messages)).toBe('validator');
  });
});
