// The SDK's client fits the shape the Memory Stores remote types for itself (so /sync needs no SDK to type-check).

import Anthropic from '@anthropic-ai/sdk';
import { describe, expectTypeOf, it } from 'vitest';
import type { MemoryStoreRemoteOptions } from '../../../src/entries/sync.js';

describe('memoryStoreRemote({ client })', () => {
  it("takes the SDK's client as it is", () => {
    expectTypeOf<Anthropic>().toExtend<MemoryStoreRemoteOptions['client']>();
    expectTypeOf<{ beta: object }>().not.toExtend<MemoryStoreRemoteOptions['client']>();
  });
});
