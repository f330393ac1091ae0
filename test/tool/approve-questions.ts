// An `approve` hook a test answers by hand: each question is kept open until the test answers it, so the test can
// look at the database while the person "thinks".

import { expect } from 'vitest';
import type { ApproveAnswer, ApproveHook, WriteProposal } from '../../src/index.js';

export interface OpenQuestion {
  proposal: WriteProposal;
  answer(answer: ApproveAnswer): void;
  fail(error: unknown): void;
}

export interface Questions {
  approve: ApproveHook;
  /** Every question asked so far, answered or not. */
  asked: OpenQuestion[];
  /** The `n`th question (0-based), once it has been asked. */
  nth(n: number): Promise<OpenQuestion>;
}

export function questions(): Questions {
  const asked: OpenQuestion[] = [];
  return {
    asked,
    approve: (proposal) =>
      new Promise<ApproveAnswer>((resolve, reject) => {
        asked.push({ proposal, answer: resolve, fail: reject });
      }),
    nth: async (n) => {
      await expect.poll(() => asked.length, { interval: 5 }).toBeGreaterThan(n);
      const question = asked[n];
      if (!question) throw new Error(`question ${n} was not asked`);
      return question;
    },
  };
}
