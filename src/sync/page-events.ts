// The moments a page offers for a pass: the browser back online, the page shown again. Where there is no such
// event (Node, a worker without a document), nothing is listened to.

/** Calls `soon` on each; returns the function that stops listening. */
export function onPageReturn(soon: () => void): () => void {
  const scope = globalThis as {
    addEventListener?: (type: string, listener: () => void) => void;
    removeEventListener?: (type: string, listener: () => void) => void;
    document?: {
      visibilityState?: string;
      addEventListener?: (type: string, listener: () => void) => void;
      removeEventListener?: (type: string, listener: () => void) => void;
    };
  };
  const shown = (): void => {
    if (scope.document?.visibilityState === 'visible') soon();
  };
  scope.addEventListener?.('online', soon);
  scope.document?.addEventListener?.('visibilitychange', shown);
  return () => {
    scope.removeEventListener?.('online', soon);
    scope.document?.removeEventListener?.('visibilitychange', shown);
  };
}
