// How the age-encryption package is loaded: handed in by ../tool/lazy-parts.ts with the bundle part (in a worker, the
// package the worker entry provides), so this folder holds no import() and no import of the tool's loader. Typed
// `object`, so that no declaration of this package names the age package (an app without its types must compile).

let loadLibrary: (() => Promise<object>) | undefined;

/** Sets how the age package is loaded: the tool's `age` part (`import()`, or the module the worker entry provides). */
export function useAgeLoader(load: () => Promise<object>): void {
  loadLibrary = load;
}

/** The loader set, if any. */
export function ageLoader(): (() => Promise<object>) | undefined {
  return loadLibrary;
}
