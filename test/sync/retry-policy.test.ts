// The backoff a failure gets: 1 s doubling to 5 min, jittered a quarter either way, never sooner than the server
// asks; none for what waiting does not mend. The engine's use of it over time: schedule.test.ts.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryToolError } from '../../src/core/errors.js';
import { SyncRemoteError } from '../../src/sync/remote.js';
import { failureOf } from '../../src/sync/retry-policy.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The wait `failureOf` plans after `failures` in a row, with `random()` answering `jitter`. */
function wait(error: unknown, failures: number, jitter = 0.5): number | null {
  vi.spyOn(Math, 'random').mockReturnValue(jitter);
  const { error: status } = failureOf(error, failures, true);
  return status.retryAt === null ? null : status.retryAt.getTime() - status.at.getTime();
}

const down = new SyncRemoteError('server', 'down');

describe('backoff', () => {
  it('doubles from 1 s with each failure in a row, and stays at 5 min', () => {
    const waits = Array.from({ length: 12 }, (_, i) => wait(down, i + 1));
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300].map((s) => s * 1_000));
  });

  it('spreads each wait a quarter either way, so tabs that failed together do not come back together', () => {
    expect(wait(down, 3, 0)).toBe(3_000);
    expect(wait(down, 3, 0.999_999)).toBeCloseTo(5_000, -1);
    expect(wait(down, 20, 0)).toBe(225_000);
  });

  it('waits at least as long as the server asks', () => {
    const busy = new SyncRemoteError('rate-limited', 'slow down', { status: 429, retryAfterMs: 30_000 });
    expect(wait(busy, 1)).toBe(30_000);
    expect(wait(busy, 10)).toBe(300_000);
  });

  it('retries the network, the server, too many requests and storage; not credentials, refusals or a stop', () => {
    for (const kind of ['network', 'server', 'rate-limited'] as const) {
      expect(failureOf(new SyncRemoteError(kind, kind), 1, true).retryable).toBe(true);
    }
    expect(failureOf(new MemoryToolError('storage', 'full'), 1, true)).toMatchObject({ retryable: true, error: { kind: 'storage' } });
    for (const kind of ['auth', 'protocol', 'full'] as const) {
      expect(failureOf(new SyncRemoteError(kind, kind), 1, true)).toMatchObject({ retryable: false, error: { retryAt: null } });
    }
    expect(failureOf(new DOMException('stopped', 'AbortError'), 1, true).error).toMatchObject({ kind: 'aborted', retryAt: null });
  });

  it('plans no retry when the engine is not retrying by itself (stopped, or interval null)', () => {
    expect(failureOf(down, 1, false)).toMatchObject({ retryable: true, error: { kind: 'server', retryAt: null } });
  });
});
