// A module load made once: what the demo's code loaded on first use shares (./lazy-code.ts, ../chat/transcript.ts).

/** `load()` once: later calls share its promise; a failed load (offline, say) is tried afresh next time. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
