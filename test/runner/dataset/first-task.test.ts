import { describe, expect, it } from 'vitest';
import { firstUserTask } from '../../../runner/src/dataset/first-task.js';
import { parseScenario } from '@gaia2/contract';

describe('the first user task', () => {
  it('is found in a {content} dict or a [{name, value}] list', () => {
    const s = (args: unknown) => parseScenario({ apps: [], events: [], completed_events: [{ action: { function: 'send_message_to_agent', args } }] });
    expect(firstUserTask(s({ content: 'Book a cab' }))).toBe('Book a cab');
    expect(firstUserTask(s([{ name: 'content', value: 'Find Hana' }]))).toBe('Find Hana');
    expect(firstUserTask(s([{ name: 'other', value: 'x' }]))).toBeNull();
  });
});
