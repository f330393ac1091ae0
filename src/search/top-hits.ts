// The best `limit` hits of many in rank order, kept as they come: ranking `the` over 10,000 files sorted all 10,000
// to show 20 (./README.md, "Speed").

import { byRank } from './matching.js';

type Ranked = { matched: number; score: number; path: string };

/** A sorted window of the best hits seen: an also-ran costs one comparison with the worst kept. */
export class TopHits<T extends Ranked> {
  readonly #best: T[] = [];
  readonly #limit: number;
  #seen = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** How many hits were offered, kept or not. */
  get seen(): number {
    return this.#seen;
  }

  /** The best hits, best first, as `[...all].sort(byRank).slice(0, limit)` would give (byRank is a total order). */
  get best(): readonly T[] {
    return this.#best;
  }

  /** Whether a hit ranked so would be kept (`add` keeps exactly these): no hit object is made for an also-ran. */
  admits(matched: number, score: number, path: string): boolean {
    const worst = this.#best[this.#best.length - 1];
    return this.#best.length < this.#limit || !worst || byRank({ matched, score, path }, worst) < 0;
  }

  add(hit: T): void {
    this.#seen++;
    const best = this.#best;
    const worst = best[best.length - 1];
    if (best.length >= this.#limit && worst && byRank(hit, worst) >= 0) return;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      const there = best[mid];
      if (there && byRank(there, hit) <= 0) low = mid + 1;
      else high = mid;
    }
    best.splice(low, 0, hit);
    if (best.length > this.#limit) best.pop();
  }
}
