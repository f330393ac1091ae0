// Calling an app's listeners: each one, on a copy of the set (a listener may unsubscribe), and none may break the
// caller or the listeners after it by throwing.

/** Calls every listener with `event`; a throwing listener is skipped, never rethrown. */
export function callEach<E>(listeners: Iterable<(event: E) => void>, event: E): void {
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch {
      // An app's bug must not undo a committed change, hide it from other listeners, or break a conversation loop.
    }
  }
}
