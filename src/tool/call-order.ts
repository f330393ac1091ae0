// The order the tool's calls take effect in: a call made after another starts its transaction after it, also when
// the earlier one awaits something first (a part loaded on first use, a write that may run twice).
// See ./README.md, "Call order".

/** A call's turn: settles when it ends; `waiting` counts the calls it has yet to let go on. */
interface Turn {
  done: Promise<void>;
  waiting: number;
}

export class CallOrder {
  /** The turn later calls must wait for; kept until the last call it woke has gone on. */
  #busy: Turn | undefined;

  /**
   * Runs `task` once the turns taken before it have ended. If `hold()` says so (asked then), the call takes a turn of
   * its own, which calls made meanwhile wait for until `task` settles. The wait's end, `hold()` and the start of
   * `task` are one synchronous step: a step between would let a later call slip ahead.
   */
  async enter<T>(task: (held: boolean) => Promise<T>, hold: () => boolean = () => false): Promise<T> {
    for (let turn = this.#busy; turn; turn = this.#busy === turn ? undefined : this.#busy) {
      turn.waiting++;
      await turn.done;
      // The last call the turn woke takes it down in the same step as it goes on.
      if (--turn.waiting === 0 && this.#busy === turn) this.#busy = undefined;
    }
    if (!hold()) return task(false);
    const release = this.#take();
    try {
      return await task(true);
    } finally {
      release();
    }
  }

  #take(): () => void {
    let release!: () => void;
    const turn: Turn = { done: new Promise((resolve) => (release = resolve)), waiting: 0 };
    this.#busy = turn;
    return () => {
      if (turn.waiting === 0 && this.#busy === turn) this.#busy = undefined;
      release();
    };
  }
}
