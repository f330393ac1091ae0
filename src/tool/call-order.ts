// The order the tool's calls take effect in, also when one awaits something first (./README.md, "Call order").

/** A call's turn: settles when it ends; `waiting` counts the calls it has yet to let go on. */
interface Turn {
  done: Promise<void>;
  waiting: number;
}

export class CallOrder {
  /** The turn later calls must wait for; kept until the last call it woke has gone on. */
  #busy: Turn | undefined;

  /**
   * Runs `task` once the turns taken before it have ended; if `hold()` says so, the call takes a turn of its own.
   * The wait's end, `hold()` and the start of `task` are one synchronous step, so no later call slips between.
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
