// memory_search through the SDK's toolRunner over HTTP: the loopback Messages API server receives the bounded
// search_result blocks, as sent on the wire.

import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { memorySearchTool, memoryTool } from '../../src/entries/sdk.js';
import { startMessagesApiServer } from '../helpers/messages-api-server.js';
import type { MessagesApiServer } from '../helpers/messages-api-server.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

const open = toolsClosedAfterEach('search-loopback');
let server: MessagesApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('memory_search over HTTP', () => {
  for (const stream of [false, true]) {
    it(`sends search_result blocks, a no-match text and an error result (stream: ${stream})`, async () => {
      const tool = await open({ limits: { maxReplyChars: 10_000 } });
      const body = Array.from({ length: 40 }, (_, i) => `passport number ${i} ${'p'.repeat(400)}`).join('\n');
      for (let i = 0; i < 20; i++) await tool.execute({ command: 'create', path: `/memories/docs/${i}.md`, file_text: body });
      await tool.execute({ command: 'create', path: '/memories/prefs.md', file_text: 'a\nb\nlikes green tea\nc\n' });
      const uses = [{ query: 'green tea' }, { query: 'passport', limit: 20 }, { query: 'ferry' }, { query: 'x', limit: -1 }];
      server = await startMessagesApiServer([
        { toolUses: uses.map((input, i) => ({ id: `toolu_${i}`, name: 'memory_search', input })) },
        { text: 'Done.' },
      ]);
      const client = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
      await client.beta.messages
        .toolRunner({
          model: 'claude-sonnet-4-5',
          max_tokens: 100,
          messages: [{ role: 'user', content: 'hi' }],
          tools: [memoryTool(tool), memorySearchTool(tool)],
          stream,
        })
        .runUntilDone();
      const [tea, passport, ferry, bad] = server.toolResults();
      expect(tea?.content).toEqual([
        {
          type: 'search_result',
          source: '/memories/prefs.md#L2-L4',
          title: '/memories/prefs.md',
          content: [
            { type: 'text', text: '     2\tb' },
            { type: 'text', text: '     3\tlikes green tea' },
            { type: 'text', text: '     4\tc' },
          ],
          citations: { enabled: true },
        },
      ]);
      const cut = passport?.content as Array<{ type: string; text?: string; content?: unknown[] }>;
      expect(JSON.stringify(cut).length).toBeLessThanOrEqual(10_000);
      expect(cut.at(-1)).toMatchObject({ type: 'text', text: expect.stringMatching(/^\[Search results cut to fit/) });
      expect(cut.slice(0, -1).every((block) => block.type === 'search_result' && (block.content?.length ?? 0) > 0)).toBe(true);
      expect(ferry).toMatchObject({ content: 'No file in /memories matches "ferry".' });
      expect(ferry?.is_error).toBeUndefined();
      expect(bad).toMatchObject({ is_error: true, content: 'Error: The search limit must be a whole number from 1 to 1000, not -1.' });
    });
  }
});
