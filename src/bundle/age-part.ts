// The age code for an encrypted bundle: ./age-crypto.ts on the age-encryption package, which is loaded only then.
// The package's loader is handed in by ../tool/lazy-parts.ts with this part (or by the worker entry, which may not
// import()), so that this folder holds no import() of its own and no import of the tool's loader.

import { MemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';
import { ageCrypto } from './age-crypto.js';
import type { AgeCrypto, AgeLibrary } from './age-crypto.js';

let loadLibrary: (() => Promise<AgeLibrary>) | undefined;

/** Sets how the age package is loaded: `import()` as a part of the tool, or the module the worker entry holds. */
export function useAgeLoader(load: () => Promise<AgeLibrary>): void {
  loadLibrary = load;
}

/** The age code, or `unavailable` saying why the package could not be loaded. */
export async function loadAgeCrypto(): Promise<AgeCrypto> {
  if (!loadLibrary) throw new MemoryToolError('unavailable', reply.unavailable('the age package was not handed to the bundle part'));
  return ageCrypto(await loadLibrary());
}
