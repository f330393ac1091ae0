// approvePolicy(): writes within the allowed folders and those of a conversation allowed for the rest of it go
// through unasked; every other write is asked, a rename out of an allowed folder included.

import { describe, expect, it } from 'vitest';
import { approvePolicy } from '../../src/index.js';
import type { PolicyAnswer, WriteProposal } from '../../src/index.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

const open = toolsClosedAfterEach('approve-policy');

/** A policy whose `ask` answers `answer` and records what it was asked. */
function policyAnswering(answer: PolicyAnswer, allowPrefixes?: string[]) {
  const asked: WriteProposal[] = [];
  const policy = approvePolicy({
    ask: (proposal) => {
      asked.push(proposal);
      return answer;
    },
    ...(allowPrefixes ? { allowPrefixes } : {}),
  });
  return { asked, policy };
}

describe('approvePolicy', () => {
  it('asks only outside the allowed folders, a rename out of one included', async () => {
    const { asked, policy } = policyAnswering('deny', ['/memories/scratch/']);
    const tool = await open({ approve: policy.approve });
    expect((await tool.run({ command: 'create', path: '/memories/scratch/a.md', file_text: 'a' })).is_error).toBe(false);
    expect((await tool.run({ command: 'create', path: '/memories/scratch/deep/b.md', file_text: 'b' })).is_error).toBe(false);
    expect(asked).toEqual([]);
    const outside = await tool.run({ command: 'create', path: '/memories/scratchpad.md', file_text: 'c' });
    expect(outside.code).toBe('declined');
    const out = await tool.run({ command: 'rename', old_path: '/memories/scratch/a.md', new_path: '/memories/a.md' });
    expect(out.code).toBe('declined');
    expect(asked.map((p) => p.path)).toEqual(['/memories/scratchpad.md', '/memories/scratch/a.md']);
  });

  it("allows the rest of a conversation once asked so, and only that conversation's writes", async () => {
    const { asked, policy } = policyAnswering('allow-conversation');
    const tool = await open({ approve: policy.approve });
    const write = (path: string, source?: string) =>
      tool.run({ command: 'create', path, file_text: 'x' }, source === undefined ? {} : { source });
    expect((await write('/memories/1.md', 'c1')).is_error).toBe(false);
    expect((await write('/memories/2.md', 'c1')).is_error).toBe(false);
    expect((await write('/memories/3.md', 'c2')).is_error).toBe(false);
    expect((await write('/memories/4.md')).is_error).toBe(false);
    expect((await write('/memories/5.md')).is_error).toBe(false);
    expect(asked.map((p) => p.path)).toEqual(['/memories/1.md', '/memories/3.md', '/memories/4.md', '/memories/5.md']);
    expect(policy.allowsConversation('c1')).toBe(true);
    policy.revokeConversation('c1');
    await write('/memories/6.md', 'c1');
    expect(asked.at(-1)?.path).toBe('/memories/6.md');
  });

  it('allows a conversation the app names, without asking', async () => {
    const { asked, policy } = policyAnswering({ deny: 'no' });
    policy.allowConversation('c9');
    const tool = await open({ approve: policy.approve });
    expect((await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'a' }, { source: 'c9' })).is_error).toBe(false);
    expect((await tool.run({ command: 'create', path: '/memories/b.md', file_text: 'b' }, { source: 'c8' })).code).toBe('declined');
    expect(asked).toHaveLength(1);
  });

  it('refuses a bad prefix when it is made', () => {
    expect(() => approvePolicy({ ask: () => 'allow', allowPrefixes: ['/tmp'] })).toThrow(/must start with \/memories/);
  });
});
